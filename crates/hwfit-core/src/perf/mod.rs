//! The analytic performance model: a roofline per step — time = max(FLOPs at the precision's peak,
//! bytes at the memory bandwidth), each divided by an efficiency factor, plus a fixed per-step
//! overhead — with the efficiencies and overheads **fitted** per hardware type to public measurements
//! (see [`fit`]) and stored in `data/perf_fit.json`.

pub mod browser;
pub mod cost;
pub mod eager_traffic;
pub mod fit;
pub mod fitting;
pub mod host;
pub mod learned;
pub mod operators;
pub mod runtime;
pub mod tf32;
pub mod wasm_kernels;

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use browser::{BrowserCoefficients, EngineCosts, FixedCosts};
pub use cost::{runtime_step_cost, step_cost, StepCost};
pub use host::{HostCosts, Processor, RuntimeCoefficients};
pub use learned::{LearnedDomain, ResidualModel};
pub use runtime::Runtime;

use crate::compat::check_precision;
use crate::device::ComputeRate;
use crate::device::DeviceProfile;
use crate::resources::{memory_breakdown, validate_request, ResourceInput};
use crate::spec::ModelSpec;
use crate::{CoreError, Device, HardwareType, Precision, Workload};

const FIT_JSON: &str = include_str!("../../data/perf_fit.json");

/// The largest prompt chunk a request may name (tokens per forward pass).
pub const MAX_PROMPT_CHUNK: u32 = 1 << 20;

/// Fitted factors for one hardware type.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Efficiency {
    /// Achieved share of the peak FLOP rate.
    pub compute: f64,
    /// Achieved share of the peak memory bandwidth.
    pub memory: f64,
    /// Fixed time per step (kernel launches, synchronisation, framework), ms.
    pub overhead_ms: f64,
}

/// Which measurements a workload's coefficients are fitted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WorkloadClass {
    /// Prefill and decode of generative models (llama.cpp measurements).
    Generate,
    /// Batched forward passes (MLPerf measurements); training steps use these too, as there are no
    /// training measurements.
    Forward,
}

impl WorkloadClass {
    /// The class's name as written (`generate`, `forward`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Generate => "generate",
            Self::Forward => "forward",
        }
    }

    /// The class of a workload.
    #[must_use]
    pub const fn of(workload: Workload) -> Self {
        match workload {
            Workload::Prefill | Workload::Decode => Self::Generate,
            Workload::Forward | Workload::TrainStep => Self::Forward,
        }
    }
}

/// Coefficients of one workload class: per hardware type, and pooled over the class's measurements.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ClassCoefficients {
    /// Fitted per hardware type (types with enough measurements).
    pub by_hardware: SortedMap<HardwareType, Efficiency>,
    /// Fitted on all of the class's measurements together.
    pub pooled: Option<Efficiency>,
}

/// The coefficients of the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Coefficients {
    /// Prefill and decode.
    pub generate: ClassCoefficients,
    /// Forward passes and training steps.
    pub forward: ClassCoefficients,
    /// Where the measurements came from and how many there were.
    pub fitted_on: String,
    /// The browser step model (WebGPU, WebAssembly, WebNN), fitted to browser measurements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<BrowserCoefficients>,
    /// Per runtime and hardware type: host costs and achieved shares, fitted to measurements of
    /// that runtime on that hardware.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtimes: Vec<RuntimeCoefficients>,
    /// The memory bandwidth one busy CPU core reads at most, GB/s: what a run on fewer threads
    /// than cores reads at ([`Device::on_threads`]), fitted to such runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_core_bandwidth_gbs: Option<f64>,
}

/// How specific the coefficients behind a prediction are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CoefficientSource {
    /// Fitted on measurements of this hardware type and workload class.
    HardwareType,
    /// Pooled over all hardware types of the workload class.
    PooledClass,
    /// Pooled over the other workload class (the class has no measurements at all).
    PooledOtherClass,
    /// Fitted on measurements of the runtime on this hardware type.
    Runtime,
}

