//! The model family classifier: five analyses (name, class, tasks, methods, hardware
//! compatibility), each with its own confidence, combined by weight into a family, a subfamily and
//! their confidences, plus the recommended starter template. Families are data
//! ([`FamilyDefinition`]); custom definitions extend or replace the built-in ones.

mod analyses;
mod definitions;
mod matching;

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use definitions::{builtin_definitions, parse_definitions, FamilyDefinition};
use matching::Keyword;

use crate::{CoreError, Family, Subfamily};

/// Weight of each analysis when the analyses are combined (the guide's "weighted analysis").
const WEIGHTS: &[(&str, f64)] = &[
    ("task_analysis", 1.0),
    ("class_analysis", 0.9),
    ("name_analysis", 0.7),
    ("method_analysis", 0.5),
    ("hardware_analysis", 0.3),
];

/// The classifier's input: what is known about a model (IPFS Accelerate's `classify_model`
/// arguments; the `classify` question's request is [`crate::api::ClassifyModelRequest`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ClassifierInput {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// `transformers` class name, e.g. `GPT2LMHeadModel`.
    pub model_class: Option<String>,
    /// Hugging Face pipeline tags.
    pub tasks: Vec<String>,
    /// Method names the model offers.
    pub methods: Vec<String>,
    /// Hardware compatibility profile, by hardware type.
    pub hw_compatibility: Option<SortedMap<String, HardwareCompat>>,
}

impl ClassifierInput {
    /// A request with the name alone.
    #[must_use]
    pub fn named(name: &str) -> Self {
        Self {
            model_name: String::from(name),
            ..Self::default()
        }
    }
}

/// One hardware type's entry in a compatibility profile.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HardwareCompat {
    /// Whether the model runs there.
    pub compatible: bool,
    /// Memory observed there.
    pub memory_usage: Option<MemoryUsage>,
}

/// Memory figures of a compatibility profile, in MB.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct MemoryUsage {
    /// Peak memory in MB.
    pub peak: Option<f64>,
}

/// One analysis's opinion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Analysis {
    /// Which analysis (`name_analysis`, `class_analysis`, `task_analysis`, `method_analysis`,
    /// `hardware_analysis`).
    pub source: String,
    /// The family it points to, if any.
    pub family: Option<String>,
    /// Its confidence in that family (0–1).
    pub confidence: f64,
    /// The subfamily it points to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subfamily: Option<String>,
    /// Its confidence in that subfamily.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subfamily_confidence: Option<f64>,
    /// What it found.
    pub evidence: Vec<String>,
}

impl Analysis {
    fn none(source: &str) -> Self {
        Self {
            source: String::from(source),
            family: None,
            confidence: 0.0,
            subfamily: None,
            subfamily_confidence: None,
            evidence: Vec::new(),
        }
    }
}

/// The classifier's answer (IPFS Accelerate's result structure, plus the recommended template).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Classification {
    /// The name classified.
    pub model_name: String,
    /// The family, or `None` when nothing pointed anywhere.
    pub family: Option<String>,
    /// The subfamily.
    pub subfamily: Option<String>,
    /// Combined confidence in the family (0–1).
    pub confidence: f64,
    /// Combined confidence in the subfamily (0–1).
    pub subfamily_confidence: f64,
    /// `combined_analysis`, or `model_db` when answered from a model database.
    pub source: String,
    /// The individual analyses.
    pub analyses: Vec<Analysis>,
    /// The starter template recommended for the family and subfamily.
    pub recommended_template: Option<String>,
}

impl Classification {
    /// The family as a built-in [`Family`] (`None` for custom or unknown families).
    #[must_use]
    pub fn builtin_family(&self) -> Option<Family> {
        self.family.as_deref().and_then(|f| f.parse().ok())
    }

    /// The subfamily as a built-in [`Subfamily`].
    #[must_use]
    pub fn builtin_subfamily(&self) -> Option<Subfamily> {
        self.subfamily.as_deref().and_then(|f| f.parse().ok())
    }
}

