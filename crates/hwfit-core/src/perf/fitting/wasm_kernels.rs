//! llama.cpp's WebAssembly build fitted on decode steps timed in Chromium
//! (`data/measured/llamacpp_wasm.csv`: webgpu-bench's CPU runs — one thread, SIMD — on an Apple M3).
//!
//! Each row's step at the full peak of one WebAssembly thread (the `wasm` class rule: 48 GFLOP/s)
//! gives the share of that peak the run reached: the step's compute time at the peak over the
//! measured time. A kernel with decode rows from at least [`MIN_MODELS`] models gets the geometric
//! median of its rows' shares; every other kernel its class's (SIMD or generic, from ggml's
//! WebAssembly build: [`crate::perf::wasm_kernels`]), the geometric median of the class's rows.
//! Deterministic; validated leaving each model out (its rows predicted from the others' shares),
//! against ONNX Runtime Web's single WebAssembly share on the same rows, and on rows never fitted:
//! the same runs' prefill rates, and the Firefox and WebKit runs (Asyncify builds).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

use super::Excluded;
use crate::browser::wasm_device;
use crate::csv::Table;
use crate::perf::fit::{summarize, Accuracy};
use crate::perf::wasm_kernels::{kernel_of, KernelClass, KernelShare, WasmKernelShares};
use crate::perf::{Coefficients, PerfModel, PerfRequest, Runtime};
use crate::spec::ModelSpec;
use crate::{Catalog, CoreError, Device, DeviceCatalog, Precision, Workload};

/// A kernel needs decode rows from this many models for a share of its own.
pub const MIN_MODELS: usize = 3;

const FILE: &str = "llamacpp_wasm.csv";

/// One timed step in the model's terms.
#[derive(Debug, Clone)]
pub struct WasmStep {
    /// What was measured.
    pub label: String,
    /// The catalog model.
    pub model: String,
    /// The browser engine (`chromium`, `firefox`, `webkit`).
    pub engine: String,
    spec: ModelSpec,
    device: Device,
    request: PerfRequest,
    /// Measured tokens per second.
    pub measured: f64,
    kernel: &'static str,
    class: KernelClass,
}

/// How llama.cpp's WebAssembly kernels predict the rows, fitted and held out.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WasmKernelFit {
    /// Chromium decode steps fitted.
    pub rows: usize,
    /// Models among them.
    pub models: usize,
    /// The fitted shares on those rows.
    pub in_sample: Accuracy,
    /// Each model's rows predicted from the other models' shares.
    pub leave_one_model_out: Accuracy,
    /// The same rows at ONNX Runtime Web's WebAssembly share (what hwfit answered before).
    pub onnx_runtime_web_share: Accuracy,
    /// Chromium prefill rates of the same runs (never fitted).
    pub prefill_held_out: Accuracy,
    /// Firefox's and WebKit's decode rates (never fitted): accuracy and the median
    /// predicted / measured rate.
    pub other_engines: Vec<EngineCheck>,
}

/// One engine's rows against the Chromium fit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EngineCheck {
    /// The engine.
    pub engine: String,
    /// Its decode rows.
    pub accuracy: Accuracy,
    /// Median predicted / measured rate.
    pub median_ratio: f64,
}

/// The rows of `llamacpp_wasm.csv` in the model's terms, and those left out with the reason.
pub fn steps(
    text: &str,
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<(Vec<WasmStep>, Vec<Excluded>), CoreError> {
    let invalid = |what: String| CoreError::InvalidConfig(format!("{FILE}: {what}"));
    let table = Table::parse(text).map_err(invalid)?;
    let class = devices
        .by_id("wasm")
        .ok_or_else(|| invalid(String::from("the device catalog has no `wasm` class")))?;
    let mut steps = Vec::new();
    let mut excluded = Vec::new();
    for (i, row) in table.rows.iter().enumerate() {
        let line = i + 2;
        let get = |name: &str| {
            table
                .get(row, name)
                .map(str::trim)
                .map_err(|e| invalid(format!("row {line}: {e}")))
        };
        let mut exclude = |reason: String| {
            excluded.push(Excluded {
                row: format!("{FILE} row {line}"),
                reason,
            });
        };
        let model = get("model")?;
        let format_name = get("precision")?;
        if model.is_empty() {
            exclude(format!("{}: not a catalog model", get("gguf_repo")?));
            continue;
        }
        let Ok(precision) = format_name.to_ascii_lowercase().parse::<Precision>() else {
            exclude(format!(
                "{format_name}: a file name, not a format hwfit names (mixed per-tensor types)"
            ));
            continue;
        };
        let Some((kernel, kernel_class)) = kernel_of(precision) else {
            exclude(format!("{format_name}: not a llama.cpp format"));
            continue;
        };
        if let Err(e) = crate::compat::check_precision(crate::HardwareType::Wasm, precision) {
            exclude(format!("{format_name}: {e}"));
            continue;
        }
        let workload = match get("workload")? {
            "decode" => Workload::Decode,
            "prefill" => Workload::Prefill,
            other => return Err(invalid(format!("row {line}: workload `{other}`"))),
        };
        let number = |name: &str| -> Result<f64, CoreError> {
            get(name)?
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0)
                .ok_or_else(|| invalid(format!("row {line}: `{name}` is not a positive number")))
        };
        let (threads, seq, measured) = (number("wasm_threads")?, number("seq_length")?, number("value")?);
        let spec = catalog
            .resolve(model)
            .map_err(|e| invalid(format!("row {line}: {e}")))?
            .spec;
        steps.push(WasmStep {
            label: format!("{} {workload} {format_name} ({})", model, get("engine")?),
            model: String::from(model),
            engine: get("engine")?.to_string(),
            spec,
            device: wasm_device(class, threads as u32, true),
            request: PerfRequest {
                precision,
                workload,
                batch_size: 1,
                seq_length: seq as u32,
                runtime: Some(Runtime::LlamaCpp),
                prompt_chunk: None,
                mixed_precision: None,
            },
            measured,
            kernel,
            class: kernel_class,
        });
    }
    Ok((steps, excluded))
}