impl Coefficients {
    /// The fitted costs of a runtime on a hardware type, where measurements of it exist.
    #[must_use]
    pub fn runtime(&self, runtime: Runtime, hardware: HardwareType) -> Option<&RuntimeCoefficients> {
        self.runtimes
            .iter()
            .find(|r| r.runtime == runtime && r.hardware == hardware)
    }

    fn class(&self, class: WorkloadClass) -> &ClassCoefficients {
        match class {
            WorkloadClass::Generate => &self.generate,
            WorkloadClass::Forward => &self.forward,
        }
    }

    /// The efficiency for a hardware type and workload class, and how specific it is.
    #[must_use]
    pub fn efficiency(&self, hw: HardwareType, class: WorkloadClass) -> Option<(Efficiency, CoefficientSource)> {
        let own = self.class(class);
        let other = self.class(match class {
            WorkloadClass::Generate => WorkloadClass::Forward,
            WorkloadClass::Forward => WorkloadClass::Generate,
        });
        own.by_hardware
            .get(&hw)
            .map(|e| (*e, CoefficientSource::HardwareType))
            .or(own.pooled.map(|e| (e, CoefficientSource::PooledClass)))
            .or(other.pooled.map(|e| (e, CoefficientSource::PooledOtherClass)))
    }
}

/// One step's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PerfRequest {
    /// Weight precision.
    pub precision: Precision,
    /// Workload.
    pub workload: Workload,
    /// Items per step.
    pub batch_size: u32,
    /// Tokens per sequence (KV context for decode).
    pub seq_length: u32,
    /// The runtime to predict for (default: [`Runtime::default_for`] the hardware type and workload).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<Runtime>,
    /// Prompt tokens per forward pass of a prefill (llama.cpp's `--ubatch-size`, mlx-lm's
    /// `prefill_step_size`; default: the runtime's, [`Runtime::prompt_chunk_tokens`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_chunk: Option<u32>,
    /// For a training step: fp32 master weights, gradients and AdamW state with the products at
    /// `precision` (mixed precision), or everything at `precision` (default:
    /// [`Precision::mixed_precision`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_precision: Option<bool>,
}

impl PerfRequest {
    /// The prompt tokens per forward pass of this step on `runtime`: the request's, else the
    /// runtime's ([`Runtime::prompt_chunk_tokens`]); `None` for other workloads than prefill, or a
    /// runtime that takes the whole prompt at once.
    #[must_use]
    pub fn prompt_chunk_on(&self, runtime: Runtime) -> Option<u32> {
        if self.workload == Workload::Prefill {
            self.prompt_chunk.or(runtime.prompt_chunk_tokens())
        } else {
            None
        }
    }

    /// Whether the step trains in mixed precision: a training step's request, else the default
    /// ([`Precision::mixed_precision`]); never for inference.
    #[must_use]
    pub const fn trains_mixed(&self) -> bool {
        matches!(self.workload, Workload::TrainStep) && self.precision.mixed_precision(self.mixed_precision)
    }

    /// A step on the default runtime for the target.
    #[must_use]
    pub const fn new(precision: Precision, workload: Workload, batch_size: u32, seq_length: u32) -> Self {
        Self {
            precision,
            workload,
            batch_size,
            seq_length,
            runtime: None,
            prompt_chunk: None,
            mixed_precision: None,
        }
    }
}

/// The unit of a throughput.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ThroughputUnit {
    /// Forward passes: sequences, images or clips per second.
    #[serde(rename = "items/s")]
    Items,
    /// Prefill and decode: tokens per second.
    #[serde(rename = "tokens/s")]
    Tokens,
    /// Training: samples per second.
    #[serde(rename = "samples/s")]
    Samples,
}

impl core::fmt::Display for ThroughputUnit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Items => "items/s",
            Self::Tokens => "tokens/s",
            Self::Samples => "samples/s",
        })
    }
}

/// Which roof limits a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// FLOPs at the achieved compute rate.
    Compute,
    /// Bytes at the achieved bandwidth.
    Memory,
    /// The host issuing the runtime's operators (the device waits for it).
    Host,
}

