//! Task → model recommendations under hardware constraints, and the models a hardware type can run
//! (the integration guide's `recommend_model_for_task` and `get_compatible_models_for_hardware`).

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::PerfModel;
use crate::select::{select_hardware, Candidate, SelectionConfig, SelectionInput};
use crate::spec::ModelSpec;
use crate::{Catalog, Classifier, ClassifierInput, CoreError, Mode};

/// One recommended model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelRecommendation {
    /// Model.
    pub model_name: String,
    /// Family.
    pub family: crate::Family,
    /// Subfamily.
    pub subfamily: crate::Subfamily,
    /// Parameters.
    pub parameters: u64,
    /// Best candidate.
    pub recommended_hardware: String,
    /// Predicted throughput there, with its unit.
    pub predicted_throughput: String,
    /// Recommended memory there, MB.
    pub recommended_memory_mb: u64,
    /// Classifier confidence that the model does the task.
    pub confidence: f64,
}

/// The answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TaskRecommendations {
    /// The task.
    pub task: String,
    /// The candidates allowed.
    pub hardware_constraints: Vec<String>,
    /// Models that do the task and run on the constraints, most confident and smallest first.
    pub recommendations: Vec<ModelRecommendation>,
}

/// Most recommendations returned.
pub const MAX_RECOMMENDATIONS: usize = 10;

fn selection_request(spec: &ModelSpec, candidates: &[Candidate]) -> SelectionInput {
    SelectionInput {
        batch_size: 1,
        seq_length: crate::api::defaults::SEQUENCE_LENGTH.min(spec.max_positions.max(1)),
        mode: Mode::Inference,
        precision: crate::api::defaults::POOL_PRECISION,
        task_type: None,
        mixed_precision: None,
        candidates: candidates.to_vec(),
    }
}

/// Catalog models for a Hugging Face pipeline task that run on the constraints (fp16 inference,
/// batch 1).
pub fn recommend_models_for_task(
    task: &str,
    catalog: &Catalog,
    classifier: &Classifier,
    candidates: &[Candidate],
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<TaskRecommendations, CoreError> {
    let by_task = classifier.classify(&ClassifierInput {
        model_name: String::new(),
        tasks: alloc::vec![String::from(task)],
        ..ClassifierInput::default()
    });
    let task_analysis = by_task.analyses.iter().find(|a| a.source == "task_analysis");
    let Some(family) = task_analysis
        .and_then(|a| a.family.as_deref())
        .and_then(|f| f.parse::<crate::Family>().ok())
    else {
        return Err(CoreError::UnknownValue {
            what: "task",
            value: String::from(task),
            expected: classifier.known_tasks().join(", "),
        });
    };
    let subfamilies = classifier.subfamilies_for_task(task);
    let mut recommendations = Vec::new();
    for entry in catalog.entries() {
        let spec = entry.spec();
        if spec.family != family || !(subfamilies.is_empty() || subfamilies.contains(&spec.subfamily.as_str())) {
            continue;
        }
        let selection = select_hardware(spec, &selection_request(spec, candidates), perf, config)?;
        let Some(primary) = selection.primary_recommendation else {
            continue;
        };
        let Some(p) = selection.all_scores.get(&primary).and_then(|s| s.predictions) else {
            continue;
        };
        let confidence = classifier
            .classify(&ClassifierInput {
                model_name: spec.name.clone(),
                tasks: alloc::vec![String::from(task)],
                ..ClassifierInput::default()
            })
            .confidence;
        recommendations.push(ModelRecommendation {
            model_name: spec.name.clone(),
            family: spec.family,
            subfamily: spec.subfamily,
            parameters: spec.parameters(),
            recommended_hardware: primary,
            predicted_throughput: format!("{:.1} {}", p.throughput, p.throughput_unit),
            recommended_memory_mb: libm::ceil(p.memory_usage * crate::resources::RECOMMENDED_HEADROOM) as u64,
            confidence,
        });
    }
    recommendations.sort_by(|a, b| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(a.parameters.cmp(&b.parameters))
    });
    recommendations.truncate(MAX_RECOMMENDATIONS);
    Ok(TaskRecommendations {
        task: String::from(task),
        hardware_constraints: candidates.iter().map(|c| c.key.clone()).collect(),
        recommendations,
    })
}

/// Which models run on a candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompatibleModels {
    /// The candidate.
    pub hardware: String,
    /// The device it was judged on.
    pub device: String,
    /// Models that run (fp16 inference, batch 1).
    pub compatible: Vec<String>,
    /// Models that do not, with the reason.
    pub incompatible: SortedMap<String, String>,
}

