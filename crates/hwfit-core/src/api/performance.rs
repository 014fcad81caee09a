//! Questions about speed: predict, select, batch select and the per-model analysis.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::targets::{keys, on_threads, resolve_candidates, HardwareList};
use super::{defaults, Hwfit};
use crate::perf::RuntimeOption;
use crate::plan::distributed::{plan_distributed, DistributedConfig, DistributedInput};
use crate::{
    select_hardware, Candidate, CoreError, Family, HardwareType, Mode, PerfRequest, Precision, Prediction,
    PredictionSource, Runtime, Selection, SelectionInput, SpecSource, TaskType, ThroughputUnit, Workload,
};

/// Predict throughput, latency and memory (`POST /performance/predict`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct PredictRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object to read the architecture from.
    pub model_config: Option<serde_json::Value>,
    /// The family the caller expects (refused if it contradicts the model's).
    pub model_family: Option<Family>,
    /// Hardware types, each predicted on its reference device (default: the local devices).
    #[serde(alias = "available_hardware", alias = "hardware_platforms")]
    pub hardware: HardwareList,
    /// Concrete devices from the device catalog.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Weight precision (default: the checkpoint's format where its config or name states one —
    /// FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
    pub precision: Option<Precision>,
    /// `training` predicts a training step; `inference` (default) the workload below.
    pub mode: Mode,
    /// `forward`, `prefill`, `decode` or `train-step` (default: decode for text generators, forward
    /// otherwise; `train-step` in training mode).
    pub workload: Option<Workload>,
    /// Items per step (default 1).
    pub batch_size: u32,
    /// Tokens per sequence, the KV context for decode (default 128, at most the model's positions).
    pub sequence_length: Option<u32>,
    /// The runtime to predict for (default: the best-documented one for each target's hardware
    /// type and the workload, see `Runtime::default_for`).
    pub runtime: Option<Runtime>,
    /// Threads the run uses on a CPU target (llama.cpp's `-t`, `torch.set_num_threads`; default:
    /// every core): fewer than its cores compute and read at the part of the CPU they use.
    pub threads: Option<u32>,
    /// Prompt tokens per forward pass of a prefill (llama.cpp's `--ubatch-size`, mlx-lm's
    /// `prefill_step_size`; default: the runtime's — 512 for llama.cpp, 2,048 for MLX, the whole
    /// prompt elsewhere): each pass reads the weights its tokens reach.
    pub prompt_chunk: Option<u32>,
    /// Training: fp32 master weights, gradients and AdamW state with the products at `precision`
    /// under autocast (`true`, the default at fp16 and bf16: PyTorch's AMP), or all of them at
    /// `precision` (`false`: pure fp16/bf16 training).
    pub mixed_precision: Option<bool>,
}

impl Default for PredictRequest {
    fn default() -> Self {
        Self {
            model_name: String::new(),
            model_config: None,
            model_family: None,
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            precision: None,
            mode: defaults::MODE,
            workload: None,
            batch_size: defaults::BATCH_SIZE,
            sequence_length: None,
            runtime: None,
            threads: None,
            prompt_chunk: None,
            mixed_precision: None,
        }
    }
}

impl PredictRequest {
    /// A request for `model` with every default.
    #[must_use]
    pub fn model(model: &str) -> Self {
        Self {
            model_name: String::from(model),
            ..Self::default()
        }
    }
}

/// One target's prediction and the device it was made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictEntry {
    /// The prediction.
    #[serde(flatten)]
    pub prediction: Prediction,
    /// The device predicted on.
    pub device: String,
    /// Its hardware type.
    pub hardware_type: HardwareType,
    /// The same step on each runtime with a fitted model for the device (the documented one and
    /// those with measurements on its kind of processor): what moving runtime would buy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtimes: Vec<RuntimeOption>,
    /// The memory sizes the device comes in, when more than one (a name that matches the 8 GB and
    /// the 16 GB card is predicted on the smaller): whether the step fits in each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_options: Vec<MemoryOption>,
    /// How the device's name was read, for a device named in the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_from: Option<crate::device::ResolvedFrom>,
}

/// One memory size of a device and whether a prediction's step fits in it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryOption {
    /// Memory, GB.
    pub memory_gb: f64,
    /// Whether the step's memory fits in it.
    pub fits_in_memory: bool,
}