fn model_with(base: &Coefficients, shares: Option<WasmKernelShares>) -> PerfModel {
    let mut coefficients = base.clone();
    if let Some(browser) = coefficients.browser.as_mut() {
        browser.llama_cpp_wasm = shares;
    }
    PerfModel::with_coefficients(coefficients)
}

/// ln(predicted / measured rate) of each step under `model` (steps it cannot predict left out).
fn log_errors<'a>(model: &PerfModel, steps: impl Iterator<Item = &'a WasmStep>) -> Vec<f64> {
    steps
        .filter_map(|s| {
            let p = model.predict(&s.spec, &s.device, &s.request).ok()?;
            Some(libm::log(p.throughput / s.measured))
        })
        .collect()
}

fn geometric_median(values: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = values.iter().map(|v| libm::log(*v)).collect();
    crate::measure::median(&logs).map(libm::exp)
}

/// Fits the shares on `steps` (Chromium decode steps); `None` without rows.
fn fit(base: &Coefficients, steps: &[&WasmStep], fitted_on: &str) -> Option<WasmKernelShares> {
    // Each step's share of the peak: compute time at the full peak over the measured time.
    let ideal = model_with(
        base,
        Some(WasmKernelShares {
            simd: 1.0,
            generic: 1.0,
            kernels: Vec::new(),
            fitted_on: String::new(),
        }),
    );
    let mut by_kernel: BTreeMap<&str, (Vec<f64>, BTreeSet<&str>)> = BTreeMap::new();
    let mut by_class: BTreeMap<KernelClass, Vec<f64>> = BTreeMap::new();
    for s in steps {
        let Ok(p) = ideal.predict(&s.spec, &s.device, &s.request) else {
            continue;
        };
        let (peak_tflops, _) = s.device.dense_tflops.for_precision(s.request.precision);
        let compute_s = p.flops_per_step / (peak_tflops * 1e12);
        let share = (compute_s * s.measured).clamp(1e-4, 1.0);
        let entry = by_kernel.entry(s.kernel).or_default();
        entry.0.push(share);
        entry.1.insert(s.model.as_str());
        by_class.entry(s.class).or_default().push(share);
    }
    let class_share = |c: KernelClass| by_class.get(&c).and_then(|v| geometric_median(v));
    let simd = class_share(KernelClass::Simd)?;
    let generic = class_share(KernelClass::Generic).unwrap_or(simd);
    let kernels = by_kernel
        .into_iter()
        .filter(|(_, (_, models))| models.len() >= MIN_MODELS)
        .filter_map(|(kernel, (shares, models))| {
            Some(KernelShare {
                kernel: String::from(kernel),
                share: super::browser::round3(geometric_median(&shares)?),
                rows: shares.len(),
                models: models.len(),
            })
        })
        .collect();
    Some(WasmKernelShares {
        simd: super::browser::round3(simd),
        generic: super::browser::round3(generic),
        kernels,
        fitted_on: String::from(fitted_on),
    })
}

/// Fits llama.cpp's WebAssembly kernel shares on the Chromium decode steps and validates them.
#[must_use]
pub fn fit_and_validate(base: &Coefficients, steps: &[WasmStep]) -> (Option<WasmKernelShares>, WasmKernelFit) {
    let decode: Vec<&WasmStep> = steps
        .iter()
        .filter(|s| s.engine == "chromium" && s.request.workload == Workload::Decode)
        .collect();
    let models: BTreeSet<&str> = decode.iter().map(|s| s.model.as_str()).collect();
    let fitted_on = format!(
        "{} decode steps of {} models in Chromium (data/measured/{FILE}: webgpu-bench, one WebAssembly thread on an Apple M3), fitted by hwfit fit",
        decode.len(),
        models.len()
    );
    let shares = fit(base, &decode, &fitted_on);
    let fitted = model_with(base, shares.clone());
    let abs = |errors: Vec<f64>| -> Vec<f64> { errors.into_iter().map(libm::fabs).collect() };
    let mut left_out = Vec::new();
    for model in &models {
        let others: Vec<&WasmStep> = decode.iter().copied().filter(|s| s.model != *model).collect();
        let held = model_with(base, fit(base, &others, ""));
        left_out.extend(log_errors(&held, decode.iter().copied().filter(|s| s.model == *model)));
    }
    let other_engines = ["firefox", "webkit"]
        .into_iter()
        .map(|engine| {
            let errors = log_errors(
                &fitted,
                steps
                    .iter()
                    .filter(|s| s.engine == engine && s.request.workload == Workload::Decode),
            );
            EngineCheck {
                engine: String::from(engine),
                median_ratio: crate::measure::median(&errors).map_or(0.0, |m| super::browser::round3(libm::exp(m))),
                accuracy: summarize(&abs(errors)),
            }
        })
        .collect();
    let report = WasmKernelFit {
        rows: decode.len(),
        models: models.len(),
        in_sample: summarize(&abs(log_errors(&fitted, decode.iter().copied()))),
        leave_one_model_out: summarize(&abs(left_out)),
        onnx_runtime_web_share: summarize(&abs(log_errors(&model_with(base, None), decode.iter().copied()))),
        prefill_held_out: summarize(&abs(log_errors(
            &fitted,
            steps
                .iter()
                .filter(|s| s.engine == "chromium" && s.request.workload == Workload::Prefill),
        ))),
        other_engines,
    };
    (shares, report)
}
