//! `hwfit matrix`, `map`, `distributed`, `resource-config`, `recommend` and `compatible`.

use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::plan::distributed::{plan_distributed, DistributedRequest};
use hwfit_core::plan::map::selection_map;
use hwfit_core::plan::matrix::{prediction_matrix, Cell};
use hwfit_core::plan::pool::resource_pool_config;
use hwfit_core::plan::recommend::{compatible_models, recommend_models_for_task};
use hwfit_core::{Candidate, Catalog, Classifier, DeviceCatalog, ModelSpec, PerfModel, Precision, SelectionConfig};
use serde::Serialize;

use super::select::load_config;
use crate::cli::{CompatibleArgs, DistributedArgs, MapArgs, MatrixArgs, RecommendArgs, ResourceConfigArgs};
use crate::{model_input, output, targets};

const DEFAULT_MATRIX_MODELS: &str = "bert-base-uncased,t5-small,gpt2,vit-base-patch16-224";

fn specs(catalog: &Catalog, names: &[&str]) -> Result<Vec<ModelSpec>> {
    names.iter().map(|n| Ok(catalog.resolve(n)?.spec)).collect()
}

/// Writes JSON to `path`, or prints it.
fn emit<T: Serialize>(value: &T, path: Option<&Path>) -> Result<()> {
    match path {
        Some(p) => {
            std::fs::write(p, serde_json::to_string_pretty(value)? + "\n")
                .with_context(|| format!("cannot write {}", p.display()))?;
            output::text(&format!("wrote {}", p.display()));
            Ok(())
        }
        None => output::json(value),
    }
}

/// `hwfit matrix`.
pub fn matrix(args: &MatrixArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let models = specs(
        &catalog,
        &targets::list("--models", args.models.as_deref().unwrap_or(DEFAULT_MATRIX_MODELS))?,
    )?;
    let candidates = targets::candidates(args.targets.hardware.as_deref(), &args.targets.devices, &devices)?;
    let batch_sizes: Vec<u32> = targets::list("--batch-sizes", &args.batch_sizes)?
        .iter()
        .map(|b| {
            b.parse::<u32>()
                .map_err(|e| anyhow::anyhow!("invalid batch size '{b}': {e}"))
        })
        .collect::<Result<_>>()?;
    let precisions: Vec<Precision> = targets::list("--precision", &args.precision)?
        .iter()
        .map(|p| p.parse())
        .collect::<Result<_, _>>()?;
    let m = prediction_matrix(
        &models,
        &candidates,
        &batch_sizes,
        &precisions,
        args.mode,
        args.seq_length,
        &PerfModel::builtin()?,
    )?;
    if args.json || args.output.is_some() {
        return emit(&m, args.output.as_deref());
    }
    let mut table = output::table([
        "model",
        "hardware",
        "batch",
        "precision",
        "throughput",
        "latency ms",
        "memory",
    ]);
    for row in m.models.values() {
        for (hw, by_batch) in &row.predictions {
            for (batch, by_precision) in by_batch {
                for (precision, cell) in by_precision {
                    let (t, l, mem) = match cell {
                        Cell::Predicted {
                            throughput,
                            throughput_unit,
                            latency_mean,
                            memory_usage,
                            fits_in_memory,
                            ..
                        } => (
                            format!("{throughput:.1} {throughput_unit}"),
                            format!("{latency_mean:.2}"),
                            format!(
                                "{}{}",
                                output::mb(*memory_usage),
                                if *fits_in_memory { "" } else { " (does not fit)" }
                            ),
                        ),
                        Cell::Refused { error } => (error.clone(), "-".into(), "-".into()),
                    };
                    table.add_row([
                        row.name.clone(),
                        hw.clone(),
                        batch.clone(),
                        precision.to_string(),
                        t,
                        l,
                        mem,
                    ]);
                }
            }
        }
    }
    output::text(&table.to_string());
    Ok(())
}

/// `hwfit map`.
pub fn map(args: &MapArgs) -> Result<()> {
    let candidates = targets::candidates(
        args.targets.hardware.as_deref(),
        &args.targets.devices,
        &DeviceCatalog::builtin(),
    )?;
    let map = selection_map(
        &Catalog::builtin(),
        &candidates,
        &PerfModel::builtin()?,
        &load_config(args.config.as_deref())?,
    )?;
    emit(&map, args.output.as_deref())
}