impl core::fmt::Display for Bound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Compute => "compute",
            Self::Memory => "memory",
            Self::Host => "host",
        })
    }
}

/// Where a prediction comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PredictionSource {
    /// The analytic model with coefficients fitted for this hardware type.
    AnalyticModel,
    /// The analytic model with pooled coefficients.
    AnalyticModelPooled,
    /// The roofline of rates measured on the device itself (fitted overhead only).
    MeasuredProfile,
    /// WebNN: the browser step model on the context's device, with no WebNN measurements behind it.
    Estimate,
    /// The analytic model corrected by the learned model (inside its training domain).
    Learned,
}

impl core::fmt::Display for PredictionSource {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::AnalyticModel => "analytic_model",
            Self::AnalyticModelPooled => "analytic_model_pooled",
            Self::MeasuredProfile => "measured_profile",
            Self::Estimate => "estimate",
            Self::Learned => "learned",
        })
    }
}

/// How a runtime fed a prompt to the model: `passes` forward passes of at most `chunk` tokens, each
/// reading the weights its tokens reach and paying the per-pass overhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PromptPasses {
    /// Prompt tokens per forward pass (llama.cpp's `n_ubatch`, mlx-lm's `prefill_step_size`).
    pub chunk: u32,
    /// Forward passes over the prompt.
    pub passes: u32,
}

/// A prediction (IPFS Accelerate's `throughput`, `latency`, `memory_usage`, plus what it rests on).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Prediction {
    /// Items (or tokens) per second.
    pub throughput: f64,
    /// `items/s`, `tokens/s` or `samples/s`.
    pub throughput_unit: ThroughputUnit,
    /// Time per step, ms.
    pub latency: f64,
    /// Memory the step needs, MB (the resource estimate's minimum).
    pub memory_usage: f64,
    /// The device's memory, MB.
    pub memory_capacity: f64,
    /// Whether `memory_usage` fits in `memory_capacity`.
    pub fits_in_memory: bool,
    /// `compute` or `memory`: which roof limits the step.
    pub bound: Bound,
    /// The peak used for compute.
    pub compute_rate: ComputeRate,
    /// FLOPs per step.
    pub flops_per_step: f64,
    /// Bytes moved per step.
    pub bytes_per_step: f64,
    /// The roofline's upper bound on throughput (efficiency 1, no overhead).
    pub roofline_throughput: f64,
    /// How specific the fitted coefficients are.
    pub coefficient_source: CoefficientSource,
    /// `learned` (the analytic model corrected by the learned model), `analytic_model`
    /// (coefficients fitted for this hardware type), `analytic_model_pooled`, `measured_profile` or
    /// `estimate`.
    pub source: PredictionSource,
    /// The runtime the prediction describes.
    pub runtime: Runtime,
    /// With `source: learned`: the analytic model's throughput before the correction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analytic_throughput: Option<f64>,
    /// Browser back-ends: dispatches, round trips and first-call compilation next to the compute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_costs: Option<FixedCosts>,
    /// Runtimes with fitted host costs: operators issued, per-step cost and the device's part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_costs: Option<HostCosts>,
    /// A prefill on a runtime that feeds the prompt in chunks: the chunk and the passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_passes: Option<PromptPasses>,
}

impl Prediction {
    /// Which term bounds the step, in words:
    /// `host-bound: 171 operators × 17.6 µs = 3.01 ms + 5.61 ms per step (device 0.534 ms)`.
    #[must_use]
    pub fn bound_explanation(&self) -> String {
        let sig = |v: f64| {
            if v == 0.0 || !v.is_finite() {
                return v;
            }
            let scale = libm::pow(10.0, 2.0 - libm::floor(libm::log10(libm::fabs(v))));
            libm::round(v * scale) / scale
        };
        match self.host_costs {
            Some(h) => {
                let host = format!(
                    "{} operators × {} µs = {} ms + {} ms per step",
                    h.operators,
                    sig(h.operator_us),
                    sig(h.operators_ms),
                    sig(h.step_ms)
                );
                if self.bound == Bound::Host {
                    format!("host-bound: {host} (device {} ms)", sig(h.device_ms))
                } else {
                    format!(
                        "{}-bound: {} ms on the device; host {host}",
                        self.bound,
                        sig(h.device_ms)
                    )
                }
            }
            None => format!("{}-bound", self.bound),
        }
    }

