//! Hardware selection (IPFS Accelerate's `select_hardware`): every candidate — a hardware type on its
//! reference device, or a concrete device — is checked for family support, precision support and
//! memory fit, then ranked by a weighted score of *predicted* latency, throughput and memory headroom
//! (plus support level), so the answer follows the performance model, not fixed preferences.

pub mod config;
mod explain;

use crate::map::SortedMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use config::SelectionConfig;

use crate::compat::{check_precision, compatibility, SupportLevel};
use crate::perf::{PerfModel, PerfRequest, Prediction, Runtime};
use crate::spec::ModelSpec;
use crate::{CoreError, Device, DeviceCatalog, HardwareType, Mode, Precision, Workload};

string_enum! {
    /// IPFS Accelerate's task types.
    pub enum TaskType: "task type" {
        /// Image or text classification.
        Classification => "classification",
        /// Text generation.
        Generation => "generation",
        /// Embedding generation.
        Embedding => "embedding",
        /// Speech to text.
        SpeechRecognition => "speech_recognition",
        /// Fine-tuning.
        FineTuning => "fine_tuning",
        /// Training.
        Training => "training",
    }
}

/// One candidate: a key (hardware type name or device id) and the device it is predicted on.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// How the answer names it.
    pub key: String,
    /// The device predictions are made for.
    pub device: Device,
    /// How a named device's name was read (none for hardware types and detected devices).
    pub resolved_from: Option<crate::device::ResolvedFrom>,
    /// The runtimes installed on this machine that run on this device, preferred first (a detected
    /// device's; empty for the others): a question naming no runtime is answered for the first that
    /// runs the step ([`Candidate::runtime_for`]).
    pub installed: Vec<crate::detect::InstalledRuntime>,
}

/// Candidates for hardware types (on their reference devices) and named devices, in that order.
pub fn candidates_from<S: AsRef<str>>(
    catalog: &DeviceCatalog,
    hardware: &[HardwareType],
    devices: &[S],
) -> Result<Vec<Candidate>, CoreError> {
    let mut out = Vec::with_capacity(hardware.len() + devices.len());
    for hw in hardware {
        out.push(Candidate::hardware(catalog, *hw)?);
    }
    for name in devices {
        let named = catalog.named(name.as_ref())?;
        let mut candidate = Candidate::device(named.device);
        candidate.resolved_from = named.resolved_from;
        if !named.memory_options.is_empty() {
            candidate.device.memory_options_gb = named.memory_options;
        }
        out.push(candidate);
    }
    Ok(out)
}

impl Candidate {
    /// A hardware type, on its reference device.
    pub fn hardware(catalog: &DeviceCatalog, hw: HardwareType) -> Result<Self, CoreError> {
        Ok(Self {
            key: String::from(hw.as_str()),
            device: catalog.reference(hw)?.clone(),
            resolved_from: None,
            installed: Vec::new(),
        })
    }

    /// A concrete device.
    #[must_use]
    pub fn device(device: &Device) -> Self {
        Self {
            key: device.id.clone(),
            device: device.clone(),
            resolved_from: None,
            installed: Vec::new(),
        }
    }

    /// The runtime a step is predicted for: the one asked for, else the first runtime installed
    /// here that runs the step (reads the weights' format; trains, for a training step), else
    /// none (the hardware type's documented runtime). With it, the installed runtime chosen.
    #[must_use]
    pub fn runtime_for(
        &self,
        requested: Option<Runtime>,
        workload: Workload,
        precision: Precision,
    ) -> (Option<Runtime>, Option<&crate::detect::InstalledRuntime>) {
        if requested.is_some() {
            return (requested, None);
        }
        let chosen = self.installed.iter().find(|i| {
            i.runtime.runs(precision)
                && (workload != Workload::TrainStep || matches!(i.runtime, Runtime::Pytorch | Runtime::PytorchCompiled))
        });
        (chosen.map(|i| i.runtime), chosen)
    }
}

/// The selection engine's input: one step and the candidates to rank (the `select` question's
/// request is [`crate::api::SelectRequest`], which the core turns into this).
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionInput {
    /// Items per step.
    pub batch_size: u32,
    /// Tokens per sequence.
    pub seq_length: u32,
    /// Inference or training (a training task type implies training).
    pub mode: Mode,
    /// Weight precision.
    pub precision: Precision,
    /// IPFS Accelerate's task type, if given.
    pub task_type: Option<TaskType>,
    /// Training: mixed precision or pure ([`crate::Precision::mixed_precision`]; default: mixed at
    /// fp16 and bf16).
    pub mixed_precision: Option<bool>,
    /// The candidates.
    pub candidates: Vec<Candidate>,
}

