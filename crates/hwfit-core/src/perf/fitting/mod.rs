//! Fitting (a maintainer task, `hwfit fit`): the public measurements (llama.cpp and MLPerf throughput, web-llm memory) turned into
//! samples by stated rules, the performance model fitted to them, and its accuracy. The faces supply
//! the CSV texts (the CLI embeds `data/measured/`); rows the model cannot represent are left out with
//! the reason.
//!
//! Rules:
//! - `llm_tokens_per_second.csv`: single-device, batch-1 rows with a stated GGUF precision;
//!   `ppN` → prefill of N tokens; `tgN` → decode with N/2 cached tokens on average (N tokens generated
//!   from an empty prompt); tokens/s as measured.
//! - `mlperf_inference_v4_1_offline.csv`: ResNet-50 and BERT-large (SQuAD, 384 tokens) samples/s
//!   divided by the accelerators per node; the Offline scenario runs large batches (256 assumed).
//!   LLM rows are excluded: their throughput depends on the dataset's input/output lengths, which the
//!   rows do not give.
//! - `webllm_vram_requirements.csv`: `q4f16_1` (4-bit weights in groups of 32 with an fp16 scale:
//!   4.5 bits, as Q4_0), `q0f16` and `q0f32` at the model's context window; the WebGPU runtime
//!   allowance is the median of (figure − estimate without allowance).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

pub mod browser;
pub mod cores;
pub mod engines;
mod parallel;
pub mod runtimes;
pub mod validation;
pub mod wasm_kernels;

use super::fit::{
    accuracy, accuracy_by_cell, cross_validate, device_folds, error_of, fit, summarize, Accuracy, CellAccuracy, Sample,
};
use super::{Coefficients, PerfModel, PerfRequest, Runtime};
use crate::csv::{Cell, Table};
use crate::measure::median;
use crate::Workload;
use crate::{estimate_resources, Catalog, CoreError, DeviceCatalog, HardwareType, Mode, Precision, ResourceInput};

/// Batch assumed for MLPerf Offline rows.
const OFFLINE_BATCH: u32 = 256;

/// The measurement files, as text.
#[derive(Debug, Clone, Copy)]
pub struct MeasuredData<'a> {
    /// `llm_tokens_per_second.csv` (llama.cpp llama-bench figures).
    pub llm_tokens_per_second: &'a str,
    /// `llamacpp_cpu.csv` (llama.cpp llama-bench figures on CPUs, no GPU offload; empty: not read).
    pub llamacpp_cpu: &'a str,
    /// `mlperf_inference_v4_1_offline.csv`.
    pub mlperf_offline: &'a str,
    /// `webllm_vram_requirements.csv`.
    pub webllm_vram: &'a str,
    /// `browser_measurements.csv` (WebGPU and WebAssembly timings from public sources).
    pub browser_measurements: &'a str,
    /// `browser_cases.csv` (those pairs in the browser step model's terms).
    pub browser_cases: &'a str,
    /// `browser_engines.csv` (steps timed in Firefox or WebKit and in Chromium on one machine).
    pub browser_engines: &'a str,
    /// `llamacpp_wasm.csv` (llama.cpp's WebAssembly build in browsers; empty: not read).
    pub llamacpp_wasm: &'a str,
    /// `runtime_steps.csv` (step times of named runtimes: PyTorch, ONNX Runtime, TensorRT …).
    pub runtime_steps: &'a str,
    /// `moe_steps.csv` (held out: mixture-of-experts and dense llama-bench rows, never fitted).
    pub moe_steps: &'a str,
    /// Steps `hwfit bench` measured (`data/measured/hwfit_bench_*.json`, read by the caller: they
    /// are records of the benchmark database): each runtime's records join its step-model fit as
    /// one more source.
    pub runner_steps: &'a [MeasuredStep],
}

/// A row left out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Excluded {
    /// Which row (`file row N`, counting the header as row 1).
    pub row: String,
    /// Why.
    pub reason: String,
}

/// One measurement against the fitted model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Residual {
    /// What was measured.
    pub label: String,
    /// The device.
    pub device: String,
    /// The measurement.
    pub measured: f64,
    /// The fitted model's prediction.
    pub predicted: f64,
    /// ln(predicted / measured).
    pub log_error: f64,
}

/// One web-llm memory figure against hwfit's estimate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemorySample {
    /// The web-llm model id.
    pub model_id: String,
    /// The catalog model it maps to.
    pub model: String,
    /// hwfit's estimate without the runtime allowance, MB.
    pub estimate_without_overhead_mb: f64,
    /// web-llm's `vram_required_MB`.
    pub measured_mb: f64,
}