    /// How the prompt was fed, in words, where it took more than one pass:
    /// `prompt in 4 passes of 512 tokens: the weights are read once per pass`.
    #[must_use]
    pub fn prompt_passes_explanation(&self) -> Option<String> {
        self.prompt_passes.filter(|p| p.passes > 1).map(|p| {
            format!(
                "prompt in {} passes of {} tokens: the weights are read once per pass",
                p.passes, p.chunk
            )
        })
    }
}

/// The analytic model with its coefficients, and the learned correction where one is installed.
#[derive(Debug, Clone)]
pub struct PerfModel {
    coefficients: Coefficients,
    learned: Option<Arc<dyn ResidualModel>>,
}

impl PartialEq for PerfModel {
    fn eq(&self, other: &Self) -> bool {
        self.coefficients == other.coefficients
            && match (&self.learned, &other.learned) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl PerfModel {
    /// The model with the coefficients fitted to hwfit's measurement set.
    pub fn builtin() -> Result<Self, CoreError> {
        let coefficients: Coefficients =
            serde_json::from_str(FIT_JSON).map_err(|e| CoreError::InvalidConfig(format!("perf_fit.json: {e}")))?;
        Ok(Self::with_coefficients(coefficients))
    }

    /// The model with the given coefficients.
    #[must_use]
    pub fn with_coefficients(coefficients: Coefficients) -> Self {
        Self {
            coefficients,
            learned: None,
        }
    }

    /// The model with a learned correction, used first inside its domain (`None`: analytic only).
    #[must_use]
    pub fn with_learned(mut self, learned: Option<Arc<dyn ResidualModel>>) -> Self {
        self.learned = learned;
        self
    }

    /// The installed learned correction.
    #[must_use]
    pub fn learned(&self) -> Option<&Arc<dyn ResidualModel>> {
        self.learned.as_ref()
    }

    /// The coefficients.
    #[must_use]
    pub fn coefficients(&self) -> &Coefficients {
        &self.coefficients
    }

    /// Predicts one step of `req` for `spec` on `device`. Requests the resource estimate would
    /// refuse (unsupported precision, bad sizes) are refused the same way.
    pub fn predict(&self, spec: &ModelSpec, device: &Device, req: &PerfRequest) -> Result<Prediction, CoreError> {
        self.predict_inner(spec, device, req, Learned::Use).map(|(p, _)| p)
    }

    /// The analytic prediction (no learned correction) and the learned model's features for the
    /// step: what `hwfit train` fits and checks against.
    pub fn analytic_with_features(
        &self,
        spec: &ModelSpec,
        device: &Device,
        req: &PerfRequest,
    ) -> Result<(Prediction, Vec<f32>), CoreError> {
        let (prediction, features) = self.predict_inner(spec, device, req, Learned::FeaturesOnly)?;
        Ok((prediction, features.unwrap_or_default()))
    }

    fn predict_inner(
        &self,
        spec: &ModelSpec,
        device: &Device,
        req: &PerfRequest,
        learned_use: Learned,
    ) -> Result<(Prediction, Option<Vec<f32>>), CoreError> {
        let mode = req.workload.mode();
        validate_request(spec, req.precision, mode, req.batch_size, req.seq_length)?;
        if let Some(chunk) = req.prompt_chunk {
            crate::resources::check_range("prompt_chunk", chunk, MAX_PROMPT_CHUNK)?;
        }
        let memory = memory_breakdown(
            spec,
            &ResourceInput {
                hardware: device.hardware_type,
                precision: req.precision,
                mode,
                batch_size: req.batch_size,
                seq_length: req.seq_length,
                mixed_precision: req.mixed_precision,
            },
        );
        let runtime = req
            .runtime
            .unwrap_or(Runtime::default_for(device.hardware_type, req.workload, req.precision));
        let cost = runtime_step_cost(spec, req, runtime)?;
        // A browser's WebAssembly view runs on the runtime's own threads.
        let device = &*crate::browser::wasm_view_for(device, runtime);
        let (peak_tflops, compute_rate) = device.dense_tflops.for_precision(req.precision);
        if req.workload == Workload::TrainStep && !runtime.trains() {
            return Err(CoreError::RuntimeDoesNotTrain {
                runtime: runtime.as_str(),
                trains: Runtime::training_runtimes(),
            });
        }
        if !runtime.runs(req.precision) {
            return Err(CoreError::UnsupportedPrecision {
                hardware: runtime.as_str(),
                precision: req.precision.as_str(),
                supported: runtime.supported_precisions(),
            });
        }
        // The hardware type's own stack decides, unless the runtime brings its kernels there.
        if !runtime.brings_kernels_for(req.precision, device.hardware_type) {
            check_precision(device.hardware_type, req.precision)?;
        }
        let browser = self
            .coefficients
            .browser
            .as_ref()
            .filter(|_| device.hardware_type.is_browser());
        let runtime_costs = self
            .coefficients
            .runtime(runtime, device.hardware_type)
            .filter(|r| browser.is_none() && r.covers(req.workload));
        let (mut eff, coefficient_source) = match (browser, runtime_costs) {
            (Some(b), _) => (
                b.efficiency_of(device.hardware_type, Some(runtime), req.precision),
                CoefficientSource::HardwareType,
            ),
            (None, Some(r)) => (
                Efficiency {
                    compute: r.compute_share(req.precision),
                    memory: r.memory,
                    overhead_ms: 0.0,
                },
                CoefficientSource::Runtime,
            ),
            (None, None) => self
                .coefficients
                .efficiency(device.hardware_type, WorkloadClass::of(req.workload))
                .ok_or(CoreError::MissingCoefficients)?,
        };
        let measured = device.profile == DeviceProfile::Measured;
        if measured {
            // Measured rates are already achieved rates.
            eff.compute = 1.0;
            eff.memory = 1.0;
        }
        let memory_s = cost.bytes / (device.memory_bandwidth_gbs * 1e9);
        // The fp32 products a runtime runs on TF32 tensor cores (PyTorch's convolutions, all of
        // TensorRT's), at the runtime's tensor-core share.
        let on_tf32 = runtime_costs
            .and_then(|r| tf32::fp32_on_tf32(runtime, device, spec, req.precision, req.seq_length).map(|t| (r, t)));
        let (compute_s, compute_t) = if let Some((r, (share, tf32_peak))) = on_tf32 {
            let (fp32_s, tensor_s) = (
                cost.flops * (1.0 - share) / (peak_tflops * 1e12),
                cost.flops * share / (tf32_peak * 1e12),
            );
            (fp32_s + tensor_s, fp32_s / eff.compute + tensor_s / r.compute)
        } else {
            let compute_s = cost.flops / (peak_tflops * 1e12);
            (compute_s, compute_s / eff.compute)
        };
        let memory_t = memory_s / eff.memory;
        let weight_t = cost.weight_bytes / (device.memory_bandwidth_gbs * 1e9) / eff.memory;
        // Runtimes with host costs run operator by operator: matrix products and the streaming
        // operators between them add up (see `host::device_seconds`).
        let roofline_s = if let Some(r) = runtime_costs {
            host::device_seconds(compute_t, weight_t, memory_t - weight_t)
                * r.device_time_factor(req.workload == Workload::TrainStep)
        } else {
            libm::fmax(compute_t, memory_t)
        };
        let fixed_costs = browser.map(|b| {
            browser::fixed_costs(
                b,
                device.hardware_type,
                spec,
                req.workload,
                req.precision,
                round_sig(roofline_s * 1e3),
                device.browser_engine,
            )
        });
        let host_costs = runtime_costs.map(|r| {
            HostCosts::new(
                r,
                operators::of_request(spec, req, runtime),
                cost.passes,
                round_sig(roofline_s * 1e3),
                req.workload == Workload::TrainStep,
            )
        });
        let analytic_step_s = match (host_costs, fixed_costs) {
            (Some(h), _) => h.total_ms() / 1e3,
            (None, Some(f)) => roofline_s + f.overhead_ms() / 1e3,
            // The fixed overhead is paid per forward pass (a prompt fed in chunks pays it per chunk).
            (None, None) => roofline_s + f64::from(cost.passes) * eff.overhead_ms / 1e3,
        };
        // The learned correction was trained on each cell's documented runtime only (never on
        // llama.cpp's WebAssembly build, whose kernels have fitted shares of their own).
        let llama_cpp_wasm = device.hardware_type == HardwareType::Wasm && runtime == Runtime::LlamaCpp;
        let documented_runtime = runtime == Runtime::default_for(device.hardware_type, req.workload, req.precision);
        let learned_model = self.learned.as_ref().filter(|_| {
            learned_use == Learned::Use && !measured && host_costs.is_none() && documented_runtime && !llama_cpp_wasm
        });
        let features = (learned_model.is_some() || learned_use == Learned::FeaturesOnly).then(|| {
            learned::features(&learned::StepFacts {
                spec,
                device,
                precision: req.precision,
                workload: req.workload,
                batch_size: req.batch_size,
                seq_length: req.seq_length,
                runtime,
                cost: &cost,
                peak_tflops,
                analytic_step_s,
            })
        });
        let correction = learned_model.zip(features.as_ref()).and_then(|(model, features)| {
            if !model.admits(device.hardware_type, WorkloadClass::of(req.workload), features) {
                return None;
            }
            model.log_correction(features).ok().filter(|c| c.is_finite()).map(|c| {
                // Rounded to 1e-4 (0.01 %): the model runs in f64, yet native and wasm kernels may
                // still differ in the last bits, and every face must print the same answer.
                libm::round(c.clamp(-learned::MAX_LOG_CORRECTION, learned::MAX_LOG_CORRECTION) * 1e4) / 1e4
            })
        });
        // No correction lifts a step above its roofline (the peaks at efficiency 1, no overhead).
        let ideal_s = libm::fmax(compute_s, memory_s);
        // Nor does rounding: a step at the peak bandwidth share of 1 whose device time was
        // rounded for its explanation stays at its roofline.
        let step_s = libm::fmax(
            correction.map_or(analytic_step_s, |c| analytic_step_s / libm::exp(c)),
            ideal_s,
        );
        let memory_capacity = device.memory_mb();
        let memory_usage = libm::ceil(memory.total_mb());
        let prediction = Prediction {
            throughput: round_sig(cost.items / step_s),
            throughput_unit: match req.workload {
                Workload::Forward => ThroughputUnit::Items,
                Workload::Prefill | Workload::Decode => ThroughputUnit::Tokens,
                Workload::TrainStep => ThroughputUnit::Samples,
            },
            latency: round_sig(step_s * 1e3),
            memory_usage,
            memory_capacity,
            fits_in_memory: memory_usage <= memory_capacity,
            bound: match host_costs {
                Some(h) if h.host_bound() => Bound::Host,
                Some(_) if compute_t >= libm::fmax(weight_t, memory_t - weight_t) => Bound::Compute,
                None if compute_t >= memory_t => Bound::Compute,
                _ => Bound::Memory,
            },
            compute_rate,
            flops_per_step: libm::round(cost.flops),
            bytes_per_step: libm::round(cost.bytes),
            roofline_throughput: round_sig(cost.items / ideal_s),
            coefficient_source,
            source: match coefficient_source {
                _ if measured => PredictionSource::MeasuredProfile,
                _ if correction.is_some() => PredictionSource::Learned,
                _ if device.hardware_type == HardwareType::Webnn => PredictionSource::Estimate,
                // llama.cpp's WebAssembly kernels are fitted on one machine's single runs.
                _ if llama_cpp_wasm => PredictionSource::Estimate,
                // Firefox's and WebKit's round trips are fitted, but their sources disagree tenfold
                // (docs/model.md): an estimate.
                _ if device.hardware_type == HardwareType::Webgpu
                    && device
                        .browser_engine
                        .is_some_and(|e| e != crate::browser::BrowserEngine::Chromium) =>
                {
                    PredictionSource::Estimate
                }
                // A runtime named without measurements of its own: the class's coefficients describe
                // another runtime.
                _ if !documented_runtime && host_costs.is_none() && browser.is_none() => PredictionSource::Estimate,
                CoefficientSource::HardwareType | CoefficientSource::Runtime => PredictionSource::AnalyticModel,
                _ => PredictionSource::AnalyticModelPooled,
            },
            runtime,
            analytic_throughput: correction.map(|_| round_sig(cost.items / analytic_step_s)),
            fixed_costs,
            host_costs,
            prompt_passes: req.prompt_chunk_on(runtime).map(|chunk| PromptPasses {
                chunk,
                passes: cost.passes,
            }),
        };
        Ok((prediction, features))
    }
}

/// The same step on another runtime (the runtime comparison of a prediction).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuntimeOption {
    /// The runtime.
    pub runtime: Runtime,
    /// Items (or tokens) per second on it.
    pub throughput: f64,
    /// Time per step, ms.
    pub latency: f64,
    /// Which term bounds the step there.
    pub bound: Bound,
    /// Where the figure comes from.
    pub source: PredictionSource,
}

impl PerfModel {
    /// The step of `req` on each runtime with a fitted model for the device: the hardware type's
    /// documented runtime and every runtime with measurements on this hardware type (none for
    /// browsers, whose runtime is the page's). Runtimes that cannot run the step are left out.
    #[must_use]
    pub fn runtime_comparison(&self, spec: &ModelSpec, device: &Device, req: &PerfRequest) -> Vec<RuntimeOption> {
        if device.hardware_type.is_browser() {
            return Vec::new();
        }
        let documented = Runtime::default_for(device.hardware_type, req.workload, req.precision);
        let asked = req.runtime.unwrap_or(documented);
        let mut runtimes = alloc::vec![documented];
        for r in &self.coefficients.runtimes {
            // A training step is compared across the runtimes that train and were measured
            // training (no inference engine's constants stand in for a backward pass).
            let runs_step = req.workload != Workload::TrainStep || (r.runtime.trains() && r.covers(req.workload));
            if r.hardware == device.hardware_type && runs_step && !runtimes.contains(&r.runtime) {
                runtimes.push(r.runtime);
            }
        }
        runtimes
            .into_iter()
            .filter_map(|runtime| {
                let p = self
                    .predict(
                        spec,
                        device,
                        &PerfRequest {
                            runtime: Some(runtime),
                            // A prompt chunk is a setting of the runtime asked about, or of the
                            // runtimes that feed prompts in chunks; the others take it whole.
                            prompt_chunk: req
                                .prompt_chunk
                                .filter(|_| runtime == asked || runtime.prompt_chunk_tokens().is_some()),
                            ..*req
                        },
                    )
                    .ok()?;
                Some(RuntimeOption {
                    runtime,
                    throughput: p.throughput,
                    latency: p.latency,
                    bound: p.bound,
                    source: p.source,
                })
            })
            .collect()
    }
}

/// Whether a prediction applies the learned correction or only computes its features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Learned {
    Use,
    FeaturesOnly,
}

/// Rounds to 5 significant digits, so tiny throughputs stay positive and snapshots stay stable.
pub(crate) fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let scale = libm::pow(10.0, 4.0 - libm::floor(libm::log10(libm::fabs(x))));
    libm::round(x * scale) / scale
}

#[cfg(test)]
mod tests;