impl MemoryOption {
    /// Each of `device`'s memory sizes, when it has several, against `prediction`'s memory.
    #[must_use]
    pub fn of(device: &crate::Device, prediction: &Prediction) -> Vec<Self> {
        if device.memory_options_gb.len() < 2 {
            return Vec::new();
        }
        device
            .memory_options_gb
            .iter()
            .map(|&memory_gb| Self {
                memory_gb,
                fits_in_memory: prediction.memory_usage <= memory_gb * 1024.0,
            })
            .collect()
    }
}

/// The predictions (IPFS Accelerate's `/performance/predict` answer plus what they rest on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictAnswer {
    /// Model.
    pub model_name: String,
    /// Family.
    pub model_family: Family,
    /// Where the architecture comes from.
    pub model_source: SpecSource,
    /// Items per step.
    pub batch_size: u32,
    /// Tokens per sequence.
    pub sequence_length: u32,
    /// Precision.
    pub precision: Precision,
    /// Mode.
    pub mode: Mode,
    /// Workload predicted.
    pub workload: Workload,
    /// A training step: whether it was predicted in mixed precision (fp32 master weights,
    /// gradients and AdamW state) or pure; absent for inference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_precision: Option<bool>,
    /// target (hardware type or device id) → prediction.
    pub predictions: SortedMap<String, PredictEntry>,
    /// target → why it cannot run the step as asked (a precision or format it does not run, a
    /// runtime that is not there), when other targets can; a question no target can answer is
    /// refused with the first target's error.
    #[serde(default, skip_serializing_if = "SortedMap::is_empty")]
    pub refused: SortedMap<String, String>,
    /// What the answer assumed that the request did not say (a default sequence length capped at
    /// the model's positions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Select the hardware to run a model on (`POST /hardware/select`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct SelectRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object to read the architecture from.
    pub model_config: Option<serde_json::Value>,
    /// The family the caller expects (refused if it contradicts the model's).
    pub model_family: Option<Family>,
    /// Hardware types to choose from (IPFS Accelerate's `available_hardware`; default: the local
    /// devices).
    #[serde(alias = "available_hardware", alias = "hardware_platforms")]
    pub hardware: HardwareList,
    /// Concrete devices to choose from.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Weight precision (default: the checkpoint's format where its config or name states one —
    /// FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
    pub precision: Option<Precision>,
    /// Inference (default) or training.
    pub mode: Mode,
    /// Items per step (default 1).
    pub batch_size: u32,
    /// Tokens per sequence (default 128, at most the model's positions).
    pub sequence_length: Option<u32>,
    /// IPFS Accelerate's task type (a training task implies training mode).
    pub task_type: Option<TaskType>,
    /// Also plan distributed training over `gpu_count` GPUs of the recommended type.
    pub distributed: bool,
    /// GPUs for a distributed plan (default 1).
    pub gpu_count: u32,
    /// Threads the run uses on a CPU candidate (default: every core), as in [`PredictRequest`].
    pub threads: Option<u32>,
    /// Training: fp32 master weights, gradients and AdamW state with the products at `precision`
    /// (`true`, the default at fp16 and bf16), or all of them at `precision` (`false`), as in
    /// [`PredictRequest`].
    pub mixed_precision: Option<bool>,
}

impl Default for SelectRequest {
    fn default() -> Self {
        Self {
            model_name: String::new(),
            model_config: None,
            model_family: None,
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            precision: None,
            mode: defaults::MODE,
            batch_size: defaults::BATCH_SIZE,
            sequence_length: None,
            task_type: None,
            distributed: false,
            gpu_count: 1,
            threads: None,
            mixed_precision: None,
        }
    }
}

impl SelectRequest {
    /// A request for `model` with every default.
    #[must_use]
    pub fn model(model: &str) -> Self {
        Self {
            model_name: String::from(model),
            ..Self::default()
        }
    }
}

/// One model of a batch selection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct BatchModel {
    /// Model name or Hugging Face id.
    pub name: String,
    /// The family the caller expects.
    pub family: Option<Family>,
    /// A Hugging Face `config.json` object.
    pub model_config: Option<serde_json::Value>,
}

