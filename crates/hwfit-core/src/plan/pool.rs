//! Resource-pool configuration for several models (the integration guide's
//! `get_optimal_resource_pool_config`): the hardware each model should run on, what each needs, and
//! whether the pool must run in low-memory mode (the models together exceed the preferred device).

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::PerfModel;
use crate::resources::{estimate_resources, ResourceInput, ResourceRequirements};
use crate::select::{select_hardware, Candidate, SelectionConfig, SelectionInput};
use crate::spec::ModelSpec;
use crate::{CoreError, Mode, Precision};

/// Idle timeout before a cached model is released, minutes: a policy, not a measurement — release
/// sooner when the models do not all fit at once.
pub const TIMEOUT_MINS: u32 = 30;
/// The timeout in low-memory mode.
pub const LOW_MEMORY_TIMEOUT_MINS: u32 = 10;

/// The pool settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PoolSettings {
    /// Whether models must be evicted to make room (their total exceeds the device).
    pub low_memory_mode: bool,
    /// Idle timeout, minutes.
    pub recommended_timeout_mins: u32,
    /// Memory of the preferred device, MB.
    pub max_memory_mb: u64,
}

/// Memory across the pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PoolRequirements {
    /// The largest single model's recommended memory, MB.
    pub max_memory_mb: u64,
    /// All models' recommended memory together, MB.
    pub total_memory_mb: u64,
    /// Per model.
    pub per_model: SortedMap<String, ResourceRequirements>,
}

/// Where to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PoolHardware {
    /// The hardware most models prefer.
    pub preferred_hardware: String,
    /// Its PyTorch device string, where PyTorch runs there.
    pub torch_device: Option<String>,
    /// Each model's primary recommendation.
    pub per_model: SortedMap<String, String>,
}

/// The configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResourcePoolConfig {
    /// Settings.
    pub resource_pool_config: PoolSettings,
    /// Memory.
    pub resource_requirements: PoolRequirements,
    /// Hardware.
    pub hardware_recommendations: PoolHardware,
    /// Why.
    pub explanation: String,
}

