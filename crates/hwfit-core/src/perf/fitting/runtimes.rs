//! Fitting each runtime's step costs ([`RuntimeCoefficients`]) to public measurements of that
//! runtime (`data/measured/runtime_steps.csv`: PyTorch eager and compiled, ONNX Runtime, TensorRT,
//! OpenVINO …, each row with its source and a verbatim quote).
//!
//! Rules:
//! - a row is one step: `forward`, `prefill`, `decode` (`seq_length` = the KV context) or
//!   `train_step` of a catalog model at a stated batch, sequence length and precision on a device
//!   hwfit resolves; `latency_ms` rows become throughput as items per step / latency; tokens/s of a
//!   training step become samples/s by the sequence length;
//! - left out, with the reason: unknown models or devices, TF32 rows (the math mode is not the
//!   precision's), rows without a batch size, rows the model cannot run, and llama.cpp rows (it keeps
//!   the generate-class coefficients fitted to llama-bench);
//! - the MLPerf Offline rows (TensorRT, batch 256) join the TensorRT rows as one more source;
//! - per runtime and hardware type with at least [`MIN_SAMPLES`] rows from two devices and two
//!   sources, minimise Σ (ln predicted − ln measured)² over the compute shares (16-bit and narrower
//!   math; FP32) ∈ [0.005, 1], memory share ∈ [0.02, 1], host time per operator ∈ [0.1, 300] µs,
//!   where training rows come from two sources or more a training step's host cost per operator
//!   over an inference step's ∈ [1, 10] and its device time over its FLOPs' and bytes' ∈ [1, 10]
//!   (else 1 each), and per step ∈ [0, 50] ms: on accelerators one per
//!   source (its harness), on CPUs one for all, profiled out at each trial of the others; a grid over
//!   compute (both shares equal), memory and operator cost picks the start, Nelder–Mead in the logs
//!   refines it, restarted once; predictions carry the runner records' per-step cost (a model call),
//!   else the sources' median;
//! - each source weighs √(its rows) in the fit: its rows share one harness and host, yet more rows
//!   pin its costs down better than one;
//! - accuracy per runtime: in-sample, leaving each source out and leaving each device out; a fit
//!   that predicts neither held-out set better than the class coefficients is not kept.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::Serialize;

use super::{invalid, Excluded, Residual};
use crate::csv::{Cell, Table};
use crate::perf::fit::{log_space, nelder_mead, round4, summarize, Accuracy, MIN_SAMPLES};
use crate::perf::host::{device_seconds, HostCosts, Processor, RuntimeCoefficients};
use crate::perf::{operators, runtime_step_cost, tf32, Coefficients, PerfRequest, Runtime, WorkloadClass};
use crate::spec::ModelSpec;
use crate::{Catalog, CoreError, Device, DeviceCatalog, HardwareType, Precision, Workload};

const FILE: &str = "runtime_steps.csv";
/// Runtimes predicted by the workload-class coefficients: llama.cpp, fitted on the llama-bench rows of
/// `llm_tokens_per_second.csv`.
pub const CLASS_RUNTIMES: [Runtime; 1] = [Runtime::LlamaCpp];
const COMPUTE_BOUNDS: (f64, f64) = (0.005, 1.0);
const MEMORY_BOUNDS: (f64, f64) = (0.02, 1.0);
const OPERATOR_US_BOUNDS: (f64, f64) = (0.1, 300.0);
const STEP_MS_BOUNDS: (f64, f64) = (0.0, 50.0);
const TRAIN_HOST_FACTOR_BOUNDS: (f64, f64) = (1.0, 10.0);
/// A training step's device factor: at least the count's own assumption.
const TRAIN_DEVICE_FACTOR_BOUNDS: (f64, f64) = (1.0, 10.0);

/// One measurement of a runtime reduced to what its step model needs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuntimeSample {
    /// The runtime measured.
    pub runtime: Runtime,
    /// The hardware type it ran on.
    pub hardware: HardwareType,
    /// The source (the unit of leave-one-source-out).
    pub source: String,
    /// Device id (the unit of leave-one-device-out).
    pub device_id: String,
    /// What was measured.
    pub label: String,
    /// The workload class (for the class coefficients it is compared with).
    pub class: WorkloadClass,
    /// The workload.
    pub workload: Workload,
    /// Whether the step computes in FP32 (its own achieved share).
    pub fp32: bool,
    /// Whether it is a training step (its operators at the runtime's training host cost).
    pub training: bool,
    /// FLOPs / dense peak at the precision, seconds.
    pub compute_s: f64,
    /// FLOPs an fp32 step runs on TF32 tensor cores (PyTorch's convolutions) / the TF32 peak,
    /// seconds, at the runtime's tensor-core share (0 elsewhere; see [`crate::perf::tf32`]).
    pub tensor_s: f64,
    /// Weight bytes the matrix products read / peak bandwidth, seconds.
    pub weight_s: f64,
    /// The other bytes (streamed by the operators between them) / peak bandwidth, seconds.
    pub streamed_s: f64,
    /// Operators the step runs.
    pub operators: u32,
    /// Items per step.
    pub items: f64,
    /// Forward passes per step (a prompt fed in chunks: one per chunk): each runs the operators
    /// and pays the per-step cost (the workload-class model: its overhead).
    pub passes: u32,
    /// Measured throughput, items per second.
    pub measured: f64,
}