/// `hwfit distributed`.
pub fn distributed(args: &DistributedArgs) -> Result<()> {
    let model = model_input::resolve(
        &Catalog::builtin(),
        args.model.model.as_deref(),
        args.model.model_config.as_deref(),
    )?;
    let device = args
        .device
        .as_deref()
        .map(|d| DeviceCatalog::builtin().resolve(d).cloned())
        .transpose()?;
    let plan = plan_distributed(
        &model.spec,
        &DistributedRequest {
            gpu_count: args.gpu_count,
            batch_size: args.batch_size,
            seq_length: args.seq_length,
            max_memory_gb: args.max_memory_gb,
            device,
        },
    )?;
    if let Some(path) = &args.deepspeed_config {
        std::fs::write(path, serde_json::to_string_pretty(&plan.deepspeed_config)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return output::json(&plan);
    }
    let m = &plan.estimated_memory;
    output::text(&format!(
        "{} on {} GPU(s), {} GB each",
        plan.model_name, plan.gpu_count, plan.max_memory_gb
    ));
    output::text(&format!(
        "strategy: {} (ZeRO stage {}), micro-batch {} × {} accumulation × {} GPUs = global batch {}, {} mixed precision, activation checkpointing {}",
        plan.distributed_strategy,
        plan.zero_stage,
        plan.per_gpu_batch_size,
        plan.gradient_accumulation_steps,
        plan.gpu_count,
        plan.global_batch_size,
        plan.mixed_precision_dtype,
        if plan.activation_checkpointing { "on" } else { "off" }
    ));
    output::text(&format!(
        "memory: parameters {} GB, gradients {} GB, optimizer {} GB, activations {} GB per GPU; {} GB in total, {} GB per GPU",
        m.parameters_gb, m.gradients_gb, m.optimizer_gb, m.activations_gb, m.total_gb, m.per_gpu_gb
    ));
    output::text(&plan.explanation);
    output::text(&format!(
        "\n{}\n\nds_config.json:\n{}",
        plan.torchrun_command,
        serde_json::to_string_pretty(&plan.deepspeed_config)?
    ));
    Ok(())
}

/// `hwfit resource-config`.
pub fn resource_config(args: &ResourceConfigArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let names: Vec<&str> = args.models.iter().map(String::as_str).collect();
    let candidates = targets::candidates(
        args.targets.hardware.as_deref(),
        &args.targets.devices,
        &DeviceCatalog::builtin(),
    )?;
    let config = resource_pool_config(
        &specs(&catalog, &names)?,
        &candidates,
        args.precision,
        128,
        &PerfModel::builtin()?,
        &SelectionConfig::default(),
    )?;
    if args.json {
        return output::json(&config);
    }
    let mut table = output::table(["model", "hardware", "recommended memory"]);
    for (name, hw) in &config.hardware_recommendations.per_model {
        let mem = config
            .resource_requirements
            .per_model
            .get(name)
            .map_or(0, |r| r.recommended_memory_mb);
        table.add_row([name.clone(), hw.clone(), output::mb(mem as f64)]);
    }
    output::text(&table.to_string());
    let s = &config.resource_pool_config;
    output::text(&format!(
        "low-memory mode: {}, timeout {} min, preferred hardware {} (torch device {})",
        s.low_memory_mode,
        s.recommended_timeout_mins,
        config.hardware_recommendations.preferred_hardware,
        config.hardware_recommendations.torch_device.as_deref().unwrap_or("n/a")
    ));
    output::text(&config.explanation);
    Ok(())
}

/// `hwfit recommend`.
pub fn recommend(args: &RecommendArgs) -> Result<()> {
    let candidates = targets::candidates(
        args.targets.hardware.as_deref(),
        &args.targets.devices,
        &DeviceCatalog::builtin(),
    )?;
    let r = recommend_models_for_task(
        &args.task,
        &Catalog::builtin(),
        &Classifier::builtin(),
        &candidates,
        &PerfModel::builtin()?,
        &SelectionConfig::default(),
    )?;
    if args.json {
        return output::json(&r);
    }
    let mut table = output::table([
        "model",
        "subfamily",
        "parameters",
        "hardware",
        "predicted",
        "memory",
        "confidence",
    ]);
    for m in &r.recommendations {
        table.add_row([
            m.model_name.clone(),
            m.subfamily.to_string(),
            output::params(m.parameters),
            m.recommended_hardware.clone(),
            m.predicted_throughput.clone(),
            output::mb(m.recommended_memory_mb as f64),
            format!("{:.2}", m.confidence),
        ]);
    }
    output::text(&format!("task {} on {}", r.task, r.hardware_constraints.join(", ")));
    output::text(&table.to_string());
    Ok(())
}

/// `hwfit compatible`.
pub fn compatible(args: &CompatibleArgs) -> Result<()> {
    let devices = DeviceCatalog::builtin();
    let candidate = match (&args.hardware, &args.device) {
        (Some(hw), _) => Candidate::hardware(&devices, *hw)?,
        (None, Some(d)) => Candidate::device(devices.resolve(d)?),
        (None, None) => anyhow::bail!("give --hardware or --device"),
    };
    let names: Vec<&str> = args.models.iter().map(String::as_str).collect();
    let r = compatible_models(
        &specs(&Catalog::builtin(), &names)?,
        &candidate,
        &PerfModel::builtin()?,
        &SelectionConfig::default(),
    )?;
    if args.json {
        return output::json(&r);
    }
    output::text(&format!("on {} ({}):", r.hardware, r.device));
    for m in &r.compatible {
        output::text(&format!("  ✅ {m}"));
    }
    for (m, why) in &r.incompatible {
        output::text(&format!("  ❌ {m}: {why}"));
    }
    Ok(())
}