/// One candidate's evaluation (IPFS Accelerate's `all_scores` entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CandidateScore {
    /// Weighted score (0–1.1), `None` when the candidate cannot run the request.
    pub score: Option<f64>,
    /// The device predicted on.
    pub device: String,
    /// Its hardware type.
    pub hardware_type: HardwareType,
    /// Support of the family there.
    pub support: SupportLevel,
    /// The prediction, when one could be made.
    pub predictions: Option<Prediction>,
    /// The same step on each runtime with a fitted model for the device (see
    /// [`PerfModel::runtime_comparison`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtimes: Vec<crate::perf::RuntimeOption>,
    /// Why it is not eligible, if it is not.
    pub excluded: Option<String>,
    /// How the device's name was read, for a device named in the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_from: Option<crate::device::ResolvedFrom>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Selection {
    /// Model family.
    pub model_family: crate::Family,
    /// Model name.
    pub model_name: String,
    /// Parameters.
    pub model_size: u64,
    /// `small`, `medium` or `large` per the config's categories.
    pub model_size_category: String,
    /// Items per step.
    pub batch_size: u32,
    /// Tokens per sequence.
    pub sequence_length: u32,
    /// Precision.
    pub precision: Precision,
    /// Mode.
    pub mode: Mode,
    /// Task type, if given.
    pub task_type: Option<TaskType>,
    /// Workload predicted.
    pub workload: Workload,
    /// The best candidate, if any can run the request.
    pub primary_recommendation: Option<String>,
    /// The other eligible candidates, best first.
    pub fallback_options: Vec<String>,
    /// Every eligible candidate, best first.
    pub compatible_hardware: Vec<String>,
    /// Why this one, why not the others, in words.
    pub explanation: String,
    /// Every candidate's evaluation.
    pub all_scores: SortedMap<String, CandidateScore>,
    /// Where the predictions come from.
    pub prediction_source: String,
    /// The distributed-training plan on the recommended GPU type, when asked for (`distributed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distributed_config: Option<crate::plan::distributed::DistributedConfig>,
}

fn workload_for(spec: &ModelSpec, mode: Mode, task: Option<TaskType>) -> Result<(Mode, Workload), CoreError> {
    let mode = match task {
        Some(TaskType::FineTuning | TaskType::Training) => Mode::Training,
        _ => mode,
    };
    if mode == Mode::Training {
        return Ok((mode, Workload::TrainStep));
    }
    let workload = match task {
        Some(TaskType::Generation) if !spec.is_generative() => {
            return Err(CoreError::WorkloadMismatch {
                workload: "generation",
                model: spec.name.clone(),
            })
        }
        Some(TaskType::Generation) => Workload::Decode,
        None if spec.is_generative() => Workload::Decode,
        Some(_) | None => Workload::Forward,
    };
    Ok((mode, workload))
}

fn support_score(level: SupportLevel) -> f64 {
    match level {
        SupportLevel::Real => 1.0,
        SupportLevel::Limited => 0.5,
        SupportLevel::Unsupported => 0.0,
    }
}

/// Evaluates one candidate: its support level, its prediction when one can be made, and why it
/// cannot run the request, if it cannot.
fn evaluate(
    spec: &ModelSpec,
    c: &Candidate,
    perf: &PerfModel,
    req: &PerfRequest,
) -> (SupportLevel, Option<Prediction>, Option<String>) {
    let hw = c.device.hardware_type;
    let support = compatibility(spec.family, hw).support;
    if support == SupportLevel::Unsupported {
        return (
            support,
            None,
            Some(alloc::format!("{hw} does not run {} models", spec.family)),
        );
    }
    match perf.predict(spec, &c.device, req) {
        Ok(p) if !p.fits_in_memory => {
            let reason = explain::does_not_fit(&p);
            (support, Some(p), Some(reason))
        }
        Ok(p) => (support, Some(p), None),
        Err(e) => (support, None, Some(alloc::format!("{e}"))),
    }
}