/// The WebGPU runtime allowance fitted to web-llm's memory figures, and how well estimates match.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryFit {
    /// Median of (web-llm's figure − hwfit's estimate without allowance), MB, at least 0.
    pub webgpu_runtime_overhead_mb: f64,
    /// Share of estimates (with that allowance) within ±25 % of web-llm's figures.
    pub within_25_percent: f64,
    /// Median |ln(estimate / figure)|.
    pub median_abs_log_error: f64,
    /// The figures compared.
    pub samples: Vec<MemorySample>,
}

/// What a fit found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FitReport {
    /// The memory allowance fit.
    pub memory: MemoryFit,
    /// The fitted throughput coefficients.
    pub coefficients: Coefficients,
    /// Accuracy on the samples fitted.
    pub in_sample: Accuracy,
    /// Accuracy with each device left out of its own fit.
    pub cross_validated_by_device: Accuracy,
    /// The same per hardware type and workload class, against the pooled coefficients.
    pub by_cell: Vec<CellAccuracy>,
    /// The browser step model against the WebGPU/WebAssembly pairs.
    pub browser: browser::BrowserFit,
    /// Each engine's round trip beside Chromium's, each source left out in turn.
    pub browser_engines: Vec<engines::EngineFit>,
    /// llama.cpp's WebAssembly kernels against their steps (`None`: no rows read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llamacpp_wasm: Option<wasm_kernels::WasmKernelFit>,
    /// Each runtime's step model against its measurements.
    pub runtimes: runtimes::RuntimeFit,
    /// The fitted model on held-out mixture-of-experts measurements (and dense rows beside them).
    pub mixture_of_experts: validation::MoeValidation,
    /// The measured curated devices predicted from their device-database rows alone (where the
    /// device database is built in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_twins: Option<DatabaseTwins>,
    /// Every sample against the fit.
    pub residuals: Vec<Residual>,
    /// Rows left out, with the reason.
    pub excluded: Vec<Excluded>,
}

/// The measured curated devices predicted from their device-database rows alone (the row's specs
/// and derived rates, none of the curated entry's figures), next to the curated entries. Each device
/// is left out of the fit that predicts it, on both sides, so the two figures differ only by how the
/// device is described.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DatabaseTwins {
    /// The curated devices compared: those with measurements and a database row.
    pub devices: Vec<String>,
    /// Their measurements predicted on the curated entries (leave-one-device-out).
    pub curated: Accuracy,
    /// The same measurements predicted on the database rows (leave-one-device-out; a row that
    /// cannot run a measured step counts as a miss).
    pub database: Accuracy,
    /// Measurements whose device has no database row, left out of both figures.
    pub without_twin: usize,
}

/// Compares predictions on the curated devices that have measurements (`steps`, on the curated
/// catalog) with predictions on their rows in `database` (the text of `device_db.csv`).
pub fn database_twins(steps: &[MeasuredStep], database: &str) -> Result<DatabaseTwins, CoreError> {
    let rows = crate::device::database::parse(database)?;
    let twin_of = |id: &str| {
        rows.iter()
            .find(|r| r.curated_id.as_deref() == Some(id))
            .map(|r| &r.device)
    };
    let all = samples(steps)?;
    let (mut devices, mut curated, mut database, mut without_twin) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for (held_out, coefficients) in super::fit::device_folds(&all) {
        let measured = steps.iter().zip(&all).filter(|(s, _)| s.device.id == held_out);
        let Some(twin) = twin_of(held_out) else {
            without_twin += measured.count();
            continue;
        };
        devices.push(String::from(held_out));
        for (step, sample) in measured {
            curated.push(error_of(&coefficients, sample));
            let on_twin = Sample::new(&step.spec, twin, &step.request, step.measured, step.label.clone());
            database.push(on_twin.map_or(f64::INFINITY, |s| error_of(&coefficients, &s)));
        }
    }
    Ok(DatabaseTwins {
        devices,
        curated: summarize(&curated),
        database: summarize(&database),
        without_twin,
    })
}

/// The samples the fit uses, one per measured step.
fn samples(steps: &[MeasuredStep]) -> Result<Vec<Sample>, CoreError> {
    steps
        .iter()
        .map(|s| Sample::new(&s.spec, &s.device, &s.request, s.measured, s.label.clone()))
        .collect()
}

/// The throughput samples and the rows left out.
pub struct Dataset {
    /// Samples the fit uses.
    pub samples: Vec<Sample>,
    /// Rows left out.
    pub excluded: Vec<Excluded>,
}

/// One throughput measurement, described.
struct Row<'a> {
    model: &'a str,
    device: &'a str,
    precision: Precision,
    workload: Workload,
    batch: u32,
    seq: u32,
    value: f64,
    label: String,
    runtime: Runtime,
    /// Threads the run used, where fewer than the CPU's cores.
    threads: Option<u32>,
}

/// A row parser: a measurement, or the reason the row is left out.
type Parse = for<'a> fn(&Table<'_>, &'a [Cell<'a>]) -> Result<Result<Row<'a>, String>, String>;