/// Select hardware for several models (`POST /hardware/batch`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct BatchSelectRequest {
    /// The models.
    pub models: Vec<BatchModel>,
    /// Hardware types to choose from (default: the local devices).
    #[serde(alias = "available_hardware", alias = "hardware_platforms")]
    pub hardware: HardwareList,
    /// Concrete devices to choose from.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Weight precision (default: the checkpoint's format where its config or name states one —
    /// FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
    pub precision: Option<Precision>,
    /// Inference (default) or training.
    pub mode: Mode,
    /// Items per step (default 1).
    pub batch_size: u32,
    /// Tokens per sequence (default 128, at most the model's positions).
    pub sequence_length: Option<u32>,
    /// IPFS Accelerate's task type.
    pub task_type: Option<TaskType>,
    /// Threads the run uses on a CPU candidate (default: every core), as in [`PredictRequest`].
    pub threads: Option<u32>,
    /// Training: fp32 master weights, gradients and AdamW state with the products at `precision`
    /// (`true`, the default at fp16 and bf16), or all of them at `precision` (`false`), as in
    /// [`PredictRequest`].
    pub mixed_precision: Option<bool>,
}

impl Default for BatchSelectRequest {
    fn default() -> Self {
        Self {
            models: Vec::new(),
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            precision: None,
            mode: defaults::MODE,
            batch_size: defaults::BATCH_SIZE,
            sequence_length: None,
            task_type: None,
            threads: None,
            mixed_precision: None,
        }
    }
}

/// One model's answer in a batch (IPFS Accelerate's shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchEntry {
    /// The best candidate, if any can run the request.
    pub primary: Option<String>,
    /// The other eligible candidates, best first.
    pub fallbacks: Vec<String>,
    /// Why.
    pub explanation: String,
    /// Where the predictions come from.
    pub prediction_source: String,
    /// Why this model could not be answered (an unknown name, a broken `config.json`, a family that
    /// contradicts it); the other models of the batch are answered all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Analyze a model across hardware and batch sizes (`POST /analysis/model`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object.
    pub model_config: Option<serde_json::Value>,
    /// The family the caller expects.
    pub model_family: Option<Family>,
    /// Batch sizes (default 1, 8, 32).
    pub batch_sizes: Vec<u32>,
    /// Hardware types (IPFS Accelerate's `hardware_platforms`; default: the local devices).
    #[serde(alias = "hardware_platforms", alias = "available_hardware")]
    pub hardware: HardwareList,
    /// Concrete devices.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Inference precision (default: the checkpoint's format where its config or name states one,
    /// else `fp32`; training uses it too where trainable, else `fp32`).
    pub precision: Option<Precision>,
    /// Tokens per sequence (default 128, at most the model's positions).
    pub sequence_length: Option<u32>,
    /// The training part: mixed precision or pure, as in [`PredictRequest`] (default: mixed at
    /// fp16 and bf16).
    pub mixed_precision: Option<bool>,
}

/// A prediction in brief (IPFS Accelerate's analysis cell).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PerformanceSummary {
    /// Items, tokens or samples per second.
    pub throughput: f64,
    /// Its unit.
    pub throughput_unit: ThroughputUnit,
    /// Time per step, ms.
    pub latency: f64,
    /// Memory the step needs, MB.
    pub memory_usage: f64,
    /// Whether it fits the device.
    pub fits_in_memory: bool,
    /// Where the figure comes from.
    pub source: PredictionSource,
}

/// A recommendation in brief.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Recommendation {
    /// Best candidate.
    pub primary: Option<String>,
    /// The others, best first.
    pub fallbacks: Vec<String>,
}

/// One mode of an analysis.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModeAnalysis {
    /// batch size → target → prediction (targets that cannot run it are left out; see `refused`).
    pub performance: SortedMap<String, SortedMap<String, PerformanceSummary>>,
    /// batch size → recommendation.
    pub recommendations: SortedMap<String, Recommendation>,
    /// batch size → target → why it cannot run it.
    pub refused: SortedMap<String, SortedMap<String, String>>,
}

