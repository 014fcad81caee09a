//! Task → model recommendations under hardware constraints, and the models a hardware type can run
//! (the integration guide's `recommend_model_for_task` and `get_compatible_models_for_hardware`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::PerfModel;
use crate::select::{select_hardware, Candidate, SelectionConfig, SelectionRequest};
use crate::spec::ModelSpec;
use crate::{Catalog, Classifier, ClassifyRequest, CoreError, Mode};

/// One recommended model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

fn selection_request(spec: &ModelSpec, candidates: &[Candidate]) -> SelectionRequest {
    SelectionRequest {
        batch_size: 1,
        seq_length: crate::api::defaults::SEQUENCE_LENGTH.min(spec.max_positions.max(1)),
        mode: Mode::Inference,
        precision: crate::api::defaults::POOL_PRECISION,
        task_type: None,
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
    let by_task = classifier.classify(&ClassifyRequest {
        model_name: String::new(),
        tasks: alloc::vec![String::from(task)],
        ..ClassifyRequest::default()
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
            .classify(&ClassifyRequest {
                model_name: spec.name.clone(),
                tasks: alloc::vec![String::from(task)],
                ..ClassifyRequest::default()
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompatibleModels {
    /// The candidate.
    pub hardware: String,
    /// The device it was judged on.
    pub device: String,
    /// Models that run (fp16 inference, batch 1).
    pub compatible: Vec<String>,
    /// Models that do not, with the reason.
    pub incompatible: BTreeMap<String, String>,
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
        incompatible: BTreeMap::new(),
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
