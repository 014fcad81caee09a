//! `hwfit calibrate`: fit the performance model to the measured data and report its accuracy.

use anyhow::{Context, Result};
use hwfit_core::perf::fit::{accuracy, cross_validate_by_device, fit, Accuracy};
use hwfit_core::perf::Coefficients;
use serde::Serialize;

use crate::calibration::{self, Excluded};
use crate::cli::CalibrateArgs;
use crate::output;

/// One measurement against the fitted model.
#[derive(Serialize)]
pub struct Residual {
    pub label: String,
    pub device: String,
    pub measured: f64,
    pub predicted: f64,
    pub log_error: f64,
}

/// The WebGPU runtime allowance fitted to web-llm's memory figures, and how well estimates match.
#[derive(Serialize)]
pub struct MemoryCalibration {
    /// Median of (web-llm's figure − hwfit's estimate without allowance), MB.
    pub webgpu_runtime_overhead_mb: f64,
    /// Share of estimates (with that allowance) within ±25 % of web-llm's figures.
    pub within_25_percent: f64,
    /// Median |ln(estimate / figure)|.
    pub median_abs_log_error: f64,
    /// The figures compared.
    pub samples: Vec<calibration::MemorySample>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => f64::midpoint(v[n / 2 - 1], v[n / 2]),
    }
}

fn memory_calibration() -> Result<(MemoryCalibration, Vec<Excluded>)> {
    let (samples, excluded) = calibration::webllm_memory()?;
    let overhead = median(
        samples
            .iter()
            .map(|s| s.measured_mb - s.estimate_without_overhead_mb)
            .collect(),
    )
    .round();
    let errors: Vec<f64> = samples
        .iter()
        .map(|s| ((s.estimate_without_overhead_mb + overhead) / s.measured_mb).ln().abs())
        .collect();
    let within = errors.iter().filter(|e| e.exp() <= 1.25).count() as f64 / errors.len().max(1) as f64;
    Ok((
        MemoryCalibration {
            webgpu_runtime_overhead_mb: overhead,
            within_25_percent: within,
            median_abs_log_error: median(errors),
            samples,
        },
        excluded,
    ))
}

/// What a calibration run found.
#[derive(Serialize)]
pub struct Report {
    pub memory: MemoryCalibration,
    pub coefficients: Coefficients,
    pub in_sample: Accuracy,
    pub cross_validated_by_device: Accuracy,
    pub residuals: Vec<Residual>,
    pub excluded: Vec<Excluded>,
}

/// Loads the measurements, fits and evaluates.
pub fn calibrate() -> Result<Report> {
    let data = calibration::load()?;
    let (memory, memory_excluded) = memory_calibration()?;
    let fitted_on = format!(
        "{} measurements (llama.cpp llama-bench tg/pp, MLPerf Inference v4.1 Offline) from data/measured/, fitted by hwfit calibrate",
        data.samples.len()
    );
    let coefficients = fit(&data.samples, &fitted_on);
    let residuals = data
        .samples
        .iter()
        .filter_map(|s| {
            let (eff, _) = coefficients.efficiency(s.hardware, s.class)?;
            let predicted = s.predict(&eff);
            Some(Residual {
                label: s.label.clone(),
                device: s.device_id.clone(),
                measured: s.measured,
                predicted,
                log_error: (predicted / s.measured).ln(),
            })
        })
        .collect();
    Ok(Report {
        residuals,
        in_sample: accuracy(&coefficients, &data.samples),
        cross_validated_by_device: cross_validate_by_device(&data.samples),
        coefficients,
        memory,
        excluded: data.excluded.into_iter().chain(memory_excluded).collect(),
    })
}

fn describe(a: &Accuracy) -> String {
    format!(
        "{:.0} % of {} within ±25 %, median |ln error| {:.3} (×{:.2})",
        a.within_25_percent * 100.0,
        a.samples,
        a.median_abs_log_error,
        a.median_abs_log_error.exp()
    )
}

/// Runs the calibration, optionally writing the coefficients.
pub fn run(args: &CalibrateArgs) -> Result<()> {
    let report = calibrate()?;
    if let Some(path) = &args.write {
        let json = serde_json::to_string_pretty(&report.coefficients)? + "\n";
        std::fs::write(path, json).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        return output::json(&report);
    }
    let mut table = output::table([
        "workload class",
        "hardware",
        "compute efficiency",
        "memory efficiency",
        "overhead ms",
        "",
    ]);
    let row = |table: &mut comfy_table::Table, class: &str, hw: String, e: &hwfit_core::perf::Efficiency| {
        table.add_row([
            class.to_string(),
            hw,
            format!("{:.3}", e.compute),
            format!("{:.3}", e.memory),
            format!("{:.3}", e.overhead_ms),
            String::new(),
        ]);
    };
    for (class, c) in [
        ("generate", &report.coefficients.generate),
        ("forward", &report.coefficients.forward),
    ] {
        for (hw, e) in &c.by_hardware {
            row(&mut table, class, hw.to_string(), e);
        }
        if let Some(p) = &c.pooled {
            row(&mut table, class, "(pooled)".into(), p);
        }
    }
    output::text(&table.to_string());
    output::text(&format!(
        "in-sample:                       {}",
        describe(&report.in_sample)
    ));
    output::text(&format!(
        "leave-one-device-out validation: {}",
        describe(&report.cross_validated_by_device)
    ));
    let m = &report.memory;
    output::text(&format!(
        "web-llm memory: WebGPU runtime allowance {} MB (median residual over {} figures); estimates {:.0} % within ±25 %, median |ln error| {:.3}",
        m.webgpu_runtime_overhead_mb,
        m.samples.len(),
        m.within_25_percent * 100.0,
        m.median_abs_log_error
    ));
    output::text(&format!(
        "{} rows excluded (--json lists them with reasons)",
        report.excluded.len()
    ));
    Ok(())
}
