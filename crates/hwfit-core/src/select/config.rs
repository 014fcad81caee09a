//! The selection configuration, in IPFS Accelerate's JSON shape: selection-criteria weights, family
//! preferences, hardware preferences, batch-size thresholds and model-size categories. Unknown keys,
//! wrong types, negative or non-finite numbers and unordered thresholds are refused with the field named.
//! Its keys are snake_case in every face, the npm package's included: it is a file format, read and
//! written the same way.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::{CoreError, Family, HardwareType};

/// Weights of the inference criteria.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct InferenceWeights {
    /// Weight of (best latency / latency).
    pub latency_weight: f64,
    /// Weight of (throughput / best throughput).
    pub throughput_weight: f64,
    /// Weight of the memory headroom (1 − usage / capacity).
    pub memory_weight: f64,
    /// Weight of the support level (real 1, limited 0.5).
    pub compatibility_weight: f64,
}

/// Weights of the training criteria.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TrainingWeights {
    /// Weight of (throughput / best throughput).
    pub throughput_weight: f64,
    /// Weight of numerical support for the training precision (real 1, limited 0.5).
    pub convergence_weight: f64,
    /// Weight of the memory headroom.
    pub memory_weight: f64,
    /// Weight of the support level.
    pub compatibility_weight: f64,
}

/// Criteria weights per mode.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SelectionCriteria {
    /// Inference.
    pub inference: InferenceWeights,
    /// Training.
    pub training: TrainingWeights,
}

string_enum! {
    /// How much a factor matters for a family.
    pub enum Importance: "importance" {
        /// Weighs ×0.75.
        Low => "low",
        /// Weighs ×1.
        Medium => "medium",
        /// Weighs ×1.5.
        High => "high",
    }
}

impl Importance {
    /// The multiplier applied to the criterion it modulates.
    #[must_use]
    pub const fn factor(self) -> f64 {
        match self {
            Self::Low => 0.75,
            Self::Medium => 1.0,
            Self::High => 1.5,
        }
    }
}

/// A family's preferences: batch-size importance scales the throughput weight when the batch is at
/// least `medium`; model-size importance scales the memory weight when the model is at least `medium`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FamilyPreference {
    /// Importance of batch size.
    pub batch_size_importance: Importance,
    /// Importance of model size.
    pub model_size_importance: Importance,
}

/// A hardware type's preference factors (0–1). Their mean scales a candidate's score by at most
/// ±10 %, so preferences break ties but never override predicted performance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HardwarePreference {
    /// Relative cost (1 = cheapest).
    pub cost_factor: f64,
    /// Relative availability.
    pub availability_factor: f64,
    /// Relative power efficiency.
    pub power_factor: f64,
}

/// Three ascending thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Small up to here.
    pub small: f64,
    /// Medium up to here.
    pub medium: f64,
    /// Large from here.
    pub large: f64,
}

/// The whole configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SelectionConfig {
    /// Criteria weights.
    pub selection_criteria: SelectionCriteria,
    /// Per-family preferences.
    #[serde(default)]
    pub model_families: SortedMap<Family, FamilyPreference>,
    /// Per-hardware preferences.
    #[serde(default)]
    pub hardware_preferences: SortedMap<HardwareType, HardwarePreference>,
    /// Batch-size thresholds (items).
    pub batch_size_thresholds: Thresholds,
    /// Model-size categories (parameters).
    pub model_size_categories: Thresholds,
}

impl Default for SelectionConfig {
    /// IPFS Accelerate's defaults.
    fn default() -> Self {
        let pref = |b, m| FamilyPreference {
            batch_size_importance: b,
            model_size_importance: m,
        };
        Self {
            selection_criteria: SelectionCriteria {
                inference: InferenceWeights {
                    latency_weight: 0.4,
                    throughput_weight: 0.3,
                    memory_weight: 0.2,
                    compatibility_weight: 0.1,
                },
                training: TrainingWeights {
                    throughput_weight: 0.4,
                    convergence_weight: 0.3,
                    memory_weight: 0.2,
                    compatibility_weight: 0.1,
                },
            },
            model_families: [
                (Family::Embedding, pref(Importance::Medium, Importance::Low)),
                (Family::TextGeneration, pref(Importance::Low, Importance::High)),
                (Family::Vision, pref(Importance::High, Importance::Medium)),
                (Family::Audio, pref(Importance::Medium, Importance::Medium)),
                (Family::Multimodal, pref(Importance::Medium, Importance::High)),
            ]
            .into_iter()
            .collect(),
            hardware_preferences: SortedMap::new(),
            batch_size_thresholds: Thresholds {
                small: 1.0,
                medium: 8.0,
                large: 32.0,
            },
            model_size_categories: Thresholds {
                small: 1e8,
                medium: 1e9,
                large: 1e10,
            },
        }
    }
}

/// A JSON error with the key nearest before its position, so a message such as "invalid type" or
/// "expected value" (a `NaN` or `Infinity`, which JSON does not have) names the field at fault.
fn describe_json_error(json: &str, e: &serde_json::Error) -> String {
    let offset: usize = json
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + e.column();
    let before = json.get(..offset.min(json.len())).unwrap_or(json);
    let key = before.rmatch_indices("\":").next().and_then(|(end, _)| {
        let start = before[..end].rfind('"')?;
        Some(&before[start + 1..end])
    });
    match key {
        Some(k) if !format!("{e}").contains(k) => format!("{e} (at '{k}')"),
        _ => format!("{e}"),
    }
}