fn llm_row<'a>(t: &Table, r: &'a [Cell<'a>]) -> Result<Result<Row<'a>, String>, String> {
    llama_bench_row(t, r, gguf_precision)
}

/// `GGUF Q4_K_M` as a precision.
fn gguf_precision(text: &str) -> Option<Precision> {
    text.strip_prefix("GGUF ").and_then(|p| p.parse::<Precision>().ok())
}

/// A llama-bench row, its precision read by `precision`.
fn llama_bench_row<'a>(
    t: &Table,
    r: &'a [Cell<'a>],
    precision: fn(&str) -> Option<Precision>,
) -> Result<Result<Row<'a>, String>, String> {
    let (model, hardware, metric) = (t.get(r, "model")?, t.get(r, "hardware")?, t.get(r, "metric")?);
    let label = format!("{model} {} {metric} on {hardware}", t.get(r, "precision")?);
    if t.get(r, "n_devices")? != "1" || t.get(r, "batch_size")? != "1" {
        return Ok(Err(format!("{label}: not a single-device batch-1 row")));
    }
    let Some(precision) = precision(t.get(r, "precision")?) else {
        return Ok(Err(format!("{label}: precision not stated")));
    };
    let (workload, seq) = if let Some(n) = metric.strip_prefix("tg").and_then(|n| n.parse::<u32>().ok()) {
        (Workload::Decode, n / 2)
    } else if let Some(n) = metric.strip_prefix("pp").and_then(|n| n.parse::<u32>().ok()) {
        (Workload::Prefill, n)
    } else {
        return Ok(Err(format!("{label}: metric '{metric}' is not ppN or tgN")));
    };
    let value: f64 = t
        .get(r, "value")?
        .parse()
        .map_err(|_| format!("{label}: value is not a number"))?;
    Ok(Ok(Row {
        model,
        device: hardware,
        precision,
        workload,
        batch: 1,
        seq,
        value,
        label,
        runtime: Runtime::LlamaCpp,
        threads: None,
    }))
}

/// A `llamacpp_cpu.csv` row: as [`llm_row`], the model named by `model_id`, llama-bench's type labels
/// read (`Q4_K - Medium` is Q4_K_M); a run on fewer threads than the CPU's cores keeps its thread
/// count (it measured part of the device, see [`Device::on_threads`](crate::Device::on_threads)).
fn cpu_llm_row<'a>(t: &Table, r: &'a [Cell<'a>]) -> Result<Result<Row<'a>, String>, String> {
    let count = |name: &str| {
        t.get(r, name)?
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("{name} is not a whole number"))
    };
    let (threads, cores, model) = (count("threads")?, count("cores")?, t.get(r, "model_id")?);
    let row = match llama_bench_row(t, r, |p| gguf_precision(p).or_else(|| llama_bench_type(p)))? {
        Ok(row) => row,
        Err(why) => return Ok(Err(why)),
    };
    if threads == 0 || cores == 0 {
        return Ok(Err(format!("{}: no threads or cores stated", row.label)));
    }
    Ok(Ok(Row {
        model,
        threads: (threads < cores).then_some(threads),
        ..row
    }))
}

/// llama-bench's type label (`GGUF Q4_K - Medium`, `GGUF Q4_K - Small`) as a precision.
fn llama_bench_type(text: &str) -> Option<Precision> {
    let label = text.strip_prefix("GGUF ")?;
    let (base, size) = label.split_once(" - ")?;
    let suffix = match size.trim() {
        "Small" => "s",
        "Medium" => "m",
        "Large" => "l",
        _ => return None,
    };
    format!("{}_{suffix}", base.trim()).to_ascii_lowercase().parse().ok()
}

