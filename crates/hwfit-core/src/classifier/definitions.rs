//! Family definitions: the classifier's knowledge as data, in IPFS Accelerate's custom-family JSON shape
//! (`description`, `keywords`, `tasks`, `methods`) extended with `hints`, `class_patterns`,
//! `template`, `default_subfamily` and nested `subfamilies`.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::CoreError;

/// The built-in definitions shipped with hwfit.
const BUILTIN_JSON: &str = include_str!("../../data/families.json");

/// One family (or, nested, one subfamily) and the evidence that points to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FamilyDefinition {
    /// What the family is.
    #[serde(default)]
    pub description: String,
    /// Starter template recommended for the family.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// Subfamily assumed when no evidence names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_subfamily: Option<String>,
    /// Architecture and model names (strong evidence in a model's name or class).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Generic words that suggest the family (weak evidence in a name).
    #[serde(default)]
    pub hints: Vec<String>,
    /// Hugging Face pipeline tags.
    #[serde(default)]
    pub tasks: Vec<String>,
    /// Method names a model object offers.
    #[serde(default)]
    pub methods: Vec<String>,
    /// Lower-case suffixes of `transformers` class names (`formaskedlm`, `lmheadmodel`).
    #[serde(default)]
    pub class_patterns: Vec<String>,
    /// Subfamilies, by name.
    #[serde(default, skip_serializing_if = "SortedMap::is_empty")]
    pub subfamilies: SortedMap<String, FamilyDefinition>,
}

impl FamilyDefinition {
    fn has_evidence(&self) -> bool {
        !(self.keywords.is_empty()
            && self.hints.is_empty()
            && self.tasks.is_empty()
            && self.methods.is_empty()
            && self.class_patterns.is_empty())
    }
}

/// Parses a JSON object of family definitions (family name → definition).
pub fn parse_definitions(json: &str) -> Result<SortedMap<String, FamilyDefinition>, CoreError> {
    let defs: SortedMap<String, FamilyDefinition> =
        serde_json::from_str(json).map_err(|e| CoreError::InvalidFamilyDefinitions(format!("{e}")))?;
    if defs.is_empty() {
        return Err(CoreError::InvalidFamilyDefinitions(String::from("no families defined")));
    }
    for (name, def) in &defs {
        if name.trim().is_empty() {
            return Err(CoreError::InvalidFamilyDefinitions(String::from(
                "a family has an empty name",
            )));
        }
        if !def.has_evidence() {
            return Err(CoreError::InvalidFamilyDefinitions(format!(
                "family '{name}' has no keywords, hints, tasks, methods or class_patterns"
            )));
        }
        if let Some(default) = &def.default_subfamily {
            if !def.subfamilies.contains_key(default) {
                return Err(CoreError::InvalidFamilyDefinitions(format!(
                    "family '{name}': default_subfamily '{default}' is not one of its subfamilies"
                )));
            }
        }
    }
    Ok(defs)
}

/// The built-in definitions (`crates/hwfit-core/data/families.json`), or the error naming that file.
pub fn builtin_definitions() -> Result<SortedMap<String, FamilyDefinition>, CoreError> {
    parse_definitions(BUILTIN_JSON).map_err(|e| CoreError::BrokenBuiltinData {
        file: "crates/hwfit-core/data/families.json",
        message: alloc::format!("{e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn builtin_definitions_parse_and_cover_the_five_families() {
        let defs = parse_definitions(BUILTIN_JSON).unwrap();
        for family in crate::Family::ALL {
            let def = defs.get(family.as_str()).unwrap();
            for sub in def.subfamilies.keys() {
                let parsed: crate::Subfamily = sub.parse().unwrap();
                assert_eq!(parsed.family(), *family);
            }
        }
    }

    #[test]
    fn bad_definitions_are_refused_with_the_reason() {
        let err = parse_definitions(r#"{"retrieval": {"keywords": "rag"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid type"), "{err}");
        let err = parse_definitions(r#"{"retrieval": {"keywordz": ["rag"]}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `keywordz`"), "{err}");
        let err = parse_definitions(r#"{"retrieval": {"description": "x"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("has no keywords"), "{err}");
        assert!(parse_definitions("{}").is_err());
    }
}