impl RuntimeSample {
    /// Reduces a measurement of `request` (which names its runtime) for `spec` on `device`.
    pub fn new(
        spec: &ModelSpec,
        device: &Device,
        request: &PerfRequest,
        measured: f64,
        source: &str,
        label: String,
    ) -> Result<Self, CoreError> {
        let runtime = request.runtime.unwrap_or(Runtime::default_for(
            device.hardware_type,
            request.workload,
            request.precision,
        ));
        let cost = runtime_step_cost(spec, request, runtime)?;
        let (peak, _) = device.dense_tflops.for_precision(request.precision);
        let bandwidth = device.memory_bandwidth_gbs * 1e9;
        let (tensor_share, tf32_peak) =
            tf32::fp32_on_tf32(runtime, device, spec, request.precision, request.seq_length).unwrap_or((0.0, 1.0));
        Ok(Self {
            runtime,
            hardware: device.hardware_type,
            source: String::from(source),
            device_id: device.id.clone(),
            label,
            class: WorkloadClass::of(request.workload),
            workload: request.workload,
            fp32: request.precision == Precision::Fp32,
            training: request.workload == Workload::TrainStep,
            compute_s: cost.flops * (1.0 - tensor_share) / (peak * 1e12),
            tensor_s: cost.flops * tensor_share / (tf32_peak * 1e12),
            weight_s: cost.weight_bytes / bandwidth,
            streamed_s: (cost.bytes - cost.weight_bytes) / bandwidth,
            operators: operators::of_request(spec, request, runtime),
            items: cost.items,
            passes: cost.passes,
            measured,
        })
    }

    /// Predicted throughput under `c`.
    #[must_use]
    pub fn predict(&self, c: &RuntimeCoefficients) -> f64 {
        let compute = if self.fp32 { c.compute_fp32 } else { c.compute };
        let device_ms = device_seconds(
            self.compute_s / compute + self.tensor_s / c.compute,
            self.weight_s / c.memory,
            self.streamed_s / c.memory,
        ) * 1e3
            * c.device_time_factor(self.training);
        self.items / (HostCosts::new(c, self.operators, self.passes, device_ms, self.training).total_ms() / 1e3)
    }

    /// The most items per second the step can produce: its FLOPs at the peak rate, or its weights
    /// read once at the peak bandwidth, whichever takes longer (no host cost, nothing else
    /// streamed).
    #[must_use]
    pub fn ceiling(&self) -> f64 {
        self.items / libm::fmax(self.compute_s + self.tensor_s, self.weight_s)
    }

    fn log_error(&self, c: &RuntimeCoefficients) -> f64 {
        libm::log(self.predict(c) / self.measured)
    }

    /// The step's predicted time under `c` without its per-step cost (which adds to it, once per
    /// pass), ms.
    fn ms_before_step_cost(&self, c: &RuntimeCoefficients) -> f64 {
        self.items * 1e3 / self.predict(c) - f64::from(self.passes) * c.step_ms
    }

    /// The measured step's time, ms.
    fn measured_ms(&self) -> f64 {
        self.items * 1e3 / self.measured
    }

    /// |ln error| of the workload-class coefficients (the model without host costs: what a
    /// runtime without a fit of its own is answered with).
    fn class_error(&self, class: &Coefficients) -> f64 {
        class
            .efficiency(self.hardware, self.class)
            .map_or(f64::INFINITY, |(e, _)| {
                let roofline = libm::fmax(
                    (self.compute_s + self.tensor_s) / e.compute,
                    (self.weight_s + self.streamed_s) / e.memory,
                );
                libm::fabs(libm::log(
                    self.items / (roofline + f64::from(self.passes) * e.overhead_ms / 1e3) / self.measured,
                ))
            })
    }
}

/// One runtime's fit and how well it predicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuntimeAccuracy {
    /// The runtime.
    pub runtime: Runtime,
    /// The hardware type.
    pub hardware: HardwareType,
    /// Measurements of it.
    pub rows: usize,
    /// Distinct devices measured.
    pub devices: usize,
    /// Distinct sources.
    pub sources: usize,
    /// Whether it has coefficients of its own: rows enough for a fit (see [`fit_runtimes`]), and the
    /// fit predicts held-out rows — leaving a source or a device out — better than the class model
    /// does (else its questions keep the class coefficients; the figures show the fit that lost).
    pub fitted: bool,
    /// On the rows fitted.
    pub in_sample: Accuracy,
    /// The workload-class coefficients (no host costs) on the same rows: what the step model gains.
    pub class_model: Accuracy,
    /// Each source's rows predicted by a fit without that source.
    pub leave_one_source_out: Accuracy,
    /// Each device's rows predicted by a fit without that device.
    pub leave_one_device_out: Accuracy,
    /// Each source's own per-step cost under the fitted constants: what its harness adds to a
    /// model call (accelerators; a prediction carries the runner records').
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub harness_costs: Vec<HarnessCost>,
    /// Where the fit kept took its host costs from: the same runtime on another accelerator
    /// (`"pytorch on cuda"`) when that predicted this one's held-out rows better than host costs
    /// fitted to its own few rows ([`fit_and_validate`]); none when they are its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_costs_from: Option<String>,
}

/// What one source's harness costs a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HarnessCost {
    /// The source.
    pub source: String,
    /// Its rows.
    pub rows: usize,
    /// Its fitted per-step cost, ms.
    pub step_ms: f64,
}

/// The runtime fits and their accuracy.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuntimeFit {
    /// Per runtime and hardware type.
    pub runtimes: Vec<RuntimeAccuracy>,
    /// Every sample against its runtime's fit.
    pub residuals: Vec<Residual>,
}

/// A row's precision and, for a training row, whether it trained in mixed precision: "fp16 (amp)"
/// (autocast over fp32 weights) is mixed, any other 16-bit row ("bf16 (pure)", a bare "fp16") pure —
/// its weights and optimizer state at the precision it names.
fn parse_precision(text: &str) -> Result<(Precision, bool), String> {
    let lower = text.trim().to_ascii_lowercase();
    let first = lower.split([' ', '(', '/']).next().unwrap_or("");
    if first == "tf32" {
        return Err(String::from("TF32 math mode is not modelled (fp32 means IEEE fp32)"));
    }
    let precision: Precision = first
        .parse()
        .map_err(|_| format!("precision '{text}' is not one hwfit models"))?;
    Ok((precision, lower.contains("(amp)")))
}

/// Checks that a measurement row names its source and quotes it.
pub(super) fn check_source<'a>(get: &impl Fn(&str) -> Result<&'a str, String>) -> Result<(), String> {
    for required in ["source", "source_ref", "quote"] {
        if get(required)?.trim().is_empty() {
            return Err(format!(
                "'{required}' is empty: every row names its source and quotes it"
            ));
        }
    }
    Ok(())
}