/// Selects hardware for `spec`.
pub fn select_hardware(
    spec: &ModelSpec,
    req: &SelectionInput,
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<Selection, CoreError> {
    if req.candidates.is_empty() {
        return Err(CoreError::NoCandidates);
    }
    let (mode, workload) = workload_for(spec, req.mode, req.task_type)?;
    let perf_req = PerfRequest {
        precision: req.precision,
        workload,
        batch_size: req.batch_size,
        seq_length: req.seq_length,
        runtime: None,
        prompt_chunk: None,
        mixed_precision: req.mixed_precision,
    };
    // Sizes, sequence length and trainability are errors of the request, not of a candidate.
    crate::resources::validate_request(spec, req.precision, mode, req.batch_size, req.seq_length)?;

    let mut all_scores = SortedMap::new();
    let mut eligible: Vec<(String, Prediction, SupportLevel, HardwareType)> = Vec::new();
    for c in &req.candidates {
        let perf_req = PerfRequest {
            runtime: c.runtime_for(None, workload, req.precision).0,
            ..perf_req
        };
        let (support, predictions, excluded) = evaluate(spec, c, perf, &perf_req);
        if let (Some(p), None) = (&predictions, &excluded) {
            eligible.push((c.key.clone(), *p, support, c.device.hardware_type));
        }
        all_scores.insert(
            c.key.clone(),
            CandidateScore {
                score: None,
                device: predictions.as_ref().map_or_else(
                    || c.device.name.clone(),
                    |p| crate::browser::wasm_view_for(&c.device, p.runtime).name.clone(),
                ),
                hardware_type: c.device.hardware_type,
                support,
                runtimes: if predictions.is_some() {
                    perf.runtime_comparison(spec, &c.device, &perf_req)
                } else {
                    Vec::new()
                },
                predictions,
                excluded,
                resolved_from: c.resolved_from.clone(),
            },
        );
    }

    let scored = score(spec, req, mode, config, &eligible);
    let mut ranking: Vec<(String, f64)> = scored;
    ranking.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (key, s) in &ranking {
        if let Some(entry) = all_scores.get_mut(key) {
            entry.score = Some(*s);
        }
    }
    let compatible_hardware: Vec<String> = ranking.iter().map(|(k, _)| k.clone()).collect();
    let prediction_source = prediction_source(&all_scores);
    let explanation = explain::explain(&ranking, &all_scores);
    Ok(Selection {
        model_family: spec.family,
        model_name: spec.name.clone(),
        model_size: spec.parameters(),
        model_size_category: String::from(config.size_category(spec.parameters())),
        batch_size: req.batch_size,
        sequence_length: req.seq_length,
        precision: req.precision,
        mode,
        task_type: req.task_type,
        workload,
        primary_recommendation: compatible_hardware.first().cloned(),
        fallback_options: compatible_hardware.iter().skip(1).cloned().collect(),
        compatible_hardware,
        explanation,
        all_scores,
        prediction_source,
        distributed_config: None,
    })
}

/// Weighted scores of the eligible candidates.
fn score(
    spec: &ModelSpec,
    req: &SelectionInput,
    mode: Mode,
    config: &SelectionConfig,
    eligible: &[(String, Prediction, SupportLevel, HardwareType)],
) -> Vec<(String, f64)> {
    let best_latency = eligible.iter().map(|e| e.1.latency).fold(f64::INFINITY, f64::min);
    let best_throughput = eligible.iter().map(|e| e.1.throughput).fold(0.0, f64::max);
    let family_pref = config.model_families.get(&spec.family);
    let batch_factor = if f64::from(req.batch_size) >= config.batch_size_thresholds.medium {
        family_pref.map_or(1.0, |p| p.batch_size_importance.factor())
    } else {
        1.0
    };
    let size_factor = if spec.parameters() as f64 > config.model_size_categories.small {
        family_pref.map_or(1.0, |p| p.model_size_importance.factor())
    } else {
        1.0
    };
    eligible
        .iter()
        .map(|(key, p, support, hw)| {
            let latency = if p.latency > 0.0 { best_latency / p.latency } else { 1.0 };
            let throughput = if best_throughput > 0.0 {
                p.throughput / best_throughput
            } else {
                1.0
            };
            let headroom = (1.0 - p.memory_usage / p.memory_capacity).clamp(0.0, 1.0);
            let compat = support_score(*support);
            let (weighted, total) = match mode {
                Mode::Inference => {
                    let w = &config.selection_criteria.inference;
                    let (tw, mw) = (w.throughput_weight * batch_factor, w.memory_weight * size_factor);
                    (
                        w.latency_weight * latency + tw * throughput + mw * headroom + w.compatibility_weight * compat,
                        w.latency_weight + tw + mw + w.compatibility_weight,
                    )
                }
                Mode::Training => {
                    let w = &config.selection_criteria.training;
                    let (tw, mw) = (w.throughput_weight * batch_factor, w.memory_weight * size_factor);
                    let convergence = check_precision(*hw, req.precision).map_or(0.0, support_score);
                    (
                        tw * throughput
                            + w.convergence_weight * convergence
                            + mw * headroom
                            + w.compatibility_weight * compat,
                        tw + w.convergence_weight + mw + w.compatibility_weight,
                    )
                }
            };
            let preference = config.hardware_preferences.get(hw).map_or(1.0, |p| {
                0.9 + 0.2 * (p.cost_factor + p.availability_factor + p.power_factor) / 3.0
            });
            let s = if total > 0.0 {
                weighted / total * preference
            } else {
                0.0
            };
            (key.clone(), libm::round(s * 10_000.0) / 10_000.0)
        })
        .collect()
}

#[cfg(test)]
mod tests;

/// `analytic_model`, naming the candidates whose predictions rest on pooled coefficients or on a
/// measured profile.
fn prediction_source(all_scores: &SortedMap<String, CandidateScore>) -> String {
    use crate::perf::PredictionSource;
    let with = |source: PredictionSource| -> Vec<&str> {
        all_scores
            .iter()
            .filter(|(_, s)| s.predictions.as_ref().is_some_and(|p| p.source == source))
            .map(|(k, _)| k.as_str())
            .collect()
    };
    let mut label = String::from("analytic_model");
    let mut notes = Vec::new();
    let pooled = with(PredictionSource::AnalyticModelPooled);
    if !pooled.is_empty() {
        notes.push(alloc::format!("pooled coefficients for: {}", pooled.join(", ")));
    }
    let measured = with(PredictionSource::MeasuredProfile);
    if !measured.is_empty() {
        notes.push(alloc::format!("measured profile for: {}", measured.join(", ")));
    }
    if !notes.is_empty() {
        label = alloc::format!("{label} ({})", notes.join("; "));
    }
    label
}
