//! `hwfit select`.

use anyhow::Result;
use hwfit_core::{select_hardware, Catalog, DeviceCatalog, PerfModel, Selection, SelectionConfig, SelectionRequest};

use crate::cli::SelectArgs;
use crate::{detection, model_input, output, targets};

/// The selection config from `--config`, or the seeds' defaults.
pub fn load_config(path: Option<&std::path::Path>) -> Result<SelectionConfig> {
    match path {
        None => Ok(SelectionConfig::default()),
        Some(path) => crate::model_input::parse_file(path, "selection config", SelectionConfig::from_json),
    }
}

fn print_text(s: &Selection) {
    output::text(&format!(
        "{} ({}, {} parameters, {}) — {}, {}, batch {}, {} tokens, {}",
        s.model_name,
        s.model_family,
        output::params(s.model_size),
        s.model_size_category,
        s.mode,
        s.workload,
        s.batch_size,
        s.sequence_length,
        s.precision
    ));
    output::text(&format!(
        "recommendation: {}   fallbacks: {}",
        s.primary_recommendation.as_deref().unwrap_or("none"),
        if s.fallback_options.is_empty() {
            "none".into()
        } else {
            s.fallback_options.join(", ")
        }
    ));
    let mut table = output::table([
        "candidate",
        "device",
        "score",
        "throughput",
        "latency ms",
        "memory",
        "status",
    ]);
    let mut rows: Vec<_> = s.all_scores.iter().collect();
    rows.sort_by(|a, b| {
        b.1.score
            .unwrap_or(-1.0)
            .total_cmp(&a.1.score.unwrap_or(-1.0))
            .then(a.0.cmp(b.0))
    });
    for (key, c) in rows {
        let (throughput, latency, memory) = c.predictions.as_ref().map_or_else(
            || ("-".into(), "-".into(), "-".into()),
            |p| {
                (
                    format!("{:.1} {}", p.throughput, p.throughput_unit),
                    format!("{:.2}", p.latency),
                    format!("{} of {}", output::mb(p.memory_usage), output::mb(p.memory_capacity)),
                )
            },
        );
        table.add_row([
            key.clone(),
            c.device.clone(),
            c.score.map_or_else(|| "-".into(), |v| format!("{v:.3}")),
            throughput,
            latency,
            memory,
            c.excluded.clone().unwrap_or_else(|| format!("ok ({})", c.support)),
        ]);
    }
    output::text(&table.to_string());
    output::text(&s.explanation);
    output::text(&format!("source: {}", s.prediction_source));
}

/// Selects and prints.
pub fn run(args: &SelectArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let model = model_input::resolve(
        &catalog,
        args.model.model.as_deref(),
        args.model.model_config.as_deref(),
    )?;
    let req = SelectionRequest {
        batch_size: args.step.batch_size,
        seq_length: args.step.seq_length,
        mode: args.mode,
        precision: args.step.precision,
        task_type: args.task_type,
        candidates: if args.hardware.is_none() && args.devices.is_empty() {
            detection::candidates(&args.detection, &devices)?
        } else {
            targets::candidates(args.hardware.as_deref(), &args.devices, &devices)?
        },
    };
    let selection = select_hardware(
        &model.spec,
        &req,
        &PerfModel::builtin()?,
        &load_config(args.config.as_deref())?,
    )?;
    if args.json {
        output::json(&selection)
    } else {
        print_text(&selection);
        Ok(())
    }
}