/// The analysis (IPFS Accelerate's `/analysis/model` answer).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelAnalysis {
    /// Model.
    pub model_name: String,
    /// Family.
    pub model_family: Family,
    /// Targets analysed.
    pub hardware_platforms: Vec<String>,
    /// Batch sizes analysed.
    pub batch_sizes: Vec<u32>,
    /// Precision of each mode.
    pub precisions: SortedMap<Mode, Precision>,
    /// Inference.
    pub inference: ModeAnalysis,
    /// Training.
    pub training: ModeAnalysis,
}

/// The batch selection's answer: model name → its entry (IPFS Accelerate's shape).
pub type BatchSelection = SortedMap<String, BatchEntry>;

/// The workload a request means: training → a train step; else the one asked for, else decode for
/// text generators and forward otherwise.
fn workload_of(spec: &crate::ModelSpec, mode: Mode, workload: Option<Workload>) -> Workload {
    match (mode, workload) {
        (Mode::Training, _) => Workload::TrainStep,
        (Mode::Inference, Some(w)) => w,
        (Mode::Inference, None) if spec.is_generative() => Workload::Decode,
        (Mode::Inference, None) => Workload::Forward,
    }
}

impl Hwfit {
    /// The targets a question names (or this machine's devices), each CPU as the question's
    /// `threads` use it.
    fn targets(
        &self,
        named: super::question::Targets<'_>,
        threads: Option<u32>,
        local: &[Candidate],
    ) -> Result<Vec<Candidate>, CoreError> {
        on_threads(resolve_candidates(&self.devices, named, local)?, threads, &self.perf)
    }