fn mlperf_row<'a>(t: &Table, r: &'a [Cell<'a>]) -> Result<Result<Row<'a>, String>, String> {
    let (benchmark, accelerator, units) = (t.get(r, "benchmark")?, t.get(r, "accelerator")?, t.get(r, "units")?);
    let label = format!("MLPerf {benchmark} on {accelerator} ({units})");
    let (model, seq) = match benchmark {
        "resnet50" => ("resnet-50", 1),
        "bert-99" => ("bert-large-uncased", 384),
        _ => {
            return Ok(Err(format!(
                "{label}: LLM offline throughput depends on dataset input/output lengths"
            )))
        }
    };
    let per_node: f64 = t.get(r, "accelerators_per_node")?.parse().unwrap_or(0.0);
    if accelerator == "N/A" || per_node < 1.0 {
        return Ok(Err(format!("{label}: accelerator not stated")));
    }
    if units != "samples/s" {
        return Ok(Err(format!("{label}: not samples/s")));
    }
    let precision: Precision = t
        .get(r, "weight_data_types")?
        .parse()
        .map_err(|e| format!("{label}: {e}"))?;
    let value = t
        .get(r, "value")?
        .parse::<f64>()
        .map_err(|_| format!("{label}: value is not a number"))?
        / per_node;
    Ok(Ok(Row {
        model,
        device: accelerator,
        precision,
        workload: Workload::Forward,
        batch: OFFLINE_BATCH,
        seq,
        value,
        label,
        runtime: Runtime::from_framework(t.get(r, "framework")?).unwrap_or(Runtime::TensorRt),
        threads: None,
    }))
}

fn invalid(file: &str, message: impl core::fmt::Display) -> CoreError {
    CoreError::InvalidMeasurements(format!("{file}: {message}"))
}

/// One throughput measurement with everything a prediction for it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredStep {
    /// The model.
    pub spec: crate::spec::ModelSpec,
    /// The device.
    pub device: crate::Device,
    /// The step (with the runtime measured).
    pub request: PerfRequest,
    /// Items (or tokens) per second, as measured.
    pub measured: f64,
    /// What was measured.
    pub label: String,
    /// The threads of a CPU run on fewer threads than the CPU has cores (`device` is the whole
    /// CPU): a fit predicts it on [`Device::on_threads`](crate::Device::on_threads) with its fitted
    /// per-core bandwidth ([`MeasuredStep::on_threads`]).
    pub threads: Option<u32>,
}

impl MeasuredStep {
    /// The step on the part of its device it ran on, each busy core reading at most
    /// `core_bandwidth_gbs`.
    pub fn on_threads(&self, core_bandwidth_gbs: f64) -> Result<MeasuredStep, CoreError> {
        let Some(threads) = self.threads else {
            return Ok(self.clone());
        };
        Ok(MeasuredStep {
            device: self.device.on_threads(threads, core_bandwidth_gbs)?,
            threads: None,
            ..self.clone()
        })
    }
}

/// The throughput measurements of the files (llama.cpp and MLPerf rows), and the rows left out.
/// Accelerator rows name devices of `devices`; CPU rows (`llamacpp_cpu.csv`) name CPUs of `cpus`
/// (the device database, where the CPUs are: the curated catalog holds a few server CPUs).
pub fn measured_steps(
    data: &MeasuredData<'_>,
    catalog: &Catalog,
    devices: &DeviceCatalog,
    cpus: &DeviceCatalog,
) -> Result<(Vec<MeasuredStep>, Vec<Excluded>), CoreError> {
    let mut steps = Vec::new();
    let mut excluded = Vec::new();
    for (name, text, parse, devices) in [
        (
            "llm_tokens_per_second.csv",
            data.llm_tokens_per_second,
            llm_row as Parse,
            devices,
        ),
        ("llamacpp_cpu.csv", data.llamacpp_cpu, cpu_llm_row as Parse, cpus),
        (
            "mlperf_inference_v4_1_offline.csv",
            data.mlperf_offline,
            mlperf_row as Parse,
            devices,
        ),
    ] {
        if text.is_empty() {
            // A file the caller does not give (the learned predictor's training leaves the CPU rows
            // to the analytic fit).
            continue;
        }
        let table = Table::parse(text).map_err(|e| invalid(name, e))?;
        for (i, record) in table.rows.iter().enumerate() {
            let row_name = format!("{name} row {}", i + 2);
            let row = match parse(&table, record).map_err(|e| invalid(&row_name, e))? {
                Ok(row) => row,
                Err(reason) => {
                    excluded.push(Excluded { row: row_name, reason });
                    continue;
                }
            };
            let resolved = catalog
                .lookup(row.model)
                .ok_or_else(|| invalid(&row_name, format!("model '{}' not in the catalog", row.model)))?;
            let device = match devices.resolve_measured(row.device) {
                Ok(d) => d,
                Err(e) => {
                    excluded.push(Excluded {
                        row: row_name,
                        reason: format!("{}: {e}", row.label),
                    });
                    continue;
                }
            };
            let request = PerfRequest {
                precision: row.precision,
                workload: row.workload,
                batch_size: row.batch,
                seq_length: row.seq,
                runtime: Some(row.runtime),
                prompt_chunk: None,
                mixed_precision: None,
            };
            // A row the model refuses (a precision the device cannot run) is an error of the data.
            Sample::new(&resolved.spec, device, &request, row.value, row.label.clone())
                .map_err(|e| invalid(&row_name, e))?;
            if let Some(threads) = row.threads {
                if device.cpu_cores.is_none() {
                    excluded.push(Excluded {
                        row: row_name,
                        reason: format!(
                            "{}: run on {threads} threads of a CPU whose core count hwfit lacks",
                            row.label
                        ),
                    });
                    continue;
                }
            }
            steps.push(MeasuredStep {
                spec: resolved.spec.clone(),
                device: device.clone(),
                request,
                measured: row.value,
                label: row.label,
                threads: row.threads,
            });
        }
    }
    Ok((steps, excluded))
}

