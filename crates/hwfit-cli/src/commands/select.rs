//! `hwfit select` and `hwfit batch-select`.

use anyhow::Result;
use hwfit_core::api::{BatchModel, BatchSelectRequest, SelectRequest};
use hwfit_core::Selection;

use crate::cli::{BatchArgs, SelectArgs};
use crate::{detection, model_input, output};

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
    let first = s.primary_recommendation.as_deref();
    if let Some((key, candidate)) = first.and_then(|k| Some((k, s.all_scores.get(k)?))) {
        if let Some(line) = candidate
            .predictions
            .as_ref()
            .and_then(|p| super::predict::runtimes_line(key, p, &candidate.runtimes))
        {
            output::text(&line);
        }
    }
    output::text(&format!("source: {}", s.prediction_source));
}

/// Selects and prints.
pub fn run(args: &SelectArgs) -> Result<()> {
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let (model_name, model_config) = model_input::model(&args.model)?;
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = SelectRequest {
        model_name,
        model_config,
        model_family: None,
        hardware,
        devices,
        device_spec,
        browser,
        precision: args.step.precision,
        mode: args.mode,
        batch_size: args.step.batch_size,
        sequence_length: args.step.seq_length,
        task_type: args.task_type,
        distributed: args.distributed.is_some(),
        gpu_count: args.distributed.unwrap_or(1),
        threads: args.cpu.threads,
        mixed_precision: args.step.mixed_precision,
    };
    let selection = detection::ask(&hwfit, &request, &args.detection)?;
    if args.json {
        output::json(&selection)
    } else {
        print_text(&selection);
        Ok(())
    }
}

/// Selects for several models and prints.
pub fn batch(args: &BatchArgs) -> Result<()> {
    let hwfit = model_input::hwfit(args.config.config.as_deref())?;
    let (hardware, devices, device_spec, browser) = model_input::targets(&args.targets)?;
    let request = BatchSelectRequest {
        models: args
            .models
            .iter()
            .map(|name| BatchModel {
                name: name.clone(),
                ..BatchModel::default()
            })
            .collect(),
        hardware,
        devices,
        device_spec,
        browser,
        precision: args.step.precision,
        mode: args.mode,
        batch_size: args.step.batch_size,
        sequence_length: args.step.seq_length,
        task_type: None,
        threads: args.cpu.threads,
        mixed_precision: args.step.mixed_precision,
    };
    let answer = detection::ask(&hwfit, &request, &args.detection)?;
    if args.json {
        return output::json(&answer);
    }
    let mut table = output::table(["model", "primary", "fallbacks"]);
    for (model, e) in &answer {
        let primary = match &e.error {
            Some(why) => format!("not answered: {why}"),
            None => e.primary.clone().unwrap_or_else(|| "none".into()),
        };
        table.add_row([model.clone(), primary, e.fallbacks.join(", ")]);
    }
    output::text(&table.to_string());
    Ok(())
}
