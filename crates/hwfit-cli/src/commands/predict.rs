//! `hwfit predict`.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use hwfit_core::{Catalog, Device, DeviceCatalog, Family, PerfModel, PerfRequest, Prediction, SpecSource, Workload};
use serde::Serialize;

use crate::cli::PredictArgs;
use crate::{detection, model_input, output};

/// One entry of `predictions`: the prediction and the device it was made for.
#[derive(Serialize)]
struct Entry<'a> {
    #[serde(flatten)]
    prediction: Prediction,
    device: &'a str,
}

#[derive(Serialize)]
struct Answer<'a> {
    model_name: &'a str,
    model_family: Family,
    model_source: &'a SpecSource,
    batch_size: u32,
    sequence_length: u32,
    precision: hwfit_core::Precision,
    workload: Workload,
    mode: hwfit_core::Mode,
    predictions: BTreeMap<String, Entry<'a>>,
}

/// Predicts on every device and hardware type asked for.
pub fn run(args: &PredictArgs) -> Result<()> {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let model = model_input::resolve(&catalog, args.model.as_deref(), args.model_config.as_deref())?;
    let mut targets: Vec<(String, Device)> = Vec::new();
    for name in &args.devices {
        let d = devices.resolve(name)?;
        targets.push((d.id.clone(), d.clone()));
    }
    for hw in &args.hardware {
        targets.push((hw.to_string(), devices.reference(*hw)?.clone()));
    }
    if targets.is_empty() {
        targets = detection::candidates(&args.detection, &devices)?
            .into_iter()
            .map(|c| (c.key, c.device))
            .collect();
    }
    let workload = args.workload.unwrap_or(if model.spec.is_generative() {
        Workload::Decode
    } else {
        Workload::Forward
    });
    let req = PerfRequest {
        precision: args.step.precision,
        workload,
        batch_size: args.step.batch_size,
        seq_length: args.step.seq_length,
    };
    let perf = PerfModel::builtin()?;
    let mut predictions = BTreeMap::new();
    for (key, device) in &targets {
        let prediction = perf
            .predict(&model.spec, device, &req)
            .with_context(|| format!("on {}", device.name))?;
        predictions.insert(
            key.clone(),
            Entry {
                prediction,
                device: &device.name,
            },
        );
    }
    let answer = Answer {
        model_name: &model.spec.name,
        model_family: model.spec.family,
        model_source: &model.source,
        batch_size: req.batch_size,
        sequence_length: req.seq_length,
        precision: req.precision,
        workload,
        mode: workload.mode(),
        predictions,
    };
    if args.json {
        return output::json(&answer);
    }
    output::text(&format!(
        "{} — {workload}, batch {}, {} tokens, {}",
        answer.model_name, req.batch_size, req.seq_length, req.precision
    ));
    let mut table = output::table([
        "target",
        "device",
        "throughput",
        "latency ms",
        "memory",
        "fits",
        "bound",
        "source",
    ]);
    for (key, e) in &answer.predictions {
        let p = &e.prediction;
        table.add_row([
            key.clone(),
            e.device.to_string(),
            format!("{:.1} {}", p.throughput, p.throughput_unit),
            format!("{:.2}", p.latency),
            format!("{} of {}", output::mb(p.memory_usage), output::mb(p.memory_capacity)),
            if p.fits_in_memory { "yes".into() } else { "NO".into() },
            p.bound.to_string(),
            p.source.to_string(),
        ]);
    }
    output::text(&table.to_string());
    Ok(())
}