/// A subfamily with its prepared keywords.
#[derive(Debug, Clone)]
struct CompiledSubfamily {
    name: String,
    def: FamilyDefinition,
    keywords: Vec<Keyword>,
    hints: Vec<Keyword>,
}

/// A family with its prepared keywords.
#[derive(Debug, Clone)]
struct CompiledFamily {
    name: String,
    def: FamilyDefinition,
    keywords: Vec<Keyword>,
    hints: Vec<Keyword>,
    subfamilies: Vec<CompiledSubfamily>,
    /// User-defined: its evidence outweighs overlapping built-in evidence.
    preferred: bool,
}

fn keywords(list: &[String]) -> Vec<Keyword> {
    list.iter().map(|k| Keyword::new(k)).collect()
}

/// The model family classifier.
#[derive(Debug, Clone)]
pub struct Classifier {
    families: Vec<CompiledFamily>,
}

fn round3(x: f64) -> f64 {
    libm::round(x * 1000.0) / 1000.0
}

impl Classifier {
    /// A classifier over the built-in family definitions.
    ///
    /// # Panics
    /// If the embedded `families.json` does not parse (a test checks it does); the faces use
    /// [`crate::Hwfit::builtin`], which returns the error instead.
    #[must_use]
    pub fn builtin() -> Self {
        Self::try_builtin().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The classifier over the built-in definitions, or the error naming their file.
    pub fn try_builtin() -> Result<Self, CoreError> {
        Ok(Self::from_definitions(builtin_definitions()?))
    }

    /// A classifier over the given definitions only.
    #[must_use]
    pub fn from_definitions(defs: SortedMap<String, FamilyDefinition>) -> Self {
        Self::compile(defs, &[])
    }

    fn compile(defs: SortedMap<String, FamilyDefinition>, preferred: &[String]) -> Self {
        let families = defs
            .into_iter()
            .map(|(name, def)| CompiledFamily {
                preferred: preferred.contains(&name),
                keywords: keywords(&def.keywords),
                hints: keywords(&def.hints),
                subfamilies: def
                    .subfamilies
                    .iter()
                    .map(|(sub, sd)| CompiledSubfamily {
                        name: sub.clone(),
                        keywords: keywords(&sd.keywords),
                        hints: keywords(&sd.hints),
                        def: sd.clone(),
                    })
                    .collect(),
                name,
                def,
            })
            .collect();
        Self { families }
    }

    /// The built-in definitions extended by custom ones given as JSON (a custom family with a
    /// built-in name replaces it), like IPFS Accelerate's `ModelFamilyClassifier(model_family_defs=…)`.
    /// Where custom and built-in evidence overlap, the custom family wins.
    pub fn with_custom_definitions(json: &str) -> Result<Self, CoreError> {
        let custom = parse_definitions(json)?;
        let names: Vec<String> = custom.keys().cloned().collect();
        let mut defs = builtin_definitions()?;
        defs.extend(custom);
        Ok(Self::compile(defs, &names))
    }

    /// The family names this classifier knows.
    pub fn family_names(&self) -> impl Iterator<Item = &str> {
        self.families.iter().map(|f| f.name.as_str())
    }

    /// Every pipeline task some family claims, sorted.
    #[must_use]
    pub fn known_tasks(&self) -> Vec<&str> {
        let mut tasks: Vec<&str> = self
            .families
            .iter()
            .flat_map(|f| f.def.tasks.iter().map(String::as_str))
            .collect();
        tasks.sort_unstable();
        tasks.dedup();
        tasks
    }

    /// The subfamilies whose definitions list `task`.
    #[must_use]
    pub fn subfamilies_for_task(&self, task: &str) -> Vec<&str> {
        let key = crate::text::normalize_key(task);
        self.families
            .iter()
            .flat_map(|f| f.subfamilies.iter())
            .filter(|s| s.def.tasks.iter().any(|t| crate::text::normalize_key(t) == key))
            .map(|s| s.name.as_str())
            .collect()
    }

    /// The template recommended for a family and subfamily: the subfamily's, else the family's,
    /// else `hf_<family>_template.py`.
    #[must_use]
    pub fn template_for(&self, family: &str, subfamily: Option<&str>) -> String {
        let fam = self.families.iter().find(|f| f.name == family);
        let sub_template = fam
            .and_then(|f| f.subfamilies.iter().find(|s| Some(s.name.as_str()) == subfamily))
            .and_then(|s| s.def.template.clone());
        sub_template
            .or_else(|| fam.and_then(|f| f.def.template.clone()))
            .unwrap_or_else(|| format!("hf_{family}_template.py"))
    }

    /// Classifies a model from everything the request says about it.
    #[must_use]
    pub fn classify(&self, request: &ClassifierInput) -> Classification {
        let mut analyses = Vec::new();
        analyses.push(analyses::name_analysis(&self.families, &request.model_name));
        if let Some(class) = request.model_class.as_deref().filter(|c| !c.trim().is_empty()) {
            analyses.push(analyses::class_analysis(&self.families, class));
        }
        if !request.tasks.is_empty() {
            analyses.push(analyses::task_analysis(&self.families, &request.tasks));
        }
        if !request.methods.is_empty() {
            analyses.push(analyses::method_analysis(&self.families, &request.methods));
        }
        if let Some(profile) = request.hw_compatibility.as_ref().filter(|p| !p.is_empty()) {
            analyses.push(analyses::hardware_analysis(&self.families, profile));
        }
        for a in &mut analyses {
            a.confidence = round3(a.confidence);
            a.subfamily_confidence = a.subfamily_confidence.map(round3);
        }
        self.combine(&request.model_name, analyses)
    }

    fn combine(&self, model_name: &str, analyses: Vec<Analysis>) -> Classification {
        let weight = |source: &str| WEIGHTS.iter().find(|(s, _)| *s == source).map_or(0.0, |(_, w)| *w);
        let mut scores: SortedMap<&str, f64> = SortedMap::new();
        let mut total = 0.0;
        for a in analyses.iter().filter(|a| a.family.is_some()) {
            let w = weight(&a.source);
            total += w;
            *scores.entry(a.family.as_deref().unwrap_or_default()).or_default() += w * a.confidence;
        }
        let winner = scores
            .iter()
            .max_by(|a, b| a.1.partial_cmp(b.1).unwrap_or(core::cmp::Ordering::Equal))
            .map(|(f, s)| (String::from(*f), *s));
        let Some((family, score)) = winner else {
            return Classification {
                model_name: String::from(model_name),
                family: None,
                subfamily: None,
                confidence: 0.0,
                subfamily_confidence: 0.0,
                source: String::from("combined_analysis"),
                analyses,
                recommended_template: None,
            };
        };
        let mut sub_scores: SortedMap<&str, f64> = SortedMap::new();
        let mut sub_total = 0.0;
        for a in analyses.iter().filter(|a| a.family.as_deref() == Some(family.as_str())) {
            let w = weight(&a.source);
            sub_total += w;
            if let (Some(sub), Some(c)) = (a.subfamily.as_deref(), a.subfamily_confidence) {
                *sub_scores.entry(sub).or_default() += w * c;
            }
        }
        let best_sub = sub_scores
            .iter()
            .max_by(|a, b| a.1.partial_cmp(b.1).unwrap_or(core::cmp::Ordering::Equal))
            .map(|(s, c)| (String::from(*s), c / sub_total));
        let fam_def = self.families.iter().find(|f| f.name == family);
        let (subfamily, subfamily_confidence) = match best_sub {
            Some((s, c)) => (Some(s), c),
            // No evidence named a subfamily: the family's default, with half the family's confidence.
            None => (
                fam_def.and_then(|f| f.def.default_subfamily.clone()),
                score / total / 2.0,
            ),
        };
        let recommended_template = Some(self.template_for(&family, subfamily.as_deref()));
        Classification {
            model_name: String::from(model_name),
            confidence: round3(score / total),
            subfamily_confidence: if subfamily.is_some() {
                round3(subfamily_confidence)
            } else {
                0.0
            },
            family: Some(family),
            subfamily,
            source: String::from("combined_analysis"),
            analyses,
            recommended_template,
        }
    }
}

#[cfg(test)]
mod tests;