/// Plans a pool for `models`, each at its precision (inference, batch 1, `seq_length` tokens).
pub fn resource_pool_config(
    models: &[(ModelSpec, Precision)],
    candidates: &[Candidate],
    seq_length: u32,
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<ResourcePoolConfig, CoreError> {
    if models.is_empty() {
        return Err(CoreError::EmptyList { what: "models" });
    }
    let mut per_model_hw = SortedMap::new();
    let mut per_model_req = SortedMap::new();
    let mut votes: Vec<(String, usize)> = Vec::new();
    for (spec, precision) in models {
        let precision = *precision;
        let seq = seq_length.min(spec.max_positions.max(1));
        let req = SelectionInput {
            batch_size: 1,
            seq_length: seq,
            mode: Mode::Inference,
            precision,
            task_type: None,
            mixed_precision: None,
            candidates: candidates.to_vec(),
        };
        let selection = select_hardware(spec, &req, perf, config)?;
        let primary = selection.primary_recommendation.ok_or_else(|| CoreError::DoesNotFit {
            what: format!("{} on any candidate", spec.name),
            needed_gb: 0.0,
        })?;
        let candidate = candidates
            .iter()
            .find(|c| c.key == primary)
            .ok_or(CoreError::NoCandidates)?;
        let r = estimate_resources(
            spec,
            &ResourceInput {
                hardware: candidate.device.hardware_type,
                precision,
                mode: Mode::Inference,
                batch_size: 1,
                seq_length: seq,
                mixed_precision: None,
            },
        )?;
        match votes.iter_mut().find(|(k, _)| *k == primary) {
            Some(v) => v.1 += 1,
            None => votes.push((primary.clone(), 1)),
        }
        per_model_hw.insert(spec.name.clone(), primary);
        per_model_req.insert(spec.name.clone(), r);
    }
    // Most votes; ties go to the earliest model's choice.
    let preferred = votes
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(core::cmp::Ordering::Greater))
        .map(|(k, _)| k.clone())
        .unwrap_or_default();
    let device = candidates
        .iter()
        .find(|c| c.key == preferred)
        .ok_or(CoreError::NoCandidates)?;
    let capacity = libm::floor(device.device.memory_mb()) as u64;
    let max = per_model_req
        .values()
        .map(|r| r.recommended_memory_mb)
        .max()
        .unwrap_or(0);
    let total: u64 = per_model_req.values().map(|r| r.recommended_memory_mb).sum();
    let low = total > capacity;
    Ok(ResourcePoolConfig {
        resource_pool_config: PoolSettings {
            low_memory_mode: low,
            recommended_timeout_mins: if low { LOW_MEMORY_TIMEOUT_MINS } else { TIMEOUT_MINS },
            max_memory_mb: capacity,
        },
        resource_requirements: PoolRequirements {
            max_memory_mb: max,
            total_memory_mb: total,
            per_model: per_model_req,
        },
        hardware_recommendations: PoolHardware {
            torch_device: device.device.hardware_type.torch_device().map(String::from),
            preferred_hardware: preferred.clone(),
            per_model: per_model_hw,
        },
        explanation: format!(
            "{} models need {total} MB together (largest {max} MB); {preferred} ({}) has {capacity} MB, so {}.",
            models.len(),
            device.device.name,
            if low {
                "they cannot all stay loaded: low-memory mode evicts idle models after 10 minutes"
            } else {
                "they can all stay loaded"
            }
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalog, DeviceCatalog};

    fn pool(models: &[&str], devices: &[&str]) -> Result<ResourcePoolConfig, CoreError> {
        let specs: Vec<(ModelSpec, Precision)> = models
            .iter()
            .map(|n| (Catalog::builtin().resolve(n).unwrap().spec, Precision::Fp16))
            .collect();
        let candidates = crate::candidates_from(&DeviceCatalog::builtin(), &[], devices).unwrap();
        resource_pool_config(
            &specs,
            &candidates,
            128,
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        )
    }

    // Llama 2 7B at fp16: 6,738,149,376 weights × 2 B = 12,852 MiB of weights alone, and the
    // recommended memory is at least 1.2 × that = 15,422.4 MiB. One fits the RTX 4090's 24 GB
    // (24,576 MiB); two need more than 30,844 MiB.

    #[test]
    fn one_7b_model_stays_loaded_on_a_24_gb_card() {
        let p = pool(&["llama-2-7b"], &["RTX 4090"]).unwrap();
        let s = &p.resource_pool_config;
        assert_eq!(s.max_memory_mb, 24_576);
        assert!(!s.low_memory_mode);
        assert_eq!(s.recommended_timeout_mins, 30);
        assert!(
            p.explanation.ends_with("so they can all stay loaded."),
            "{}",
            p.explanation
        );
    }

    #[test]
    fn two_7b_models_exceed_a_24_gb_card_and_turn_on_low_memory_mode() {
        let p = pool(&["llama-2-7b", "llama 2 7b chat"], &["RTX 4090"]).unwrap();
        let s = &p.resource_pool_config;
        assert!(s.low_memory_mode);
        assert_eq!(s.recommended_timeout_mins, 10);
        assert!(p.resource_requirements.total_memory_mb > 30_844);
        assert_eq!(p.resource_requirements.per_model.len(), 2);
        assert!(p.explanation.contains("low-memory mode"), "{}", p.explanation);
        let hw = &p.hardware_recommendations;
        assert_eq!(hw.preferred_hardware, "nvidia-rtx-4090");
        assert_eq!(hw.torch_device.as_deref(), Some("cuda:0"));
    }

    #[test]
    fn a_tied_vote_goes_to_the_first_models_choice_and_sets_the_memory_budget() {
        // GPT-2 runs best on the RTX 4090; Llama 3 70B (141 GB of fp16 weights) fits only the
        // M2 Ultra's 192 GB. One vote each: the first model's choice is preferred, and its memory is
        // the budget the pool is judged against.
        let devices = ["RTX 4090", "M2 Ultra 76-core"];
        let gpt2_first = pool(&["gpt2", "llama 3 70b"], &devices).unwrap();
        let llama_first = pool(&["llama 3 70b", "gpt2"], &devices).unwrap();
        for p in [&gpt2_first, &llama_first] {
            let per_model = &p.hardware_recommendations.per_model;
            assert_eq!(per_model["openai-community/gpt2"], "nvidia-rtx-4090");
            assert_eq!(per_model["meta-llama/Meta-Llama-3-70B"], "apple-m2-ultra-76c");
        }
        assert_eq!(
            gpt2_first.hardware_recommendations.preferred_hardware,
            "nvidia-rtx-4090"
        );
        assert_eq!(gpt2_first.resource_pool_config.max_memory_mb, 24 * 1024);
        assert!(gpt2_first.resource_pool_config.low_memory_mode);
        assert_eq!(
            llama_first.hardware_recommendations.preferred_hardware,
            "apple-m2-ultra-76c"
        );
        assert_eq!(
            llama_first.hardware_recommendations.torch_device.as_deref(),
            Some("mps")
        );
        assert_eq!(llama_first.resource_pool_config.max_memory_mb, 192 * 1024);
        assert!(!llama_first.resource_pool_config.low_memory_mode);
    }

    #[test]
    fn no_models_or_a_model_that_fits_nowhere_is_an_error() {
        assert_eq!(
            pool(&[], &["RTX 4090"]).unwrap_err(),
            CoreError::EmptyList { what: "models" }
        );
        let err = pool(&["llama 3 70b"], &["RTX 4090"]).unwrap_err();
        assert!(
            matches!(&err, CoreError::DoesNotFit { what, .. } if what == "meta-llama/Meta-Llama-3-70B on any candidate"),
            "{err:?}"
        );
    }
}