fn check(field: &str, value: f64, max: Option<f64>) -> Result<(), CoreError> {
    let bad = |reason: &'static str| {
        Err(CoreError::InvalidSelectionConfig(format!(
            "{field} = {value}: {reason}"
        )))
    };
    if !value.is_finite() {
        return bad("not a finite number");
    }
    if value < 0.0 {
        return bad("negative");
    }
    if max.is_some_and(|m| value > m) {
        return bad("above 1");
    }
    Ok(())
}

fn check_thresholds(name: &str, t: &Thresholds) -> Result<(), CoreError> {
    for (k, v) in [("small", t.small), ("medium", t.medium), ("large", t.large)] {
        check(&format!("{name}.{k}"), v, None)?;
    }
    if !(t.small < t.medium && t.medium < t.large) {
        return Err(CoreError::InvalidSelectionConfig(format!(
            "{name}: small < medium < large is required"
        )));
    }
    Ok(())
}

impl SelectionConfig {
    /// Parses and validates a configuration file's JSON (non-standard `NaN`/`Infinity` tokens are
    /// already refused by the JSON parser).
    pub fn from_json(json: &str) -> Result<Self, CoreError> {
        let config: Self =
            serde_json::from_str(json).map_err(|e| CoreError::InvalidSelectionConfig(describe_json_error(json, &e)))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every number.
    pub fn validate(&self) -> Result<(), CoreError> {
        let i = &self.selection_criteria.inference;
        let t = &self.selection_criteria.training;
        for (k, v) in [
            ("latency_weight", i.latency_weight),
            ("throughput_weight", i.throughput_weight),
            ("memory_weight", i.memory_weight),
            ("compatibility_weight", i.compatibility_weight),
        ] {
            check(&format!("selection_criteria.inference.{k}"), v, None)?;
        }
        for (k, v) in [
            ("throughput_weight", t.throughput_weight),
            ("convergence_weight", t.convergence_weight),
            ("memory_weight", t.memory_weight),
            ("compatibility_weight", t.compatibility_weight),
        ] {
            check(&format!("selection_criteria.training.{k}"), v, None)?;
        }
        if i.latency_weight + i.throughput_weight + i.memory_weight + i.compatibility_weight <= 0.0
            || t.throughput_weight + t.convergence_weight + t.memory_weight + t.compatibility_weight <= 0.0
        {
            return Err(CoreError::InvalidSelectionConfig(String::from(
                "selection_criteria: the weights of a mode sum to zero",
            )));
        }
        for (hw, p) in &self.hardware_preferences {
            for (k, v) in [
                ("cost_factor", p.cost_factor),
                ("availability_factor", p.availability_factor),
                ("power_factor", p.power_factor),
            ] {
                check(&format!("hardware_preferences.{hw}.{k}"), v, Some(1.0))?;
            }
        }
        check_thresholds("batch_size_thresholds", &self.batch_size_thresholds)?;
        check_thresholds("model_size_categories", &self.model_size_categories)
    }

    /// IPFS Accelerate's size category of a parameter count: `small` up to `small`, `medium` up to `medium`,
    /// else `large`.
    #[must_use]
    pub fn size_category(&self, parameters: u64) -> &'static str {
        let p = parameters as f64;
        if p <= self.model_size_categories.small {
            "small"
        } else if p <= self.model_size_categories.medium {
            "medium"
        } else {
            "large"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn defaults_are_valid_and_round_trip() {
        let c = SelectionConfig::default();
        c.validate().unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(SelectionConfig::from_json(&json).unwrap(), c);
        assert_eq!(c.size_category(110_000_000), "medium");
    }

    #[test]
    fn bad_configs_name_the_field() {
        let json = serde_json::to_string(&SelectionConfig::default()).unwrap();
        let err = |from: &str, to: &str| {
            SelectionConfig::from_json(&json.replacen(from, to, 1))
                .unwrap_err()
                .to_string()
        };
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":-1.0")
            .contains("selection_criteria.inference.latency_weight = -1: negative"));
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":NaN").contains("expected value at line 1 column"));
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":NaN").contains("(at 'latency_weight')"));
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":Infinity").contains("(at 'latency_weight')"));
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":\"high\"")
            .contains("invalid type: string \"high\", expected f64 at line 1 column"));
        assert!(err("\"latency_weight\":0.4", "\"latency_weight\":\"high\"").contains("(at 'latency_weight')"));
        assert!(err("\"latency_weight\":0.4", "\"latency_wieght\":0.4").contains("unknown field `latency_wieght`"));
        assert!(err("\"medium\":8.0", "\"medium\":80.0").contains("small < medium < large"));
        assert!(
            err("\"medium\":8.0", "\"medium\":1e999").contains("number out of range")
                || err("\"medium\":8.0", "\"medium\":1e999").contains("not a finite")
        );
    }
}