/// web-llm's memory figures for catalog models at precisions hwfit represents.
fn webllm_memory(text: &str, catalog: &Catalog) -> Result<(Vec<MemorySample>, Vec<Excluded>), CoreError> {
    const FILE: &str = "webllm_vram_requirements.csv";
    let table = Table::parse(text).map_err(|e| invalid(FILE, e))?;
    let mut samples = Vec::new();
    let mut excluded = Vec::new();
    for (i, r) in table.rows.iter().enumerate() {
        let row = format!("{FILE} row {}", i + 2);
        let get = |name: &str| table.get(r, name).map_err(|e| invalid(&row, e));
        let id = get("model_id")?;
        let precision = match get("mlc_quantization")? {
            "q4f16_1" => Precision::Q4_0,
            "q0f16" => Precision::Fp16,
            "q0f32" => Precision::Fp32,
            other => {
                let reason = format!("{id}: quantization {other} has no hwfit precision");
                excluded.push(Excluded { row, reason });
                continue;
            }
        };
        let Ok(context) = get("context_window_size")?.parse::<u32>() else {
            let reason = format!("{id}: no context window");
            excluded.push(Excluded { row, reason });
            continue;
        };
        let base = id.split("-q").next().unwrap_or(id);
        let Some(model) = catalog
            .lookup(base)
            .or_else(|| catalog.lookup(&base.replace("-Instruct", "").replace("-instruct", "")))
        else {
            let reason = format!("{id}: '{base}' is not in the catalog");
            excluded.push(Excluded { row, reason });
            continue;
        };
        let req = ResourceInput {
            hardware: HardwareType::Webgpu,
            precision,
            mode: Mode::Inference,
            batch_size: 1,
            seq_length: context,
            mixed_precision: None,
        };
        let estimate = match estimate_resources(&model.spec, &req) {
            Ok(e) => e,
            Err(e) => {
                let reason = format!("{id}: {e}");
                excluded.push(Excluded { row, reason });
                continue;
            }
        };
        let measured_mb = get("vram_required_MB")?
            .parse()
            .map_err(|_| invalid(&row, "vram_required_MB is not a number"))?;
        samples.push(MemorySample {
            model_id: id.to_string(),
            model: model.spec.name.clone(),
            estimate_without_overhead_mb: estimate.breakdown.total_mb() - estimate.breakdown.runtime_overhead_mb,
            measured_mb,
        });
    }
    Ok((samples, excluded))
}

fn memory_fit(text: &str, catalog: &Catalog) -> Result<(MemoryFit, Vec<Excluded>), CoreError> {
    let (samples, excluded) = webllm_memory(text, catalog)?;
    let residuals: Vec<f64> = samples
        .iter()
        .map(|s| s.measured_mb - s.estimate_without_overhead_mb)
        .collect();
    // An allowance is memory the runtime adds: never negative (a negative median residual means the
    // estimates run high, which the error figures report).
    let overhead = libm::round(median(&residuals).unwrap_or(0.0)).max(0.0);
    let errors: Vec<f64> = samples
        .iter()
        .map(|s| libm::fabs(libm::log((s.estimate_without_overhead_mb + overhead) / s.measured_mb)))
        .collect();
    #[allow(clippy::cast_precision_loss, reason = "counts of a few hundred rows")]
    let within = errors.iter().filter(|e| libm::exp(**e) <= 1.25).count() as f64 / errors.len().max(1) as f64;
    Ok((
        MemoryFit {
            webgpu_runtime_overhead_mb: overhead,
            within_25_percent: within,
            median_abs_log_error: median(&errors).unwrap_or(0.0),
            samples,
        },
        excluded,
    ))
}