    /// Predicts one step of the request on every target.
    pub fn predict(&self, req: &PredictRequest, local: &[Candidate]) -> Result<PredictAnswer, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), req.model_family)?;
        let targets = self.targets(req.named_targets(), req.threads, local)?;
        let workload = workload_of(&model.spec, req.mode, req.workload);
        let (sequence_length, note) =
            defaults::sequence_length(req.sequence_length, defaults::SEQUENCE_LENGTH, &model.spec);
        let (precision, precision_note) = defaults::precision(req.precision, &model, defaults::PRECISION);
        let perf_req = PerfRequest {
            precision,
            workload,
            batch_size: req.batch_size,
            seq_length: sequence_length,
            runtime: req.runtime,
            prompt_chunk: req.prompt_chunk,
            mixed_precision: req.mixed_precision,
        };
        let mut predictions = SortedMap::new();
        let mut refused = SortedMap::new();
        let mut first_refusal = None;
        let mut notes: Vec<String> = precision_note.into_iter().chain(note).collect();
        for c in &targets {
            let (runtime, installed) = c.runtime_for(req.runtime, workload, precision);
            if let Some(i) = installed {
                notes.push(format!(
                    "{}: {} — the runtime installed here ({} {} in {})",
                    c.key, i.runtime, i.runtime, i.version, i.location
                ));
            }
            let perf_req = PerfRequest { runtime, ..perf_req };
            let prediction = match self.perf.predict(&model.spec, &c.device, &perf_req) {
                Ok(p) => p,
                Err(e) => {
                    let e = defaults::checkpoint_refused(e, req.precision, &model);
                    refused.insert(c.key.clone(), format!("{e}"));
                    first_refusal.get_or_insert(e);
                    continue;
                }
            };
            if let Some((share, peak)) = prediction.host_costs.and_then(|_| {
                crate::perf::tf32::fp32_on_tf32(prediction.runtime, &c.device, &model.spec, precision, sequence_length)
            }) {
                notes.push(if prediction.runtime == crate::perf::Runtime::TensorRt {
                    format!(
                        "{}: fp32 layers at the TF32 tensor-core rate ({peak} TFLOP/s dense): TensorRT allows TF32 for them by default (BuilderFlag::kTF32)",
                        c.key
                    )
                } else {
                    format!(
                        "{}: fp32 convolutions ({:.0} % of the FLOPs) at the TF32 tensor-core rate ({peak} TFLOP/s dense): {} lets cuDNN use TF32 for them by default",
                        c.key,
                        share * 100.0,
                        prediction.runtime
                    )
                });
            }
            predictions.insert(
                c.key.clone(),
                PredictEntry {
                    memory_options: MemoryOption::of(&c.device, &prediction),
                    resolved_from: c.resolved_from.clone(),
                    device: crate::browser::wasm_view_for(&c.device, prediction.runtime)
                        .name
                        .clone(),
                    prediction,
                    hardware_type: c.device.hardware_type,
                    runtimes: self.perf.runtime_comparison(&model.spec, &c.device, &perf_req),
                },
            );
        }
        if predictions.is_empty() {
            if let Some(e) = first_refusal {
                return Err(e);
            }
        }
        Ok(PredictAnswer {
            model_name: model.spec.name,
            model_family: model.spec.family,
            model_source: model.source,
            batch_size: req.batch_size,
            sequence_length,
            precision,
            mode: workload.mode(),
            workload,
            mixed_precision: (workload == Workload::TrainStep).then(|| perf_req.trains_mixed()),
            predictions,
            refused,
            notes,
        })
    }

    /// Selects the hardware to run a model on, ranked by predicted performance.
    pub fn select(&self, req: &SelectRequest, local: &[Candidate]) -> Result<Selection, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), req.model_family)?;
        let candidates = self.targets(req.named_targets(), req.threads, local)?;
        let (sequence_length, note) =
            defaults::sequence_length(req.sequence_length, defaults::SEQUENCE_LENGTH, &model.spec);
        let (precision, precision_note) = defaults::precision(req.precision, &model, defaults::PRECISION);
        let mut selection = select_hardware(
            &model.spec,
            &SelectionInput {
                batch_size: req.batch_size,
                seq_length: sequence_length,
                mode: req.mode,
                precision,
                task_type: req.task_type,
                mixed_precision: req.mixed_precision,
                candidates: candidates.clone(),
            },
            &self.perf,
            &self.selection,
        )?;
        for note in precision_note.into_iter().chain(note) {
            selection.explanation = format!("{} ({note})", selection.explanation);
        }
        if req.distributed {
            selection.distributed_config = Some(distributed_for(&model.spec, &selection, &candidates, req)?);
        }
        Ok(selection)
    }

    /// Selects hardware for each model of a batch; a model that cannot be read, or that cannot take
    /// the request's sequence length, is reported in its entry (`error`) while the others are answered.
    pub fn batch_select(&self, req: &BatchSelectRequest, local: &[Candidate]) -> Result<BatchSelection, CoreError> {
        if req.models.is_empty() {
            return Err(CoreError::EmptyList { what: "models" });
        }
        let mut out = SortedMap::new();
        for (i, m) in req.models.iter().enumerate() {
            // A model that cannot be read is this entry's error; anything else concerns the whole
            // request (its hardware, batch size …) and fails it.
            let key = |resolved: Option<&str>| match (m.name.trim(), resolved) {
                ("", Some(name)) => String::from(name),
                ("", None) => format!("models[{i}]"),
                _ => m.name.clone(),
            };
            let refused = |e: &CoreError| BatchEntry {
                primary: None,
                fallbacks: Vec::new(),
                explanation: format!("not answered: {e}"),
                prediction_source: String::from("none"),
                error: Some(alloc::string::ToString::to_string(e)),
            };
            if let Err(e) = self.resolve_model(&m.name, m.model_config.as_ref(), m.family) {
                out.insert(key(None), refused(&e));
                continue;
            }
            let answered = self.select(
                &SelectRequest {
                    model_name: m.name.clone(),
                    model_config: m.model_config.clone(),
                    model_family: m.family,
                    hardware: req.hardware.clone(),
                    devices: req.devices.clone(),
                    device_spec: req.device_spec.clone(),
                    precision: req.precision,
                    mode: req.mode,
                    batch_size: req.batch_size,
                    sequence_length: req.sequence_length,
                    task_type: req.task_type,
                    threads: req.threads,
                    mixed_precision: req.mixed_precision,
                    ..SelectRequest::default()
                },
                local,
            );
            let s = match answered {
                Ok(s) => s,
                // The request's sequence is longer than this model takes (CLIP's 77 positions under the
                // default 128): this entry's error, as an unreadable model is.
                Err(e @ CoreError::SequenceTooLong { .. }) => {
                    out.insert(key(None), refused(&e));
                    continue;
                }
                Err(e) => return Err(e),
            };
            out.insert(
                key(Some(&s.model_name)),
                BatchEntry {
                    primary: s.primary_recommendation,
                    fallbacks: s.fallback_options,
                    explanation: s.explanation,
                    prediction_source: s.prediction_source,
                    error: None,
                },
            );
        }
        Ok(out)
    }

    /// Predictions and recommendations per batch size and mode on every target.
    pub fn analyze(&self, req: &AnalyzeRequest, local: &[Candidate]) -> Result<ModelAnalysis, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), req.model_family)?;
        let candidates = resolve_candidates(&self.devices, req.named_targets(), local)?;
        let batch_sizes = if req.batch_sizes.is_empty() {
            defaults::BATCH_SIZES.to_vec()
        } else {
            req.batch_sizes.clone()
        };
        let (sequence_length, _) =
            defaults::sequence_length(req.sequence_length, defaults::SEQUENCE_LENGTH, &model.spec);
        let (precision, _) = defaults::precision(req.precision, &model, defaults::PRECISION);
        let training_precision = if precision.is_trainable() {
            precision
        } else {
            Precision::Fp32
        };
        let mut analysis = ModelAnalysis {
            model_name: model.spec.name.clone(),
            model_family: model.spec.family,
            hardware_platforms: keys(&candidates),
            batch_sizes: batch_sizes.clone(),
            precisions: [(Mode::Inference, precision), (Mode::Training, training_precision)].into(),
            inference: ModeAnalysis::default(),
            training: ModeAnalysis::default(),
        };
        for (mode, precision) in [(Mode::Inference, precision), (Mode::Training, training_precision)] {
            let part = match mode {
                Mode::Inference => &mut analysis.inference,
                Mode::Training => &mut analysis.training,
            };
            for &batch in &batch_sizes {
                let s = select_hardware(
                    &model.spec,
                    &SelectionInput {
                        batch_size: batch,
                        seq_length: sequence_length,
                        mode,
                        precision,
                        task_type: None,
                        mixed_precision: req.mixed_precision,
                        candidates: candidates.clone(),
                    },
                    &self.perf,
                    &self.selection,
                )?;
                let key = format!("{batch}");
                let mut cells = SortedMap::new();
                let mut refused = SortedMap::new();
                for (target, score) in &s.all_scores {
                    match (&score.predictions, &score.excluded) {
                        (Some(p), None) => {
                            cells.insert(target.clone(), summary(p));
                        }
                        (_, why) => {
                            refused.insert(target.clone(), why.clone().unwrap_or_default());
                        }
                    }
                }
                part.performance.insert(key.clone(), cells);
                if !refused.is_empty() {
                    part.refused.insert(key.clone(), refused);
                }
                part.recommendations.insert(
                    key,
                    Recommendation {
                        primary: s.primary_recommendation,
                        fallbacks: s.fallback_options,
                    },
                );
            }
        }
        Ok(analysis)
    }
}

