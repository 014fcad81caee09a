//! The browser step model held against public WebGPU-vs-WebAssembly measurements.
//!
//! `browser_measurements.csv` holds what sources measured; `browser_cases.csv` describes each pair
//! (the same model timed on both back-ends on one device) in the model's terms: the architecture
//! (a catalog model or published dimensions), workload, batch, tokens, precision per back-end, the
//! GPU, the WebAssembly threads and SIMD. Cases marked `include = no` (outliers the sources retract,
//! architectures no source states, different work on each side) are listed with their reason.
//!
//! Fit: the browser constants minimize the mean |ln(predicted / measured speed-up)| — plus half the
//! |ln error| of each back-end's own time where the unit gives a time per step, which pins the
//! absolute rates the speed-up alone leaves free — over the included cases, each source weighing
//! the same (coordinate descent on a log grid, deterministic). First-call cases add WebGPU's
//! pipeline compilation. Validation: the faster
//! back-end predicted against the one measured, in-sample and leaving each source out in turn.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use serde::Serialize;

use super::engines::{self, EnginePair};
use super::Excluded;
use crate::browser::{wasm_device, webgpu_view, BrowserEngine};
use crate::csv::{Cell, Table};
use crate::device::Resolution;
use crate::perf::{BrowserCoefficients, Coefficients, PerfModel, PerfRequest};
use crate::spec::{Component, ConvNet, Modality, ModelSpec, StackRole};
use crate::{Catalog, CoreError, Device, DeviceCatalog, Family, Precision, Subfamily, Workload};

/// A measured speed-up within this factor of 1 is a tie: no faster back-end to predict.
const TIE: f64 = 1.10;

/// First-call cost measured by OmniMed3D (browser_measurements.csv data row 0, its notes): the WebGPU mean over all
/// 5 iterations was 247.4 ms and over the warm iterations 2–5 177.3 ms, so the first took
/// 5 × 247.4 − 4 × 177.3 = 527.8 ms, 350.5 ms more than a warm one.
const OMNIMED_FIRST_RUN_EXTRA_MS: f64 = 5.0 * 247.4 - 4.0 * 177.3 - 177.3;

/// One measured pair in the model's terms.
#[derive(Debug, Clone)]
pub struct BrowserCase {
    /// 0-based data row of `browser_measurements.csv`.
    pub row: usize,
    /// The source (for leave-one-source-out).
    pub source: String,
    /// What was measured.
    pub label: String,
    spec: ModelSpec,
    workload: Workload,
    batch: u32,
    seq: u32,
    webgpu_precision: Precision,
    wasm_precision: Precision,
    gpu: Device,
    wasm: Device,
    /// Measured WebAssembly time / WebGPU time (> 1: WebGPU faster).
    pub measured_speedup: f64,
    /// Measured time per step on (WebGPU, WebAssembly), ms, where the unit gives one: a call's time
    /// for forward passes and training steps, 1 / tokens per second for decode, `seq` tokens for prefill.
    measured_ms: Option<(f64, f64)>,
    /// A first call: WebGPU's pipeline compilation counts.
    first_call: bool,
}

/// One case against the fitted model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrowserCaseResult {
    /// 0-based data row of `browser_measurements.csv`.
    pub row: usize,
    /// What was measured.
    pub label: String,
    /// The GPU and the WebAssembly device it was predicted on.
    pub devices: String,
    /// Measured WebAssembly time / WebGPU time.
    pub measured_speedup: f64,
    /// Predicted WebAssembly time / WebGPU time (the source left out of the fit).
    pub predicted_speedup: f64,
    /// Whether the predicted faster back-end is the measured one (`None` for ties).
    pub right: Option<bool>,
}

/// The browser part of the fit report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrowserFit {
    /// Cases held against the model (ties included).
    pub cases: usize,
    /// Cases with a faster back-end (speed-ups outside ±10 %).
    pub decided: usize,
    /// Share of decided cases whose faster back-end the fitted model predicts.
    pub right_in_sample: f64,
    /// The same, each source predicted by a fit on the others.
    pub right_leave_one_source_out: f64,
    /// Median |ln(predicted / measured speed-up)|, leave-one-source-out.
    pub median_abs_log_error: f64,
    /// Every case, leave-one-source-out.
    pub results: Vec<BrowserCaseResult>,
}