/// Judges each model on `candidate`.
pub fn compatible_models(
    models: &[ModelSpec],
    candidate: &Candidate,
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<CompatibleModels, CoreError> {
    if models.is_empty() {
        return Err(CoreError::EmptyList { what: "models" });
    }
    let mut out = CompatibleModels {
        hardware: candidate.key.clone(),
        device: candidate.device.name.clone(),
        compatible: Vec::new(),
        incompatible: SortedMap::new(),
    };
    for spec in models {
        let s = select_hardware(
            spec,
            &selection_request(spec, core::slice::from_ref(candidate)),
            perf,
            config,
        )?;
        match s.all_scores.get(&candidate.key).and_then(|c| c.excluded.clone()) {
            None => out.compatible.push(spec.name.clone()),
            Some(why) => {
                out.incompatible.insert(spec.name.clone(), why);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeviceCatalog, Family, Subfamily};

    fn on(device: &str) -> Vec<Candidate> {
        crate::candidates_from(&DeviceCatalog::builtin(), &[], &[device]).unwrap()
    }

    fn recommend(task: &str, device: &str) -> Result<TaskRecommendations, CoreError> {
        recommend_models_for_task(
            task,
            &Catalog::builtin(),
            &Classifier::builtin(),
            &on(device),
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        )
    }

    fn names(r: &TaskRecommendations) -> Vec<&str> {
        r.recommendations.iter().map(|m| m.model_name.as_str()).collect()
    }

    #[test]
    fn a_task_maps_to_models_of_its_family_and_subfamily() {
        for (task, family, subfamilies) in [
            (
                "text-generation",
                Family::TextGeneration,
                &[Subfamily::CausalLm, Subfamily::ChatModel][..],
            ),
            (
                "image-classification",
                Family::Vision,
                &[Subfamily::ImageClassifier][..],
            ),
            (
                "automatic-speech-recognition",
                Family::Audio,
                &[Subfamily::SpeechRecognition][..],
            ),
            (
                "feature-extraction",
                Family::Embedding,
                &[Subfamily::SentenceTransformer][..],
            ),
            (
                "zero-shot-image-classification",
                Family::Multimodal,
                &[Subfamily::ImageTextEncoder][..],
            ),
        ] {
            let r = recommend(task, "RTX 4090").unwrap();
            assert_eq!(r.task, task);
            assert_eq!(r.hardware_constraints, ["nvidia-rtx-4090"]);
            assert!(!r.recommendations.is_empty(), "{task}");
            assert!(r.recommendations.len() <= MAX_RECOMMENDATIONS);
            for m in &r.recommendations {
                assert_eq!(m.family, family, "{task}: {}", m.model_name);
                assert!(
                    subfamilies.contains(&m.subfamily),
                    "{task}: {} {}",
                    m.model_name,
                    m.subfamily
                );
                assert_eq!(m.recommended_hardware, "nvidia-rtx-4090");
            }
            // Most confident first, then smallest.
            for pair in r.recommendations.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                assert!(
                    a.confidence > b.confidence || (a.confidence >= b.confidence && a.parameters <= b.parameters),
                    "{task}: {} before {}",
                    a.model_name,
                    b.model_name
                );
            }
        }
        let speech = recommend("automatic-speech-recognition", "RTX 4090").unwrap();
        assert!(names(&speech).iter().any(|n| n.starts_with("openai/whisper")));
        assert!(names(&speech).contains(&"nvidia/parakeet-tdt-0.6b-v3"));
        assert!(!names(&speech).contains(&"google-bert/bert-base-uncased"));
    }

    #[test]
    fn models_that_do_not_fit_the_constraints_are_not_recommended() {
        // LLaVA 1.5 7B: 7.06e9 × 2 B = 14.1 GB of fp16 weights. The T4 (16 GB) holds it; WebAssembly's
        // 4 GB address space does not, so only the small ones (BLIP, 0.25 B; Qwen3-VL-2B) are left there.
        let llava = "llava-hf/llava-1.5-7b-hf";
        let blip = "Salesforce/blip-image-captioning-base";
        let t4 = recommend("image-to-text", "T4").unwrap();
        assert!(
            names(&t4).contains(&llava) && names(&t4).contains(&blip),
            "{:?}",
            names(&t4)
        );
        let wasm = recommend("image-to-text", "wasm").unwrap();
        assert!(
            names(&wasm).contains(&blip) && !names(&wasm).contains(&llava),
            "{:?}",
            names(&wasm)
        );
        assert!(wasm.recommendations.iter().all(|r| r.recommended_hardware == "wasm"));
    }

    #[test]
    fn an_unknown_task_is_an_error_listing_the_known_ones() {
        let err = recommend("make-coffee", "RTX 4090").unwrap_err();
        let CoreError::UnknownValue { what, value, expected } = err else {
            panic!("{err:?}");
        };
        assert_eq!((what, value.as_str()), ("task", "make-coffee"));
        assert!(expected.split(", ").any(|t| t == "text-generation"), "{expected}");
    }

    #[test]
    fn incompatible_models_are_listed_with_the_reason() {
        let models: Vec<ModelSpec> = ["gpt2", "llama 3 70b", "bert-base-uncased"]
            .iter()
            .map(|n| Catalog::builtin().resolve(n).unwrap().spec)
            .collect();
        let candidate = &on("RTX 4090")[0];
        let c = compatible_models(
            &models,
            candidate,
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        )
        .unwrap();
        assert_eq!(c.hardware, "nvidia-rtx-4090");
        assert_eq!(c.device, "NVIDIA GeForce RTX 4090");
        assert_eq!(c.compatible, ["openai-community/gpt2", "google-bert/bert-base-uncased"]);
        assert_eq!(c.incompatible.len(), 1);
        // Llama 3 70B needs at least its fp16 weights: 70.55e9 × 2 B = 131.4 GiB.
        let why = &c.incompatible["meta-llama/Meta-Llama-3-70B"];
        let needs: f64 = why
            .strip_prefix("does not fit in 24.0 GB (needs ")
            .and_then(|r| r.strip_suffix(" GB)"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{why}"));
        assert!(needs > 131.4, "{why}");
        let none = compatible_models(
            &[],
            candidate,
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        );
        assert_eq!(none.unwrap_err(), CoreError::EmptyList { what: "models" });
    }
}