/// Fits the performance model to the measurements and reports its accuracy.
pub fn fit_model(data: &MeasuredData<'_>) -> Result<FitReport, CoreError> {
    let catalog = Catalog::builtin();
    // Accelerator rows are fitted on curated devices only. Tried 2026-11-28 with the device
    // database's rows as well (36 more llama.cpp ROCm rows on 11 GPUs): ROCm's cell then predicted
    // its own 13 devices better left out one at a time (63 % within ±25 % of 52 rows, against
    // about 58 %), but the held-out mixture-of-experts rows worse (59 → 55 %; discrete RDNA 3/4
    // decode ×0.72–0.80), a wash on held-out data; the mixed llama.cpp builds of those rows
    // disagree with one another (docs/model.md).
    let curated = DeviceCatalog::builtin();
    #[cfg(feature = "device-db")]
    let cpus = DeviceCatalog::bundled()?;
    #[cfg(not(feature = "device-db"))]
    let cpus = DeviceCatalog::builtin();
    let (mut steps, steps_excluded) = measured_steps(data, &catalog, &curated, &cpus)?;
    // llama.cpp keeps the class coefficients: the llama-bench runs `hwfit bench` recorded (on the
    // machine it measured) join the public llama-bench rows.
    steps.extend(
        data.runner_steps
            .iter()
            .filter(|s| s.request.runtime.is_some_and(|r| runtimes::CLASS_RUNTIMES.contains(&r)))
            .cloned(),
    );
    let (steps, core_bandwidth) = cores::on_fitted_cores(&steps)?;
    let dataset = Dataset {
        samples: samples(&steps)?,
        excluded: steps_excluded,
    };
    let (memory, memory_excluded) = memory_fit(data.webllm_vram, &catalog)?;
    let fitted_on = format!(
        "{} measurements (llama.cpp llama-bench tg/pp on GPUs and CPUs, MLPerf Inference v4.1 Offline) from data/measured/, fitted by hwfit fit",
        dataset.samples.len()
    );
    let mut coefficients = fit(&dataset.samples, &fitted_on);
    coefficients.cpu_core_bandwidth_gbs = core_bandwidth;
    #[cfg(feature = "device-db")]
    let devices = DeviceCatalog::bundled()?;
    #[cfg(not(feature = "device-db"))]
    let devices = DeviceCatalog::builtin();
    let (cases, browser_excluded) = browser::cases(data.browser_measurements, data.browser_cases, &catalog, &devices)?;
    let engine_pairs = engines::pairs(data.browser_engines)?;
    let (browser_coefficients, browser, browser_engines) =
        browser::fit_browser_model(&coefficients, &cases, &engine_pairs);
    coefficients.browser = Some(browser_coefficients);
    let (wasm_steps, wasm_excluded) = if data.llamacpp_wasm.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        wasm_kernels::steps(data.llamacpp_wasm, &catalog, &devices)?
    };
    let llamacpp_wasm = (!wasm_steps.is_empty()).then(|| {
        let (shares, report) = wasm_kernels::fit_and_validate(&coefficients, &wasm_steps);
        if let Some(browser) = coefficients.browser.as_mut() {
            browser.llama_cpp_wasm = shares;
        }
        report
    });
    let (mut runtime_samples, runtime_excluded) = runtimes::samples(data.runtime_steps, &catalog, &devices)?;
    for step in steps.iter().filter(|s| {
        s.request
            .runtime
            .is_some_and(|r| !runtimes::CLASS_RUNTIMES.contains(&r))
    }) {
        runtime_samples.push(runtimes::RuntimeSample::new(
            &step.spec,
            &step.device,
            &step.request,
            step.measured,
            "MLPerf Inference v4.1 Offline (data/measured/mlperf_inference_v4_1_offline.csv)",
            step.label.clone(),
        )?);
    }
    for step in data.runner_steps {
        let Some(runtime) = step.request.runtime.filter(|r| !runtimes::CLASS_RUNTIMES.contains(r)) else {
            continue;
        };
        runtime_samples.push(runtimes::RuntimeSample::new(
            &step.spec,
            &step.device,
            &step.request,
            step.measured,
            &format!(
                "{}{runtime} on {} (data/measured/hwfit_bench_*.json)",
                runtimes::RUNNER_SOURCE,
                step.device.name
            ),
            step.label.clone(),
        )?);
    }
    let (runtime_coefficients, runtime_fit) = runtimes::fit_and_validate(&runtime_samples, &coefficients);
    coefficients.runtimes = runtime_coefficients;
    let (mixture_of_experts, moe_excluded) = validation::validate_moe(
        data.moe_steps,
        &catalog,
        &devices,
        &PerfModel::with_coefficients(coefficients.clone()),
    )?;
    #[cfg(feature = "device-db")]
    let database_twins = Some(database_twins(&steps, crate::device::DATABASE_CSV)?);
    #[cfg(not(feature = "device-db"))]
    let database_twins = None;
    let residuals = dataset
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
                log_error: libm::log(predicted / s.measured),
            })
        })
        .collect();
    let folds: Vec<_> = device_folds(&dataset.samples).collect();
    Ok(FitReport {
        residuals,
        in_sample: accuracy(&coefficients, &dataset.samples),
        cross_validated_by_device: cross_validate(&dataset.samples, &folds),
        by_cell: accuracy_by_cell(&dataset.samples, &coefficients, &folds),
        coefficients,
        memory,
        browser,
        browser_engines,
        llamacpp_wasm,
        runtimes: runtime_fit,
        mixture_of_experts,
        database_twins,
        excluded: dataset
            .excluded
            .into_iter()
            .chain(memory_excluded)
            .chain(browser_excluded)
            .chain(wasm_excluded)
            .chain(runtime_excluded)
            .chain(moe_excluded)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLM_HEADER: &str = "model,precision,hardware,n_devices,batch_size,metric,value\n";

    fn llm(row: &str) -> Result<(Workload, u32, f64, Precision), String> {
        let text = format!("{LLM_HEADER}{row}\n");
        let table = Table::parse(&text).unwrap();
        llm_row(&table, &table.rows[0])?.map(|r| (r.workload, r.seq, r.value, r.precision))
    }

    #[test]
    fn llama_bench_rows_become_decode_and_prefill_steps() {
        // tgN generates N tokens: the average context is N/2; ppN is a prompt of N tokens.
        assert_eq!(
            llm("Llama 3 8B,GGUF Q4_K_M,RTX 4090,1,1,tg512,127.7"),
            Ok((Workload::Decode, 256, 127.7, Precision::Q4KM))
        );
        assert_eq!(
            llm("Llama 3 8B,GGUF Q4_K_M,RTX 4090,1,1,pp512,6898.7"),
            Ok((Workload::Prefill, 512, 6898.7, Precision::Q4KM))
        );
    }

    #[test]
    fn llama_bench_rows_that_do_not_describe_one_step_are_left_out_with_why() {
        let why = |row| llm(row).unwrap_err();
        assert!(why("Llama 3 8B,GGUF Q4_K_M,RTX 4090,2,1,tg512,1").contains("single-device"));
        assert!(why("Llama 3 8B,fp16,RTX 4090,1,1,tg512,1").contains("precision not stated"));
        assert!(why("Llama 3 8B,GGUF Q4_K_M,RTX 4090,1,1,e2e,1").contains("not ppN or tgN"));
        assert!(why("Llama 3 8B,GGUF Q4_K_M,RTX 4090,1,1,tg128,fast").contains("not a number"));
    }

    #[test]
    fn a_missing_column_is_an_error_not_a_left_out_row() {
        let table = Table::parse("model,precision\nx,y\n").unwrap();
        assert!(llm_row(&table, &table.rows[0]).is_err());
    }

    /// A CPU row's model, precision, workload and sequence length.
    type CpuRow = (String, Precision, Workload, u32);

    fn cpu_row(row: &str) -> Result<CpuRow, String> {
        cpu_row_threads(row).map(|(row, _)| row)
    }

    fn cpu_row_threads(row: &str) -> Result<(CpuRow, Option<u32>), String> {
        let text =
            format!("model,model_id,precision,hardware,n_devices,batch_size,metric,value,threads,cores\n{row}\n");
        let table = Table::parse(&text).unwrap();
        cpu_llm_row(&table, &table.rows[0])?
            .map(|r| ((String::from(r.model), r.precision, r.workload, r.seq), r.threads))
    }

    #[test]
    fn cpu_rows_name_their_model_read_llama_bench_types_and_keep_their_thread_count() {
        let (model, precision, workload, seq) = cpu_row(
            "llama 3B Q4_K - Medium,meta-llama/Llama-3.2-3B-Instruct,GGUF Q4_K - Medium,Cix CP8180,1,1,tg128,40.4,12,12",
        )
        .unwrap();
        assert_eq!(model, "meta-llama/Llama-3.2-3B-Instruct");
        assert_eq!((precision, workload, seq), (Precision::Q4KM, Workload::Decode, 64));
        let (_, precision, workload, _) =
            cpu_row("llama 8B,meta-llama/Meta-Llama-3-8B,GGUF Q4_K - Small,AMD Ryzen 9 7950X,1,1,pp2048,93.1,16,16")
                .unwrap();
        assert_eq!((precision, workload), (Precision::Q4KS, Workload::Prefill));
        // A run on fewer threads than cores keeps its count; one on every core (or more threads) is
        // the whole CPU.
        let threads = |row| cpu_row_threads(row).unwrap().1;
        assert_eq!(
            threads("x,meta-llama/Llama-2-7b-hf,GGUF Q4_0,Intel Xeon w9-3475X,1,1,tg128,6.8,4,36"),
            Some(4)
        );
        assert_eq!(threads("x,m,GGUF Q4_0,Intel Xeon w9-3475X,1,1,tg128,6.8,72,36"), None);
        assert!(cpu_row("x,m,GGUF Q4_0,Intel Xeon w9-3475X,1,1,tg128,6.8,0,36")
            .unwrap_err()
            .contains("no threads or cores"));
        assert!(cpu_row("x,m,GGUF Q4_0,Two Xeons,2,1,tg128,6.8,64,32")
            .unwrap_err()
            .contains("not a single-device batch-1 row"));
        assert!(cpu_row("x,m,GGUF all F32 (guessed),Raspberry Pi 5,1,1,tg128,8,4,4")
            .unwrap_err()
            .contains("precision not stated"));
        assert!(cpu_row("x,m,GGUF Q4_K_M,Cix CP8180,1,1,pp4096+tg128,99.9,12,12")
            .unwrap_err()
            .contains("is not ppN or tgN"));
    }

    fn mlperf(row: &str) -> Result<(String, f64, u32), String> {
        let text =
            format!("benchmark,accelerator,units,accelerators_per_node,weight_data_types,value,framework\n{row}\n");
        let table = Table::parse(&text).unwrap();
        mlperf_row(&table, &table.rows[0])?.map(|r| (String::from(r.model), r.value, r.seq))
    }

    #[test]
    fn mlperf_offline_rows_are_per_accelerator_forward_steps() {
        let (model, value, seq) = mlperf("resnet50,NVIDIA H100-SXM-80GB,samples/s,8,int8,720000,TensorRT 10").unwrap();
        assert_eq!((model.as_str(), seq), ("resnet-50", 1));
        assert!(
            (value - 90_000.0).abs() < 1e-9,
            "divided by the 8 accelerators of the node"
        );
        assert_eq!(
            mlperf("bert-99,NVIDIA L4,samples/s,1,int8,1000,TensorRT").unwrap().2,
            384
        );
        let why = mlperf("llama2-70b-99,NVIDIA H100,tokens/s,8,fp8,1,TensorRT").unwrap_err();
        assert!(why.contains("dataset input/output lengths"), "{why}");
        assert!(mlperf("resnet50,N/A,samples/s,0,int8,1,x")
            .unwrap_err()
            .contains("accelerator not stated"));
        assert!(mlperf("resnet50,NVIDIA L4,queries/s,1,int8,1,x")
            .unwrap_err()
            .contains("not samples/s"));
    }

    /// Needs the device database (the browser cases name its devices): `--all-features`.
    #[cfg(feature = "device-db")]
    #[test]
    fn the_fit_holds_its_accuracy_floors() {
        let data = MeasuredData {
            llm_tokens_per_second: include_str!("../../../../../data/measured/llm_tokens_per_second.csv"),
            llamacpp_cpu: include_str!("../../../../../data/measured/llamacpp_cpu.csv"),
            mlperf_offline: include_str!("../../../../../data/measured/mlperf_inference_v4_1_offline.csv"),
            webllm_vram: include_str!("../../../../../data/measured/webllm_vram_requirements.csv"),
            browser_measurements: include_str!("../../../../../data/measured/browser_measurements.csv"),
            browser_cases: include_str!("../../../../../data/measured/browser_cases.csv"),
            browser_engines: include_str!("../../../../../data/measured/browser_engines.csv"),
            llamacpp_wasm: include_str!("../../../../../data/measured/llamacpp_wasm.csv"),
            runtime_steps: include_str!("../../../../../data/measured/runtime_steps.csv"),
            moe_steps: include_str!("../../../../../data/measured/moe_steps.csv"),
            runner_steps: &[],
        };
        let a = fit_model(&data).unwrap();
        // That the fit is deterministic — the same coefficients on every run, whatever the order
        // its folds finish in on the threads — is the CLI's test: a fresh fit equals the stored
        // coefficients (stored_coefficients_are_the_fit_and_accuracy_is_reported).
        assert!(a.cross_validated_by_device.samples > 50);
        assert!(a.in_sample.within_25_percent >= a.cross_validated_by_device.within_25_percent);
        // CPUs' own generate coefficients (llamacpp_cpu.csv) predict held-out CPUs better than the
        // pooled ones they would otherwise be answered with, by the median error the fit minimises
        // (docs/model.md).
        let cpu = a
            .by_cell
            .iter()
            .find(|c| c.hardware == crate::HardwareType::Cpu && c.class == crate::perf::WorkloadClass::Generate)
            .expect("a CPU generate cell");
        assert!(cpu.devices >= 4, "{cpu:?}");
        assert!(
            cpu.leave_one_device_out.median_abs_log_error < cpu.pooled_leave_one_device_out.median_abs_log_error,
            "{cpu:?}"
        );
        // Held-out mixture-of-experts decode: the routing-aware bytes hold (docs/models.md).
        let moe = &a.mixture_of_experts;
        assert!(moe.mixture_of_experts_decode.samples >= 50, "{moe:?}");
        assert!(
            moe.mixture_of_experts_decode.within_25_percent >= 0.7,
            "{:?}",
            moe.mixture_of_experts_decode
        );
        // Prompts fed in llama.cpp's physical batches (the sweeps' `-ub`, else 512): a batch of one
        // token reads what a decode step reads, so the one-token sweeps come out within ×1.4 where
        // one pass over the prompt put them ×15–20 too fast (docs/model.md).
        let single: Vec<f64> = moe
            .samples
            .iter()
            .filter(|s| s.label.contains(" ub1 "))
            .map(|s| s.predicted / s.measured)
            .collect();
        assert_eq!(single.len(), 2, "{single:?}");
        assert!(single.iter().all(|r| (0.7..1.4).contains(r)), "{single:?}");
        assert!(
            moe.mixture_of_experts.within_25_percent >= 0.55,
            "{:?}",
            moe.mixture_of_experts
        );
    }
}