/// A measurement row's `value`: a positive number, else an error of the data.
pub(super) fn positive_value<'a>(get: &impl Fn(&str) -> Result<&'a str, String>) -> Result<f64, String> {
    let text = get("value")?;
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("value '{text}' is not a number"))?;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!("value {value} is not a positive number"))
    }
}

/// The device a measurement row names, or why it is left out.
pub(super) fn measured_device<'d>(devices: &'d DeviceCatalog, hardware: &str) -> Result<&'d Device, String> {
    devices
        .resolve_measured(hardware)
        .map_err(|e| format!("device '{hardware}': {e}"))
}

/// The samples of `runtime_steps.csv` and the rows left out.
pub fn samples(
    text: &str,
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<(Vec<RuntimeSample>, Vec<Excluded>), CoreError> {
    let table = Table::parse(text).map_err(|e| invalid(FILE, e))?;
    let mut samples = Vec::new();
    let mut excluded = Vec::new();
    for (i, r) in table.rows.iter().enumerate() {
        let row = format!("{FILE} row {}", i + 2);
        match sample(&table, r, catalog, devices).map_err(|e| invalid(&row, e))? {
            Ok(s) => samples.push(s),
            Err(reason) => excluded.push(Excluded { row, reason }),
        }
    }
    Ok((samples, excluded))
}

/// One row: `Err` for a malformed row (an error of the data), `Ok(Err(why))` for a row left out.
fn sample(
    t: &Table,
    r: &[Cell<'_>],
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<Result<RuntimeSample, String>, String> {
    let get = |name: &str| t.get(r, name);
    check_source(&get)?;
    let runtime: Runtime = get("runtime")?.parse().map_err(|e| format!("{e}"))?;
    if CLASS_RUNTIMES.contains(&runtime) {
        return Ok(Err(format!(
            "{runtime} keeps the coefficients fitted to its llama-bench rows"
        )));
    }
    let workload: Workload = get("workload")?.parse().map_err(|e| format!("{e}"))?;
    let value = positive_value(&get)?;
    let (precision, mixed) = match parse_precision(get("precision")?) {
        Ok(p) => p,
        Err(why) => return Ok(Err(why)),
    };
    let Ok(batch) = get("batch_size")?.trim().parse::<u32>() else {
        return Ok(Err(String::from("batch size not stated")));
    };
    let model = get("model")?;
    let Some(resolved) = catalog.lookup(model) else {
        return Ok(Err(format!("model '{model}' is not in the catalog")));
    };
    let spec = &resolved.spec;
    let seq = match get("seq_length")?.trim() {
        // An image or audio model's tokens come from its input, not from a sequence length.
        "" if !spec.reads_text() => 1,
        "" => return Ok(Err(String::from("sequence length not stated"))),
        text => text
            .parse::<u32>()
            .map_err(|_| format!("seq_length '{text}' is not a whole number"))?,
    };
    let hardware = get("hardware")?;
    let device = match measured_device(devices, hardware) {
        Ok(d) => d,
        Err(why) => return Ok(Err(why)),
    };
    let request = PerfRequest {
        precision,
        workload,
        batch_size: batch,
        seq_length: seq,
        runtime: Some(runtime),
        prompt_chunk: None,
        mixed_precision: Some(mixed),
    };
    let cost = match runtime_step_cost(spec, &request, runtime) {
        Ok(c) => c,
        Err(e) => return Ok(Err(format!("{e}"))),
    };
    if let Err(e) = crate::resources::validate_request(spec, precision, workload.mode(), batch, seq)
        .and_then(|()| crate::compat::check_precision(device.hardware_type, precision))
    {
        return Ok(Err(format!("{e}")));
    }
    let units = get("units")?.trim().to_ascii_lowercase();
    let measured = match get("metric")?.trim() {
        "latency_ms" => {
            let ms = match units.as_str() {
                "ms" => value,
                "s" => value * 1e3,
                "us" | "µs" => value / 1e3,
                other => return Err(format!("latency units '{other}' are not ms, s or us")),
            };
            cost.items / (ms / 1e3)
        }
        "throughput" => match (units.as_str(), workload) {
            ("tokens/s", Workload::TrainStep | Workload::Forward) => value / f64::from(seq),
            ("tokens/s" | "items/s" | "samples/s" | "images/s" | "sequences/s" | "sentences/s", _) => value,
            (other, _) => return Err(format!("throughput units '{other}' are not known")),
        },
        other => return Err(format!("metric '{other}' is not latency_ms or throughput")),
    };
    let sample = RuntimeSample::new(
        spec,
        device,
        &request,
        measured,
        get("source")?.trim(),
        format!(
            "{runtime} {} {workload} b{batch} s{seq} {precision} on {hardware}",
            spec.name
        ),
    )
    .map_err(|e| format!("{e}"))?;
    let ceiling = sample.ceiling();
    if measured > ceiling {
        return Ok(Err(format!(
            "{measured:.4} items/s is above what its FLOPs and weights allow at {precision} on {hardware} \
             ({ceiling:.4} items/s at the peak rate and bandwidth): the run used another math mode (TF32), \
             precision or more hardware (sockets, GPUs) than the row states"
        )));
    }
    Ok(Ok(sample))
}

/// The source prefix of the records `hwfit bench` takes: a model call timed after warm-up and
/// synchronised, nothing around it — the step a prediction describes.
pub(super) const RUNNER_SOURCE: &str = "hwfit bench, ";

/// The samples of one fit, their weights and each source's rows.
struct FitRows<'a> {
    samples: &'a [&'a RuntimeSample],
    weights: Vec<f64>,
    /// ln of each sample's measured time, ms.
    measured_ln_ms: Vec<f64>,
    sources: Vec<(&'a str, Vec<usize>)>,
}

impl<'a> FitRows<'a> {
    /// The rows of a fit with one per-step cost per source (`per_source`), or one for all.
    fn new(samples: &'a [&'a RuntimeSample], per_source: bool) -> Self {
        let sources = if per_source {
            let names: BTreeSet<&str> = samples.iter().map(|s| s.source.as_str()).collect();
            names
                .into_iter()
                .map(|name| {
                    (
                        name,
                        (0..samples.len()).filter(|&i| samples[i].source == name).collect(),
                    )
                })
                .collect()
        } else {
            vec![("all sources", (0..samples.len()).collect())]
        };
        Self {
            samples,
            weights: source_weights(samples),
            measured_ln_ms: samples.iter().map(|s| libm::log(s.measured_ms())).collect(),
            sources,
        }
    }

    /// One source's weighted squared log errors when its steps, before the per-step cost, take
    /// `before_ms` and the per-step cost (paid once per pass) is `step_ms`.
    fn source_loss(&self, rows: &[usize], before_ms: &[f64], step_ms: f64) -> f64 {
        rows.iter()
            .map(|&i| {
                let e = libm::log(before_ms[i] + f64::from(self.samples[i].passes) * step_ms) - self.measured_ln_ms[i];
                self.weights[i] * e * e
            })
            .sum()
    }

    /// The per-step cost (ms) that fits one source's rows best, and their loss with it: the root of
    /// the loss's derivative in [`STEP_MS_BOUNDS`] by Newton's method kept inside a shrinking
    /// bracket (bisection where a Newton step would leave it), or a bound where the loss only
    /// rises or only falls across them.
    fn source_step(&self, rows: &[usize], before_ms: &[f64]) -> (f64, f64) {
        const ITERATIONS: usize = 60;
        const TOLERANCE_MS: f64 = 1e-6;
        // The loss's first and second derivatives in the per-step cost (up to a factor 2).
        let slopes = |step: f64| {
            rows.iter().fold((0.0, 0.0), |(d1, d2), &i| {
                let passes = f64::from(self.samples[i].passes);
                let t = before_ms[i] + passes * step;
                let e = libm::log(t) - self.measured_ln_ms[i];
                let w = self.weights[i];
                (d1 + w * passes * e / t, d2 + w * passes * passes * (1.0 - e) / (t * t))
            })
        };
        let (mut lo, mut hi) = STEP_MS_BOUNDS;
        let best = if slopes(lo).0 >= 0.0 {
            lo
        } else if slopes(hi).0 <= 0.0 {
            hi
        } else {
            let mut step = f64::midpoint(lo, hi);
            for _ in 0..ITERATIONS {
                let (d1, d2) = slopes(step);
                if d1 > 0.0 {
                    hi = step;
                } else {
                    lo = step;
                }
                let newton = step - d1 / d2;
                let next = if d2 > 0.0 && newton > lo && newton < hi {
                    newton
                } else {
                    f64::midpoint(lo, hi)
                };
                let done = libm::fabs(next - step) < TOLERANCE_MS || hi - lo < TOLERANCE_MS;
                step = next;
                if done {
                    break;
                }
            }
            step
        };
        (best, self.source_loss(rows, before_ms, best))
    }

    /// Each sample's time before the per-step cost under the shared constants `p`, ms.
    fn before_ms(&self, runtime: Runtime, hardware: HardwareType, p: [f64; 7]) -> Vec<f64> {
        let c = with(runtime, hardware, p);
        self.samples.iter().map(|s| s.ms_before_step_cost(&c)).collect()
    }

    /// The loss under the shared constants `p`, each source at its own best per-step cost.
    fn loss(&self, runtime: Runtime, hardware: HardwareType, p: [f64; 7]) -> f64 {
        let before = self.before_ms(runtime, hardware, p);
        self.sources
            .iter()
            .map(|(_, rows)| self.source_step(rows, &before).1)
            .sum()
    }

    /// Each source's (or, fitted as one, all sources') best per-step cost under the shared
    /// constants `p`: the name, its rows and the cost in ms.
    fn source_steps(&self, runtime: Runtime, hardware: HardwareType, p: [f64; 7]) -> Vec<(&'a str, usize, f64)> {
        let before = self.before_ms(runtime, hardware, p);
        self.sources
            .iter()
            .map(|(name, rows)| (*name, rows.len(), self.source_step(rows, &before).0))
            .collect()
    }

    /// The per-step cost a prediction carries: that of the runner's records (a model call and
    /// nothing around it; the mean over its machines, weighted as the fit weighs them), else the
    /// median of the sources' own, each weighted as the fit weighs it (√rows): a two-row source
    /// does not move it as far as a hundred-row table does.
    fn model_call_step(&self, runtime: Runtime, hardware: HardwareType, p: [f64; 7]) -> f64 {
        let steps = self.source_steps(runtime, hardware, p);
        let runner = || steps.iter().filter(|s| s.0.starts_with(RUNNER_SOURCE));
        let weight: f64 = runner().map(|s| libm::sqrt(s.1 as f64)).sum();
        if weight > 0.0 {
            return runner().map(|s| s.2 * libm::sqrt(s.1 as f64)).sum::<f64>() / weight;
        }
        let mut all: Vec<(f64, f64)> = steps.iter().map(|s| (s.2, libm::sqrt(s.1 as f64))).collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        weighted_median(&all)
    }
}

/// The weighted median of `(value, weight)` pairs sorted by value: the value where the weight below
/// and above are equal, the midpoint of two values where the halves meet between them.
fn weighted_median(sorted: &[(f64, f64)]) -> f64 {
    let total: f64 = sorted.iter().map(|v| v.1).sum();
    let mut below = 0.0;
    for (i, &(value, weight)) in sorted.iter().enumerate() {
        below += weight;
        if (below - total / 2.0).abs() < 1e-9 * total {
            return sorted.get(i + 1).map_or(value, |next| f64::midpoint(value, next.0));
        }
        if below > total / 2.0 {
            return value;
        }
    }
    0.0
}

/// Whether a runtime on `hardware` fits a per-step cost per source: on a GPU the harness's own
/// per-step work is host time outside the step model; on a CPU, where host and device are the same
/// cores, one per-step cost for all sources predicts held-out sources better (docs/model.md).
fn per_source_steps(hardware: HardwareType) -> bool {
    Processor::of(hardware) == Processor::Accelerator
}

/// The fitted per-step cost of each source's harness under `c` (runtimes on accelerators).
fn harness_costs(c: &RuntimeCoefficients, group: &[&RuntimeSample]) -> Vec<HarnessCost> {
    if !per_source_steps(c.hardware) {
        return Vec::new();
    }
    let p = [
        libm::log(c.compute),
        libm::log(c.memory),
        libm::log(c.operator_us),
        0.0,
        libm::log(c.compute_fp32),
        libm::log(c.train_step_host_factor),
        libm::log(c.train_step_device_factor),
    ];
    FitRows::new(group, true)
        .source_steps(c.runtime, c.hardware, p)
        .into_iter()
        .map(|(source, rows, step_ms)| HarnessCost {
            source: String::from(source),
            rows,
            step_ms: round4(step_ms),
        })
        .collect()
}

/// Each sample's weight: 1 / √(the rows of its source). A source's rows share one harness, host
/// and software stack, so they are not independent (weighing each row alike would let one large
/// table decide the fit), yet more rows from a source do pin its runtime's costs down better than
/// a single row (weighing each source alike would let a one-row source count as much as a runner's
/// hundred cases): a source of `n` rows weighs `√n` in all.
fn source_weights(samples: &[&RuntimeSample]) -> Vec<f64> {
    samples
        .iter()
        .map(|s| 1.0 / libm::sqrt(samples.iter().filter(|o| o.source == s.source).count() as f64))
        .collect()
}

fn with(runtime: Runtime, hardware: HardwareType, p: [f64; 7]) -> RuntimeCoefficients {
    RuntimeCoefficients {
        runtime,
        hardware,
        compute: libm::exp(p[0]),
        compute_fp32: libm::exp(p[4]),
        memory: libm::exp(p[1]),
        operator_us: libm::exp(p[2]),
        step_ms: p[3],
        train_step_host_factor: libm::exp(p[5]),
        train_step_device_factor: libm::exp(p[6]),
        workloads: Vec::new(),
        fitted_on: String::new(),
    }
}

/// Fits one runtime's coefficients to its samples. On accelerators each source's per-step cost is its own — its
/// harness: a timed model call, a pipeline with tokenisation, a `generate()` loop, a training
/// script's data loading — profiled out at every trial of the shared constants (the compute shares,
/// the memory share, the host cost per operator and, where training rows come from two sources or
/// more, the training host factor), which are fitted across all sources: a grid over compute (both
/// shares equal), memory and operator cost picks the start, Nelder–Mead refines it. The per-step
/// cost kept is the model call's ([`FitRows::model_call_step`]).
///
/// With `host` (another accelerator's fit of the same runtime) the host costs are that fit's — the
/// cost per operator, the training factors and the model call's per-step cost — and only the
/// device shares are fitted (each source's harness cost is still profiled out).
fn fit_one(
    runtime: Runtime,
    hardware: HardwareType,
    samples: &[&RuntimeSample],
    host: Option<&RuntimeCoefficients>,
) -> RuntimeCoefficients {
    const GRID: usize = 10;
    let logs = |b: (f64, f64)| (libm::log(b.0), libm::log(b.1));
    let pinned = |value: f64| (libm::log(value), libm::log(value));
    let (compute_range, memory_range) = (logs(COMPUTE_BOUNDS), logs(MEMORY_BOUNDS));
    let operator_range = host.map_or(logs(OPERATOR_US_BOUNDS), |h| pinned(h.operator_us));
    let operator_grid = if host.is_some() { 1 } else { GRID };
    let rows = FitRows::new(samples, per_source_steps(hardware));
    // The shared constants: compute, memory, operator cost, FP32 compute, the training host and
    // device factors.
    let seven = |p: [f64; 6]| [p[0], p[1], p[2], 0.0, p[3], p[4], p[5]];
    let objective = |p: [f64; 6]| rows.loss(runtime, hardware, seven(p));
    let mut best = ([0.0; 6], f64::INFINITY);
    let training_factors = host.map_or((0.0, 0.0), |h| {
        (
            libm::log(h.train_step_host_factor),
            libm::log(h.train_step_device_factor),
        )
    });
    for i in 0..GRID {
        for j in 0..GRID {
            for k in 0..operator_grid {
                let compute = libm::log(log_space(COMPUTE_BOUNDS, i, GRID));
                let operator = match host {
                    Some(_) => operator_range.0,
                    None => libm::log(log_space(OPERATOR_US_BOUNDS, k, GRID)),
                };
                let p = [
                    compute,
                    libm::log(log_space(MEMORY_BOUNDS, j, GRID)),
                    operator,
                    compute,
                    training_factors.0,
                    training_factors.1,
                ];
                let l = objective(p);
                if l < best.1 {
                    best = (p, l);
                }
            }
        }
    }
    let training: Vec<&RuntimeSample> = samples.iter().copied().filter(|s| s.training).collect();
    // The training factors stay 1 (their lower bound) unless two sources' training rows pin them.
    let (host_range, device_range) = match host {
        Some(h) => (pinned(h.train_step_host_factor), pinned(h.train_step_device_factor)),
        None if distinct(&training, |s| s.source.as_str()) >= 2 => {
            (logs(TRAIN_HOST_FACTOR_BOUNDS), logs(TRAIN_DEVICE_FACTOR_BOUNDS))
        }
        None => ((0.0, 0.0), (0.0, 0.0)),
    };
    let lo = [
        compute_range.0,
        memory_range.0,
        operator_range.0,
        compute_range.0,
        host_range.0,
        device_range.0,
    ];
    let hi = [
        compute_range.1,
        memory_range.1,
        operator_range.1,
        compute_range.1,
        host_range.1,
        device_range.1,
    ];
    let mut point = best.0;
    for _ in 0..2 {
        point = nelder_mead(point, [0.3; 6], lo, hi, objective);
    }
    let mut point = seven(point);
    point[3] = host.map_or_else(|| rows.model_call_step(runtime, hardware, point), |h| h.step_ms);
    let fitted = with(runtime, hardware, point);
    RuntimeCoefficients {
        compute: round4(fitted.compute),
        compute_fp32: round4(fitted.compute_fp32),
        memory: round4(fitted.memory),
        operator_us: round4(fitted.operator_us),
        step_ms: round4(fitted.step_ms),
        train_step_host_factor: round4(fitted.train_step_host_factor),
        train_step_device_factor: round4(fitted.train_step_device_factor),
        workloads: Workload::ALL
            .iter()
            .copied()
            .filter(|w| samples.iter().any(|s| s.workload == *w))
            .collect(),
        fitted_on: format!(
            "{} measurements, {} devices, {} sources (data/measured/: {}){}",
            samples.len(),
            distinct(samples, |s| s.device_id.as_str()),
            distinct(samples, |s| s.source.as_str()),
            files(samples),
            host.map_or_else(String::new, |h| format!(
                "; host costs of {} on {}",
                h.runtime.as_str(),
                h.hardware.as_str()
            ))
        ),
        ..fitted
    }
}

/// The measurement files the samples come from: a source read from another file than
/// `runtime_steps.csv` names it at its end (`… (data/measured/mlperf_inference_v4_1_offline.csv)`,
/// `hwfit bench, … (data/measured/hwfit_bench_*.json)`).
fn files(samples: &[&RuntimeSample]) -> String {
    let names: BTreeSet<&str> = samples
        .iter()
        .map(|s| {
            s.source
                .rsplit_once("(data/measured/")
                .and_then(|(_, file)| file.strip_suffix(')'))
                .unwrap_or(FILE)
        })
        .collect();
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// How many distinct `key`s the samples have (devices, sources).
fn distinct(samples: &[&RuntimeSample], key: fn(&RuntimeSample) -> &str) -> usize {
    samples.iter().map(|s| key(s)).collect::<BTreeSet<_>>().len()
}

/// The runtime/hardware groups of `samples`, in a fixed order.
fn groups(samples: &[RuntimeSample]) -> Vec<((Runtime, HardwareType), Vec<&RuntimeSample>)> {
    let mut keys: Vec<(Runtime, HardwareType)> = samples.iter().map(|s| (s.runtime, s.hardware)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .map(|k| (k, samples.iter().filter(|s| (s.runtime, s.hardware) == k).collect()))
        .collect()
}

fn enough(group: &[&RuntimeSample]) -> bool {
    group.len() >= MIN_SAMPLES
        && distinct(group, |s| s.device_id.as_str()) >= 2
        && distinct(group, |s| s.source.as_str()) >= 2
}

/// Coefficients for every runtime/hardware type with enough measurements.
#[must_use]
pub fn fit_runtimes(samples: &[RuntimeSample]) -> Vec<RuntimeCoefficients> {
    let groups: Vec<_> = groups(samples).into_iter().filter(|(_, g)| enough(g)).collect();
    super::parallel::map(&groups, |((runtime, hardware), g)| {
        fit_one(*runtime, *hardware, g, None)
    })
}

/// |ln error| of each sample in `group` predicted by a fit without the samples sharing its `key`
/// (none where the group has no fit of its own).
fn held_out(
    own: Option<&RuntimeCoefficients>,
    group: &[&RuntimeSample],
    key: fn(&RuntimeSample) -> &str,
    host: Option<&RuntimeCoefficients>,
) -> Vec<f64> {
    let Some(&RuntimeCoefficients { runtime, hardware, .. }) = own else {
        return Vec::new();
    };
    let keys: Vec<&str> = group
        .iter()
        .map(|s| key(s))
        .collect::<BTreeSet<&str>>()
        .into_iter()
        .collect();
    // Each fold is a fit of its own: they run side by side where there are threads.
    let folds = super::parallel::map(&keys, |&k| {
        let rest: Vec<&RuntimeSample> = group.iter().copied().filter(|s| key(s) != k).collect();
        if rest.is_empty() {
            return Vec::new();
        }
        let c = fit_one(runtime, hardware, &rest, host);
        group
            .iter()
            .filter(|s| key(s) == k)
            .map(|s| libm::fabs(s.log_error(&c)))
            .collect()
    });
    folds.concat()
}

/// Whether a fit's held-out error (its median |ln error|) is below the class model's on the same rows.
fn beats(held_out: &Accuracy, class: &Accuracy) -> bool {
    held_out.samples > 0 && held_out.median_abs_log_error < class.median_abs_log_error
}

/// One runtime/hardware group's candidate fit and its held-out accuracy.
struct Candidate {
    coefficients: Option<RuntimeCoefficients>,
    leave_one_source_out: Accuracy,
    leave_one_device_out: Accuracy,
    host_costs_from: Option<String>,
}

impl Candidate {
    fn validated(
        coefficients: Option<RuntimeCoefficients>,
        group: &[&RuntimeSample],
        host: Option<&RuntimeCoefficients>,
    ) -> Self {
        let c = coefficients.as_ref();
        Self {
            leave_one_source_out: summarize(&held_out(c, group, |s| s.source.as_str(), host)),
            leave_one_device_out: summarize(&held_out(c, group, |s| s.device_id.as_str(), host)),
            host_costs_from: host.map(|h| format!("{} on {}", h.runtime.as_str(), h.hardware.as_str())),
            coefficients,
        }
    }

    /// Whether it predicts held-out rows better than the class model.
    fn beats_class(&self, class: &Accuracy) -> bool {
        beats(&self.leave_one_source_out, class) || beats(&self.leave_one_device_out, class)
    }
}

/// The host costs a group of `rows` rows on `hardware` may borrow: the kept fit of the same
/// runtime on another accelerator hardware type with more rows (the most). Eager PyTorch's Python
/// and dispatcher cost per operator is the same code on CUDA and ROCm, while a few public rows
/// cannot separate it from their harnesses' per-step costs.
fn host_donor(
    runtime: Runtime,
    hardware: HardwareType,
    rows: usize,
    kept: &[(RuntimeCoefficients, usize)],
) -> Option<&RuntimeCoefficients> {
    if Processor::of(hardware) != Processor::Accelerator {
        return None;
    }
    kept.iter()
        .filter(|(c, n)| {
            c.runtime == runtime
                && c.hardware != hardware
                && Processor::of(c.hardware) == Processor::Accelerator
                && *n > rows
        })
        .max_by_key(|(_, n)| *n)
        .map(|(c, _)| c)
}

/// Fits every runtime and reports how well each predicts. A runtime keeps its own coefficients only
/// where they predict rows they were not fitted on better than the workload-class coefficients do
/// (leaving a source or a device out): one that does not — its machines' costs do not carry from
/// one to the next — is answered by the class model, and the report says so (`fitted: false`, the
/// held-out figures of the fit that lost). A group on an accelerator may instead take its host
/// costs from the same runtime's better-measured fit on another accelerator (the one with the
/// most rows) and fit only its device shares: kept where that predicts its held-out sources
/// better than host costs fitted to its own rows.
#[must_use]
pub fn fit_and_validate(samples: &[RuntimeSample], class: &Coefficients) -> (Vec<RuntimeCoefficients>, RuntimeFit) {
    let candidates = fit_runtimes(samples);
    let groups = groups(samples);
    // First each group on its own.
    let mut chosen: Vec<Candidate> = groups
        .iter()
        .map(|((runtime, hardware), group)| {
            let own = candidates
                .iter()
                .find(|c| c.runtime == *runtime && c.hardware == *hardware)
                .cloned();
            Candidate::validated(own, group, None)
        })
        .collect();
    let class_models: Vec<Accuracy> = groups
        .iter()
        .map(|(_, group)| summarize(&group.iter().map(|s| s.class_error(class)).collect::<Vec<_>>()))
        .collect();
    let kept: Vec<(RuntimeCoefficients, usize)> = chosen
        .iter()
        .zip(&class_models)
        .zip(&groups)
        .filter(|((c, class), _)| c.beats_class(class))
        .filter_map(|((c, _), (_, group))| c.coefficients.clone().map(|k| (k, group.len())))
        .collect();
    // Then the groups another accelerator's host costs might serve better.
    for (((key, group), choice), class_model) in groups.iter().zip(chosen.iter_mut()).zip(&class_models) {
        let Some(donor) = host_donor(key.0, key.1, group.len(), &kept) else {
            continue;
        };
        if !enough(group) {
            continue;
        }
        let borrowed = Candidate::validated(Some(fit_one(key.0, key.1, group, Some(donor))), group, Some(donor));
        let better_than_own = !choice.beats_class(class_model)
            || borrowed.leave_one_source_out.median_abs_log_error < choice.leave_one_source_out.median_abs_log_error;
        if borrowed.beats_class(class_model) && better_than_own {
            *choice = borrowed;
        }
    }
    let mut coefficients = Vec::new();
    let mut runtimes = Vec::new();
    let mut residuals = Vec::new();
    for ((((runtime, hardware), group), choice), class_model) in groups.into_iter().zip(chosen).zip(class_models) {
        let candidate = choice.coefficients.as_ref();
        let own = candidate.filter(|_| choice.beats_class(&class_model));
        coefficients.extend(own.cloned());
        let in_sample: Vec<f64> =
            candidate.map_or_else(Vec::new, |c| group.iter().map(|s| libm::fabs(s.log_error(c))).collect());
        if let Some(c) = own {
            residuals.extend(group.iter().map(|s| {
                let predicted = s.predict(c);
                Residual {
                    label: s.label.clone(),
                    device: s.device_id.clone(),
                    measured: s.measured,
                    predicted,
                    log_error: libm::log(predicted / s.measured),
                }
            }));
        }
        runtimes.push(RuntimeAccuracy {
            runtime,
            hardware,
            rows: group.len(),
            devices: distinct(&group, |s| s.device_id.as_str()),
            sources: distinct(&group, |s| s.source.as_str()),
            fitted: own.is_some(),
            in_sample: summarize(&in_sample),
            class_model,
            leave_one_source_out: choice.leave_one_source_out,
            leave_one_device_out: choice.leave_one_device_out,
            harness_costs: own.map_or_else(Vec::new, |c| harness_costs(c, &group)),
            host_costs_from: choice.host_costs_from.filter(|_| own.is_some()),
        });
    }
    (coefficients, RuntimeFit { runtimes, residuals })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "source,source_ref,quote,runtime,runtime_version,model,precision,workload,batch_size,seq_length,hardware,metric,value,units,notes\n";

    fn parse(rows: &str) -> (Vec<RuntimeSample>, Vec<Excluded>) {
        samples(
            &format!("{HEADER}{rows}"),
            &Catalog::builtin(),
            &DeviceCatalog::builtin(),
        )
        .unwrap()
    }

    #[test]
    fn latency_rows_become_throughput_and_rows_without_facts_are_left_out_with_why() {
        let (s, x) = parse(concat!(
            "a,u,\"8 ms\",pytorch,,bert-base-uncased,fp32,forward,1,128,A100 SXM4 80GB,latency_ms,8,ms,\n",
            "a,u,q,pytorch,,bert-base-uncased,tf32,forward,1,128,A100 SXM4 80GB,latency_ms,8,ms,\n",
            "a,u,q,pytorch,,no-such-model-xyz,fp32,forward,1,128,A100 SXM4 80GB,latency_ms,8,ms,\n",
            "a,u,q,pytorch,,bert-base-uncased,fp32,forward,,128,A100 SXM4 80GB,latency_ms,8,ms,\n",
        ));
        assert_eq!(s.len(), 1);
        assert!((s[0].measured - 125.0).abs() < 1e-9, "1 item / 8 ms");
        assert_eq!(s[0].hardware, HardwareType::Cuda);
        let reasons: Vec<&str> = x.iter().map(|e| e.reason.as_str()).collect();
        assert!(reasons[0].contains("TF32"), "{reasons:?}");
        assert!(reasons[1].contains("not in the catalog"), "{reasons:?}");
        assert!(reasons[2].contains("batch size"), "{reasons:?}");
    }

    #[test]
    fn host_costs_are_borrowed_only_from_a_better_measured_accelerator_of_the_same_runtime() {
        let fit = |runtime, hardware| RuntimeCoefficients {
            runtime,
            hardware,
            compute: 0.5,
            compute_fp32: 0.5,
            memory: 0.8,
            operator_us: 10.0,
            step_ms: 2.0,
            train_step_host_factor: 1.0,
            train_step_device_factor: 1.0,
            workloads: Vec::new(),
            fitted_on: String::new(),
        };
        let kept = vec![
            (fit(Runtime::Pytorch, HardwareType::Cuda), 800),
            (fit(Runtime::Pytorch, HardwareType::Cpu), 900),
            (fit(Runtime::OnnxRuntime, HardwareType::Cuda), 1000),
        ];
        let donor =
            |runtime, hardware, rows| host_donor(runtime, hardware, rows, &kept).map(|c| (c.runtime, c.hardware));
        // ROCm's few rows may borrow CUDA's PyTorch host costs — not the CPU's, not another runtime's.
        assert_eq!(
            donor(Runtime::Pytorch, HardwareType::Rocm, 7),
            Some((Runtime::Pytorch, HardwareType::Cuda))
        );
        // Never from a group measured less, never for a CPU, never from itself.
        assert_eq!(donor(Runtime::Pytorch, HardwareType::Rocm, 900), None);
        assert_eq!(donor(Runtime::Pytorch, HardwareType::Cpu, 7), None);
        assert_eq!(donor(Runtime::Pytorch, HardwareType::Cuda, 7), None);
        assert_eq!(donor(Runtime::Mlx, HardwareType::Mps, 7), None);
    }

    #[test]
    fn the_median_of_weighted_sources_follows_the_weight() {
        // Equal weights: the plain median (the midpoint of the middle two).
        assert!((weighted_median(&[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0), (4.0, 1.0)]) - 2.5).abs() < 1e-12);
        assert!((weighted_median(&[(1.0, 1.0), (2.0, 1.0), (3.0, 1.0)]) - 2.0).abs() < 1e-12);
        // One heavy source holds it.
        assert!((weighted_median(&[(4.0, 10.8), (5.6, 2.8), (14.3, 6.3), (47.4, 1.4)]) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn a_row_without_its_quote_is_an_error_of_the_data() {
        let text =
            format!("{HEADER}a,u,,pytorch,,bert-base-uncased,fp32,forward,1,128,A100 SXM4 80GB,latency_ms,8,ms,\n");
        let err = samples(&text, &Catalog::builtin(), &DeviceCatalog::builtin()).unwrap_err();
        assert!(format!("{err}").contains("quote"), "{err}");
    }

    #[test]
    fn the_fit_recovers_the_costs_that_made_the_samples() {
        // Synthetic samples from known coefficients: the fit finds a model as good as the truth.
        let truth = RuntimeCoefficients {
            runtime: Runtime::Pytorch,
            hardware: HardwareType::Cuda,
            compute: 0.4,
            compute_fp32: 0.6,
            memory: 0.7,
            operator_us: 20.0,
            step_ms: 0.5,
            train_step_host_factor: 2.5,
            train_step_device_factor: 1.5,
            workloads: Vec::new(),
            fitted_on: String::new(),
        };
        let mut samples = Vec::new();
        for (i, (compute_s, streamed_s, operators)) in [
            (1e-5, 1e-4, 200),
            (1e-2, 1e-3, 200),
            (1e-4, 5e-3, 900),
            (5e-2, 1e-2, 900),
            (5e-2, 1e-5, 60),
            (2e-3, 1e-2, 400),
            (1e-1, 2e-2, 3000),
            (3e-4, 3e-4, 3000),
            (2e-2, 5e-3, 100),
            (3e-2, 1e-2, 200),
        ]
        .into_iter()
        .enumerate()
        {
            let mut s = RuntimeSample {
                runtime: Runtime::Pytorch,
                hardware: HardwareType::Cuda,
                source: format!("s{}", i % 3),
                device_id: format!("d{}", i % 2),
                label: String::new(),
                class: WorkloadClass::Forward,
                workload: if i >= 6 { Workload::TrainStep } else { Workload::Forward },
                fp32: i % 2 == 0,
                training: i >= 6,
                compute_s,
                tensor_s: 0.0,
                weight_s: streamed_s / 2.0,
                streamed_s,
                operators,
                items: 1.0,
                passes: 1,
                measured: 1.0,
            };
            s.measured = s.predict(&truth);
            samples.push(s);
        }
        let (fitted, report) = fit_and_validate(
            &samples,
            &crate::perf::PerfModel::builtin().unwrap().coefficients().clone(),
        );
        assert_eq!(fitted.len(), 1);
        assert!(report.runtimes[0].in_sample.median_abs_log_error < 0.02, "{report:?}");
        assert!((fitted[0].operator_us - 20.0).abs() < 2.0, "{:?}", fitted[0]);
        assert!((fitted[0].train_step_host_factor - 2.5).abs() < 0.25, "{:?}", fitted[0]);
        assert!(
            (fitted[0].train_step_device_factor - 1.5).abs() < 0.15,
            "{:?}",
            fitted[0]
        );
        // Training rows from one source alone leave the factors at the count's assumption.
        for s in samples.iter_mut().filter(|s| s.training) {
            s.source = String::from("s0");
        }
        let (fitted, _) = fit_and_validate(
            &samples,
            &crate::perf::PerfModel::builtin().unwrap().coefficients().clone(),
        );
        assert!(
            (fitted[0].train_step_host_factor - 1.0).abs() < 1e-12
                && (fitted[0].train_step_device_factor - 1.0).abs() < 1e-12,
            "{:?}",
            fitted[0]
        );
    }
}