fn field<'a>(table: &Table, row: &'a [Cell<'a>], name: &str) -> Result<&'a str, String> {
    table.get(row, name).map(str::trim)
}

fn number<T: core::str::FromStr>(table: &Table, row: &[Cell<'_>], name: &str) -> Result<Option<T>, String> {
    let text = field(table, row, name)?;
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| format!("{name} `{text}` is not a number"))
}

/// A measured value: a number, `~N`, or a range `A-B` / `A–B` (its midpoint).
pub(super) fn measured_value(text: &str) -> Option<f64> {
    let text = text.trim().trim_start_matches('~');
    if let Ok(v) = text.parse::<f64>() {
        return Some(v);
    }
    let (a, b) = text.split_once(['-', '–'])?;
    let value = |t: &str| t.trim().trim_start_matches('~').parse::<f64>().ok();
    Some(f64::midpoint(value(a)?, value(b)?))
}

/// Whether a unit is a rate (higher is faster) rather than a time.
fn is_rate(units: &str) -> bool {
    let u = units.to_ascii_lowercase();
    ["/s", "fps", "realtime", "real time", "per second"]
        .iter()
        .any(|k| u.contains(k))
}

fn precision(text: &str) -> Result<Precision, String> {
    match text {
        // Below four bits (llama.cpp Q2_K, Q1_0) is modelled at four: no lighter format exists here.
        "int2" | "int1" => Ok(Precision::Int4),
        other => other.parse().map_err(|_| format!("precision `{other}`")),
    }
}

fn custom_spec(table: &Table, row: &[Cell<'_>], name: &str) -> Result<ModelSpec, String> {
    let arch = field(table, row, "arch")?;
    let req = |col: &str| -> Result<u32, String> {
        number::<u32>(table, row, col)?.ok_or_else(|| format!("{col} is required for a custom {arch}"))
    };
    let components = match arch {
        "encoder" | "decoder" => {
            let (layers, hidden, heads, intermediate) =
                (req("layers")?, req("hidden")?, req("heads")?, req("intermediate")?);
            let decoder = arch == "decoder";
            let role = if decoder {
                StackRole::Decoder
            } else {
                StackRole::Encoder
            };
            let mut stack = crate::catalog::build::stack(role, Modality::Text, layers, hidden, heads, intermediate)
                .vocab(number::<u32>(table, row, "vocab")?.unwrap_or(0), true);
            stack.gated_ffn = decoder;
            vec![Component::Transformer(stack)]
        }
        "mlp" => {
            let (layers, hidden) = (req("layers")?, req("hidden")?);
            let per_layer = u64::from(hidden) * u64::from(hidden) + u64::from(hidden);
            (0..layers)
                .map(|i| Component::Dense {
                    name: format!("linear {i}"),
                    parameters: per_layer,
                    flops_per_item: 2 * per_layer,
                    operators: 0,
                })
                .collect()
        }
        "conv" => {
            let params: f64 = number(table, row, "params_millions")?.ok_or("params_millions is required for a conv")?;
            let gflops: f64 = number(table, row, "gflops_per_item")?.ok_or("gflops_per_item is required for a conv")?;
            vec![Component::Conv(ConvNet {
                parameters: (params * 1e6) as u64,
                flops_per_item: (gflops * 1e9) as u64,
                peak_activation_elements: 0,
                total_activation_elements: 0,
                image_size: 0,
                layers: number::<u32>(table, row, "kernel_layers")?.unwrap_or(0),
            })]
        }
        other => return Err(format!("arch `{other}`")),
    };
    Ok(ModelSpec {
        name: String::from(name),
        family: Family::Embedding,
        subfamily: Subfamily::MaskedLm,
        components,
        max_positions: 0,
    })
}

/// The GPU a case ran on, as WebGPU sees it: a named device, or the class when only the kind is known
/// (`class:apple`: Apple M1, the slowest GPU with a `metal-3` adapter, as identification assumes).
/// `unknown` is the integrated class: the conservative one.
fn case_gpu(name: &str, devices: &DeviceCatalog) -> Result<Device, String> {
    let class = |id: &str| {
        devices
            .by_id(id)
            .cloned()
            .ok_or_else(|| format!("no class device {id}"))
    };
    match name {
        "class:discrete" => class("webgpu-discrete"),
        "class:integrated" | "unknown" | "" => class("webgpu-integrated"),
        "class:apple" => case_gpu("Apple M1", devices),
        named => match devices.resolution(named) {
            Resolution::Unique(d) => Ok(webgpu_view(d)),
            Resolution::MemoryVariants(variants) => variants
                .first()
                .map(|d| webgpu_view(d))
                .ok_or_else(|| format!("device `{named}`")),
            // Variants of one product (Apple M1 with 7 or 8 GPU cores): the slowest, as identification
            // assumes.
            Resolution::Ambiguous(found) => found
                .into_iter()
                .min_by(|a, b| a.dense_tflops.fp32.total_cmp(&b.dense_tflops.fp32))
                .map(webgpu_view)
                .ok_or_else(|| format!("device `{named}`")),
            Resolution::Unknown => Err(format!("device `{named}` is not in the device database")),
        },
    }
}

fn case(
    table: &Table,
    row: &[Cell<'_>],
    measurements: &Table,
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<Result<BrowserCase, Excluded>, String> {
    let index: usize = number(table, row, "row")?.ok_or("row is required")?;
    let measured = measurements
        .rows
        .get(index)
        .ok_or_else(|| format!("row {index} is not in browser_measurements.csv"))?;
    let label = format!(
        "{} ({}, {})",
        field(measurements, measured, "model")?,
        field(measurements, measured, "precision")?,
        field(measurements, measured, "hardware")?
    );
    if field(table, row, "include")? != "yes" {
        return Ok(Err(Excluded {
            row: format!("browser_measurements.csv data row {index}"),
            reason: field(table, row, "why")?.to_string(),
        }));
    }
    let (gpu_value, wasm_value) = (
        measured_value(field(measurements, measured, "webgpu_value")?),
        measured_value(field(measurements, measured, "wasm_value")?),
    );
    let (Some(gpu_value), Some(wasm_value)) = (gpu_value, wasm_value) else {
        return Err(format!("row {index} lacks a value for both back-ends"));
    };
    let units = field(measurements, measured, "units")?.to_ascii_lowercase();
    let measured_speedup = if is_rate(&units) {
        gpu_value / wasm_value
    } else {
        wasm_value / gpu_value
    };
    let workload: Workload = field(table, row, "workload")?
        .parse()
        .map_err(|_| String::from("workload"))?;
    let seq = number(table, row, "seq")?.unwrap_or(1).max(1);
    let unit = units.split([' ', '(']).next().unwrap_or_default();
    let measured_ms = match (unit, workload) {
        ("ms", Workload::Forward | Workload::TrainStep) => Some((gpu_value, wasm_value)),
        ("s", Workload::Forward | Workload::TrainStep) => Some((gpu_value * 1e3, wasm_value * 1e3)),
        ("tokens/s", Workload::Decode) => Some((1e3 / gpu_value, 1e3 / wasm_value)),
        ("tokens/s", Workload::Prefill) => Some((1e3 * f64::from(seq) / gpu_value, 1e3 * f64::from(seq) / wasm_value)),
        _ => None,
    };
    let model = field(table, row, "model")?;
    let spec = if model == "custom" {
        custom_spec(table, row, &label)?
    } else {
        catalog.resolve(model).map_err(|e| format!("{e}"))?.spec
    };
    let wasm_class = devices.by_id("wasm").ok_or("no wasm class device")?;
    let engine = BrowserEngine::from_word(field(table, row, "browser_engine")?);
    let gpu = Device {
        browser_engine: engine,
        ..case_gpu(field(table, row, "device")?, devices)?
    };
    let threads = number::<u32>(table, row, "wasm_threads")?.unwrap_or(1).max(1);
    let simd = field(table, row, "wasm_simd")? != "false";
    Ok(Ok(BrowserCase {
        row: index,
        source: field(measurements, measured, "source_ref")?
            .split([' ', '#', '('])
            .next()
            .unwrap_or_default()
            .to_string(),
        label,
        spec,
        workload,
        batch: number(table, row, "batch")?.unwrap_or(1).max(1),
        seq,
        webgpu_precision: precision(field(table, row, "precision_webgpu")?)?,
        wasm_precision: precision(field(table, row, "precision_wasm")?)?,
        gpu,
        wasm: wasm_device(wasm_class, threads, simd),
        measured_speedup,
        measured_ms,
        first_call: field(table, row, "run")? == "first",
    }))
}

/// Reads the cases; a malformed case is an error naming its line.
pub fn cases(
    measurements: &str,
    cases: &str,
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<(Vec<BrowserCase>, Vec<Excluded>), CoreError> {
    let invalid = |what: String| CoreError::InvalidConfig(what);
    let measurements = Table::parse(measurements).map_err(|e| invalid(format!("browser_measurements.csv: {e}")))?;
    let table = Table::parse(cases).map_err(|e| invalid(format!("browser_cases.csv: {e}")))?;
    let (mut included, mut excluded) = (Vec::new(), Vec::new());
    for (i, row) in table.rows.iter().enumerate() {
        match case(&table, row, &measurements, catalog, devices)
            .map_err(|e| invalid(format!("browser_cases.csv line {}: {e}", i + 2)))?
        {
            Ok(c) => included.push(c),
            Err(x) => excluded.push(x),
        }
    }
    Ok((included, excluded))
}

impl BrowserCase {
    /// Predicted time per step on (WebGPU, WebAssembly), ms (a first call adds WebGPU's pipeline
    /// compilation), or `None` where either side cannot be predicted.
    fn predicted_ms(&self, model: &PerfModel) -> Option<(f64, f64)> {
        let predict = |device: &Device, precision| {
            model
                .predict(
                    &self.spec,
                    device,
                    &PerfRequest {
                        precision,
                        workload: self.workload,
                        batch_size: self.batch,
                        seq_length: self.seq,
                        runtime: None,
                        prompt_chunk: None,
                        mixed_precision: None,
                    },
                )
                .ok()
        };
        let gpu = predict(&self.gpu, self.webgpu_precision)?;
        let first_run = if self.first_call {
            gpu.fixed_costs.map_or(0.0, |f| f.first_run_ms)
        } else {
            0.0
        };
        Some((
            gpu.latency + first_run,
            predict(&self.wasm, self.wasm_precision)?.latency,
        ))
    }

    /// Predicted WebAssembly time / WebGPU time, or `None` where either side cannot be predicted.
    #[must_use]
    pub fn predicted_speedup(&self, model: &PerfModel) -> Option<f64> {
        self.predicted_ms(model).map(|(gpu, wasm)| wasm / gpu)
    }

    /// |ln error| of the speed-up, plus half that of each side's time where the unit gives one.
    fn error(&self, model: &PerfModel) -> f64 {
        let Some((gpu, wasm)) = self.predicted_ms(model) else {
            return 10.0;
        };
        let ratio = libm::fabs(libm::log(wasm / gpu / self.measured_speedup));
        ratio
            + self.measured_ms.map_or(0.0, |(g, w)| {
                0.5 * (libm::fabs(libm::log(gpu / g)) + libm::fabs(libm::log(wasm / w)))
            })
    }

    fn devices(&self) -> String {
        format!("{} / {}", self.gpu.name, self.wasm.name)
    }
}

fn with_browser(base: &Coefficients, browser: BrowserCoefficients) -> PerfModel {
    PerfModel::with_coefficients(Coefficients {
        browser: Some(browser),
        ..base.clone()
    })
}

/// Mean error ([`BrowserCase::error`]), each source weighing the same however many rows it has,
/// plus the engine pairs' ([`engines::loss`], each source weighing as much).
fn loss(base: &Coefficients, browser: &BrowserCoefficients, cases: &[&BrowserCase], pairs: &[&EnginePair]) -> f64 {
    let model = with_browser(base, browser.clone());
    let per_source = |source: &str| cases.iter().filter(|c| c.source == source).count() as f64;
    cases
        .iter()
        .map(|c| c.error(&model) / per_source(&c.source))
        .sum::<f64>()
        + engines::loss(&browser.engines, pairs)
}

/// Parameters of the fit: the five constants, then each engine's extra per round trip.
fn parameters(b: &BrowserCoefficients) -> usize {
    5 + b.engines.len()
}

/// Parameter `i` of the fit, with its search range.
fn parameter(b: &mut BrowserCoefficients, i: usize) -> (&mut f64, f64, f64) {
    match i {
        0 => (&mut b.dispatch_us, 1.0, 1000.0),
        1 => (&mut b.sync_ms, 0.05, 100.0),
        2 => (&mut b.webgpu_compute, 0.01, 1.0),
        3 => (&mut b.webgpu_memory, 0.05, 1.0),
        4 => (&mut b.wasm_compute, 0.01, 1.0),
        _ => (&mut b.engines[i - 5].extra_round_trip_ms, 0.1, 2000.0),
    }
}

/// Fits the browser constants to `cases` (see the module documentation).
#[must_use]
pub fn fit_browser(
    base: &Coefficients,
    cases: &[&BrowserCase],
    pairs: &[&EnginePair],
    compile_ms: f64,
    fitted_on: &str,
) -> BrowserCoefficients {
    let mut best = BrowserCoefficients {
        dispatch_us: 30.0,
        sync_ms: 1.0,
        webgpu_compute: 0.3,
        webgpu_memory: 0.5,
        wasm_compute: 0.3,
        compile_ms,
        engines: engines::starting_costs(pairs, 10.0),
        llama_cpp_wasm: None,
        fitted_on: String::from(fitted_on),
    };
    let mut best_loss = loss(base, &best, cases, pairs);
    // Coordinate descent on a log grid that narrows each pass.
    for pass in 0..4 {
        let span = libm::pow(4.0, f64::from(3 - pass));
        for i in 0..parameters(&best) {
            let (current, lo, hi) = {
                let (v, lo, hi) = parameter(&mut best, i);
                (*v, lo, hi)
            };
            for step in 0..=16 {
                let factor = libm::pow(span, f64::from(step) / 8.0 - 1.0);
                let value = (current * factor).clamp(lo, hi);
                let mut trial = best.clone();
                *parameter(&mut trial, i).0 = value;
                let l = loss(base, &trial, cases, pairs);
                if l < best_loss - 1e-12 {
                    best_loss = l;
                    best = trial;
                }
            }
        }
    }
    for i in 0..parameters(&best) {
        let v = parameter(&mut best, i).0;
        *v = round3(*v);
    }
    best
}

pub(super) fn round3(x: f64) -> f64 {
    if x <= 0.0 {
        return x;
    }
    let scale = libm::pow(10.0, 2.0 - libm::floor(libm::log10(x)));
    libm::round(x * scale) / scale
}

/// The first-call compile time per pipeline: OmniMed3D's measured first-call extra over the
/// pipelines of its case (`row`), or 0 without it.
fn compile_ms(cases: &[BrowserCase]) -> f64 {
    cases.iter().find(|c| c.row == 0).map_or(0.0, |c| {
        round3(OMNIMED_FIRST_RUN_EXTRA_MS / f64::from(crate::perf::operators::distinct(&c.spec, c.workload).max(1)))
    })
}

fn right(measured: f64, predicted: f64) -> Option<bool> {
    (measured >= TIE || measured <= 1.0 / TIE).then_some((measured > 1.0) == (predicted > 1.0))
}

fn share(results: impl Iterator<Item = Option<bool>>) -> (usize, f64) {
    let decided: Vec<bool> = results.flatten().collect();
    let right = decided.iter().filter(|r| **r).count();
    (decided.len(), right as f64 / decided.len().max(1) as f64)
}

/// Fits the browser constants on every case and engine pair and validates them leaving each
/// source out (of both).
#[must_use]
pub fn fit_browser_model(
    base: &Coefficients,
    cases: &[BrowserCase],
    pairs: &[EnginePair],
) -> (BrowserCoefficients, BrowserFit, Vec<engines::EngineFit>) {
    let compile = compile_ms(cases);
    let case_sources: BTreeSet<&str> = cases.iter().map(|c| c.source.as_str()).collect();
    let pair_sources: BTreeSet<&str> = pairs.iter().map(|p| p.source.as_str()).collect();
    let fitted_on = format!(
        "{} WebGPU/WebAssembly pairs from {} sources (data/measured/browser_measurements.csv, browser_cases.csv) and {} steps timed in Firefox or WebKit and in Chromium from {} sources (browser_engines.csv), fitted by hwfit fit",
        cases.len(),
        case_sources.len(),
        pairs.len(),
        pair_sources.len()
    );
    let all: Vec<&BrowserCase> = cases.iter().collect();
    let all_pairs: Vec<&EnginePair> = pairs.iter().collect();
    let fitted = fit_browser(base, &all, &all_pairs, compile, &fitted_on);
    let in_sample_model = with_browser(base, fitted.clone());
    let (_, right_in_sample) = share(cases.iter().map(|c| {
        c.predicted_speedup(&in_sample_model)
            .and_then(|p| right(c.measured_speedup, p))
    }));
    // Each source left out of both sets in turn.
    let mut left_out: BTreeMap<&str, BrowserCoefficients> = BTreeMap::new();
    for source in case_sources.union(&pair_sources) {
        let others: Vec<&BrowserCase> = cases.iter().filter(|c| c.source != *source).collect();
        let other_pairs: Vec<&EnginePair> = pairs.iter().filter(|p| p.source != *source).collect();
        left_out.insert(source, fit_browser(base, &others, &other_pairs, compile, ""));
    }
    let mut results = Vec::new();
    for source in &case_sources {
        let model = with_browser(base, left_out[source].clone());
        for c in cases.iter().filter(|c| c.source == *source) {
            let predicted = c.predicted_speedup(&model).unwrap_or(f64::NAN);
            results.push(BrowserCaseResult {
                row: c.row,
                label: c.label.clone(),
                devices: c.devices(),
                measured_speedup: round3(c.measured_speedup),
                predicted_speedup: round3(predicted),
                right: right(c.measured_speedup, predicted),
            });
        }
    }
    results.sort_by_key(|r| r.row);
    let (decided, right_out) = share(results.iter().map(|r| r.right));
    let errors: Vec<f64> = results
        .iter()
        .map(|r| libm::fabs(libm::log(r.predicted_speedup / r.measured_speedup)))
        .filter(|e| e.is_finite())
        .collect();
    let report = BrowserFit {
        cases: cases.len(),
        decided,
        right_in_sample,
        right_leave_one_source_out: right_out,
        median_abs_log_error: crate::measure::median(&errors).unwrap_or(0.0),
        results,
    };
    let engine_report = engines::report(&fitted.engines, &all_pairs, |source| {
        left_out.get(source).map(|b| b.engines.clone())
    });
    (fitted, report, engine_report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_units_are_read_as_sources_write_them() {
        assert_eq!(measured_value("~8"), Some(8.0));
        assert_eq!(measured_value("45.6-48.1"), Some(46.85));
        assert_eq!(measured_value("~50–70"), Some(60.0));
        assert_eq!(measured_value("n/a"), None);
        assert!(is_rate("tokens/s") && is_rate("x realtime (audio)") && is_rate("FPS"));
        assert!(!is_rate("ms") && !is_rate("s (approx)"));
        assert!(right(1.05, 0.5).is_none());
        assert_eq!(right(2.0, 0.5), Some(false));
        assert_eq!(right(0.5, 0.8), Some(true));
    }
}
