//! `hwfit predict` and `hwfit analyze`.

use anyhow::Result;
use hwfit_core::api::{AnalyzeRequest, PredictRequest};
use hwfit_core::perf::{Prediction, RuntimeOption};

use crate::cli::{AnalyzeArgs, PredictArgs};
use crate::{detection, model_input, output};

/// Predicts on every device and hardware type asked for.
pub fn run(args: &PredictArgs) -> Result<()> {
    let hwfit = model_input::hwfit(None)?;
    let (model_name, model_config) = model_input::model(&args.model)?;
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = PredictRequest {
        model_name,
        model_config,
        model_family: None,
        hardware,
        devices,
        device_spec,
        browser,
        precision: args.step.precision,
        mode: args.mode,
        workload: args.workload,
        batch_size: args.step.batch_size,
        sequence_length: args.step.seq_length,
        runtime: args.runtime,
        threads: args.cpu.threads,
        prompt_chunk: args.prompt_chunk,
        mixed_precision: args.step.mixed_precision,
    };
    let answer = detection::ask(&hwfit, &request, &args.detection)?;
    if args.json {
        return output::json(&answer);
    }
    output::text(&format!(
        "{} — {}, batch {}, {} tokens, {}",
        answer.model_name,
        answer.workload,
        answer.batch_size,
        answer.sequence_length,
        output::training_precision(answer.precision, answer.mixed_precision)
    ));
    let mut table = output::table([
        "target",
        "device",
        "throughput",
        "latency ms",
        "memory",
        "fits",
        "bound",
        "runtime",
        "source",
    ]);
    for (key, e) in &answer.predictions {
        let p = &e.prediction;
        table.add_row([
            key.clone(),
            e.device.clone(),
            format!("{:.1} {}", p.throughput, p.throughput_unit),
            format!("{:.2}", p.latency),
            format!("{} of {}", output::mb(p.memory_usage), output::mb(p.memory_capacity)),
            if p.fits_in_memory { "yes".into() } else { "NO".into() },
            p.bound.to_string(),
            p.runtime.to_string(),
            p.source.to_string(),
        ]);
    }
    output::text(&table.to_string());
    for (key, e) in &answer.predictions {
        if e.prediction.host_costs.is_some() {
            output::text(&format!("{key}: {}", e.prediction.bound_explanation()));
        }
        if let Some(line) = e.prediction.prompt_passes_explanation() {
            output::text(&format!("{key}: {line}"));
        }
        if let Some(line) = runtimes_line(key, &e.prediction, &e.runtimes) {
            output::text(&line);
        }
        if let Some(r) = e.resolved_from.as_ref().filter(|r| r.rule != "exact name, id or alias") {
            let tokens = if r.tokens.is_empty() {
                String::new()
            } else {
                format!(" [{}]", r.tokens.join(" "))
            };
            output::text(&format!("{key}: '{}' read as{tokens}: {}", r.name, r.rule));
        }
        if !e.memory_options.is_empty() {
            let sizes: Vec<String> = e
                .memory_options
                .iter()
                .map(|m| {
                    format!(
                        "{} GB {}",
                        m.memory_gb,
                        if m.fits_in_memory { "fits" } else { "does NOT fit" }
                    )
                })
                .collect();
            output::text(&format!("{key}: comes in {}", sizes.join(", ")));
        }
    }
    for (key, why) in &answer.refused {
        output::text(&format!("{key}: not predicted: {why}"));
    }
    for note in &answer.notes {
        output::text(&format!("note: {note}"));
    }
    Ok(())
}

/// `KEY by runtime: tensorrt 571.8 items/s (host-bound), pytorch …` when more than one runtime has a
/// fitted model for the target.
pub(crate) fn runtimes_line(key: &str, prediction: &Prediction, runtimes: &[RuntimeOption]) -> Option<String> {
    (runtimes.len() > 1).then(|| {
        let options: Vec<String> = runtimes
            .iter()
            .map(|r| {
                format!(
                    "{} {:.1} {} ({}-bound)",
                    r.runtime, r.throughput, prediction.throughput_unit, r.bound
                )
            })
            .collect();
        format!("{key} by runtime: {}", options.join(", "))
    })
}

/// Analyzes a model across hardware, batch sizes and modes.
pub fn analyze(args: &AnalyzeArgs) -> Result<()> {
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let (model_name, model_config) = model_input::model(&args.model)?;
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = AnalyzeRequest {
        model_name,
        model_config,
        model_family: None,
        batch_sizes: args.batch_sizes.clone(),
        hardware,
        devices,
        device_spec,
        browser,
        precision: args.precision,
        sequence_length: args.seq_length,
        mixed_precision: args.mixed_precision,
    };
    let a = detection::ask(&hwfit, &request, &args.detection)?;
    if args.json {
        return output::json(&a);
    }
    output::text(&format!("{} ({})", a.model_name, a.model_family));
    let mut table = output::table([
        "mode",
        "batch",
        "target",
        "throughput",
        "latency ms",
        "memory",
        "recommended",
    ]);
    for (mode, part) in [("inference", &a.inference), ("training", &a.training)] {
        for (batch, cells) in &part.performance {
            let primary = part.recommendations.get(batch).and_then(|r| r.primary.clone());
            for (target, p) in cells {
                table.add_row([
                    mode.to_string(),
                    batch.clone(),
                    target.clone(),
                    format!("{:.1} {}", p.throughput, p.throughput_unit),
                    format!("{:.2}", p.latency),
                    output::mb(p.memory_usage),
                    if primary.as_deref() == Some(target.as_str()) {
                        "★".into()
                    } else {
                        String::new()
                    },
                ]);
            }
        }
    }
    output::text(&table.to_string());
    Ok(())
}