fn summary(p: &Prediction) -> PerformanceSummary {
    PerformanceSummary {
        throughput: p.throughput,
        throughput_unit: p.throughput_unit,
        latency: p.latency,
        memory_usage: p.memory_usage,
        fits_in_memory: p.fits_in_memory,
        source: p.source,
    }
}

/// The distributed plan on the recommended GPU type (a selection asked with `distributed`).
fn distributed_for(
    spec: &crate::ModelSpec,
    selection: &Selection,
    candidates: &[Candidate],
    req: &SelectRequest,
) -> Result<DistributedConfig, CoreError> {
    let device = selection
        .primary_recommendation
        .as_ref()
        .and_then(|key| candidates.iter().find(|c| &c.key == key))
        .map(|c| c.device.clone())
        .filter(|d| d.hardware_type.has_device_memory());
    let Some(device) = device else {
        return Err(CoreError::InvalidRequest(format!(
            "distributed: the recommendation ({}) is not a GPU type that data-parallel training spreads over",
            selection.primary_recommendation.as_deref().unwrap_or("none")
        )));
    };
    plan_distributed(
        spec,
        &DistributedInput {
            gpu_count: req.gpu_count,
            batch_size: req.batch_size,
            seq_length: selection.sequence_length,
            max_memory_gb: None,
            device: Some(device),
        },
    )
}
