//! `hwfit matrix`, `map`, `distributed`, `resource-pool`, `recommend` and `compatible-models`.

use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::api::{
    CompatibleRequest, DistributedPlanRequest, MapRequest, MatrixRequest, RecommendRequest, ResourcePoolRequest,
};
use hwfit_core::plan::matrix::Cell;
use serde::Serialize;

use crate::cli::{CompatibleArgs, DistributedArgs, MapArgs, MatrixArgs, RecommendArgs, ResourcePoolArgs};
use crate::{detection, model_input, output};

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
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = MatrixRequest {
        models: args.models.clone(),
        hardware,
        devices,
        device_spec,
        browser,
        batch_sizes: args.batch_sizes.clone(),
        precisions: args.precisions.clone(),
        mode: args.mode,
        sequence_length: args.seq_length,
    };
    let m = detection::ask(&*model_input::hwfit(None)?, &request, &args.detection)?;
    if let Some(dir) = &args.visualize {
        write_charts(&m, dir)?;
    }
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

/// Writes the predictor guide's five charts of `m` into `dir` (created if needed) as SVG files, and
/// says so on stderr (stdout may carry the JSON).
fn write_charts(m: &hwfit_core::plan::matrix::PredictionMatrix, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for chart in hwfit_charts::matrix_charts(m) {
        let path = dir.join(format!("{}.svg", chart.kind.file_stem()));
        std::fs::write(&path, &chart.svg).with_context(|| format!("cannot write {}", path.display()))?;
        output::note(&format!("wrote {} ({})", path.display(), chart.title));
    }
    Ok(())
}

/// `hwfit map`.
pub fn map(args: &MapArgs) -> Result<()> {
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = MapRequest {
        model_families: args.families.clone(),
        batch_sizes: args.batch_sizes.clone(),
        hardware,
        devices,
        device_spec,
        browser,
    };
    let map = detection::ask(
        &*model_input::hwfit(args.config.config.as_deref())?,
        &request,
        &args.detection,
    )?;
    emit(&map, args.output.as_deref())
}

/// `hwfit distributed`.
pub fn distributed(args: &DistributedArgs) -> Result<()> {
    let (model_name, model_config) = model_input::model(&args.model)?;
    let request = DistributedPlanRequest {
        model_name,
        model_config,
        model_family: None,
        gpu_count: args.gpu_count,
        batch_size: args.batch_size,
        max_memory_gb: args.max_memory_gb,
        device: args.device.clone(),
        sequence_length: args.seq_length,
    };
    let plan = model_input::hwfit(None)?.ask(&request, &[])?;
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

/// `hwfit resource-pool`.
pub fn resource_pool(args: &ResourcePoolArgs) -> Result<()> {
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = ResourcePoolRequest {
        models: args.models.clone(),
        hardware,
        devices,
        device_spec,
        browser,
        precision: args.precision,
        ..ResourcePoolRequest::default()
    };
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let config = detection::ask(&hwfit, &request, &args.detection)?;
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
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = RecommendRequest {
        task: args.task.clone(),
        hardware,
        devices,
        device_spec,
        browser,
    };
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let r = detection::ask(&hwfit, &request, &args.detection)?;
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

/// `hwfit compatible-models`.
pub fn compatible_models(args: &CompatibleArgs) -> Result<()> {
    let request = CompatibleRequest {
        models: args.models.clone(),
        hardware: args.hardware,
        device: args.device.clone(),
    };
    let r = model_input::hwfit(args.config.config.as_deref())?.ask(&request, &[])?;
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
