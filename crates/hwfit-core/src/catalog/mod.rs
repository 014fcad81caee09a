//! The model catalog: well-known models with their architecture numbers, resolved by the names
//! people use (with or without the organisation, any case, any separators).

pub(crate) mod build;
mod configs;
mod entries;
mod sam2;
mod yolo;

pub use configs::config_of;

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::checkpoint::CheckpointFormat;
use crate::spec::{Component, ModelSpec};
use crate::text::{edit_distance, normalize_key};
use crate::{name_estimate, CoreError, Subfamily};

/// Where a `ModelSpec` came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all_fields(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SpecSource {
    /// The built-in catalog; `reference` names the published source of the numbers.
    Catalog {
        /// The published source.
        reference: String,
    },
    /// A Hugging Face `config.json` given by the user.
    HfConfig {
        /// The config's `model_type`.
        model_type: String,
        /// How the config was read when hwfit does not know its model type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// Estimated from the model's name alone; `basis` says what was read from it.
    NameEstimate {
        /// What the estimate rests on, e.g. "'7b' in the name: 7 B parameters".
        basis: String,
    },
}

impl SpecSource {
    /// Whether the numbers are an estimate rather than published architecture facts.
    #[must_use]
    pub fn is_estimate(&self) -> bool {
        matches!(self, Self::NameEstimate { .. })
    }
}

/// A model spec together with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResolvedModel {
    /// The architecture facts.
    pub spec: ModelSpec,
    /// Their origin.
    pub source: SpecSource,
    /// The format the checkpoint is published in, when its config or its name states one: a
    /// question that states no precision is answered at it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointFormat>,
}

/// One catalog entry.
#[derive(Debug, Clone)]
pub struct CatalogEntry {
    spec: ModelSpec,
    aliases: &'static [&'static str],
    reference: &'static str,
    keys: Vec<String>,
    checkpoint: Option<CheckpointFormat>,
}

/// One row of the catalog listing (`hwfit models`, the npm package's `models()`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CatalogSummary<'a> {
    /// Canonical name.
    pub name: &'a str,
    /// Family.
    pub family: crate::Family,
    /// Subfamily.
    pub subfamily: crate::Subfamily,
    /// Parameters, computed from the architecture.
    pub parameters: u64,
    /// Longest sequence.
    pub max_positions: u32,
    /// Other names it resolves from.
    pub aliases: &'a [&'a str],
    /// Where the architecture figures come from.
    pub reference: &'a str,
}

impl CatalogEntry {
    /// The entry's listing row.
    #[must_use]
    pub fn summary(&self) -> CatalogSummary<'_> {
        CatalogSummary {
            name: &self.spec.name,
            family: self.spec.family,
            subfamily: self.spec.subfamily,
            parameters: self.spec.parameters(),
            max_positions: self.spec.max_positions,
            aliases: self.aliases,
            reference: self.reference,
        }
    }

    fn new(
        id: &str,
        subfamily: Subfamily,
        max_positions: u32,
        components: Vec<Component>,
        reference: &'static str,
    ) -> Self {
        let spec = ModelSpec {
            name: String::from(id),
            family: subfamily.family(),
            subfamily,
            components,
            max_positions,
        };
        let mut entry = Self {
            spec,
            aliases: &[],
            reference,
            keys: Vec::new(),
            checkpoint: None,
        };
        entry.rebuild_keys();
        entry
    }

    fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self.rebuild_keys();
        self
    }

    fn checkpoint(mut self, checkpoint: Option<CheckpointFormat>) -> Self {
        self.checkpoint = checkpoint;
        self
    }

    fn rebuild_keys(&mut self) {
        let id = self.spec.name.as_str();
        let short = id.rsplit('/').next().unwrap_or(id);
        let mut keys: Vec<String> = Vec::new();
        for key in [id, short].iter().chain(self.aliases).map(|k| normalize_key(k)) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        self.keys = keys;
    }

    /// The model's architecture facts.
    #[must_use]
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// Other names it resolves from.
    #[must_use]
    pub fn alias_names(&self) -> &'static [&'static str] {
        self.aliases
    }

    /// The published source of the numbers.
    #[must_use]
    pub fn reference(&self) -> &'static str {
        self.reference
    }

    fn resolved(&self) -> ResolvedModel {
        ResolvedModel {
            spec: self.spec.clone(),
            source: SpecSource::Catalog {
                reference: String::from(self.reference),
            },
            checkpoint: self.checkpoint.clone(),
        }
    }
}

/// The built-in model catalog.
#[derive(Debug, Clone)]
pub struct Catalog {
    entries: Vec<CatalogEntry>,
}

impl Catalog {
    /// The models hwfit knows out of the box.
    #[must_use]
    pub fn builtin() -> Self {
        let mut entries = entries::all();
        let from_configs = configs::entries(&entries);
        entries.extend(from_configs);
        Self { entries }
    }

    /// All entries, in catalog order (grouped by family).
    #[must_use]
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// Finds a catalog model by name, id, short name or alias, ignoring case and separators.
    #[must_use]
    pub fn lookup(&self, name: &str) -> Option<ResolvedModel> {
        let key = normalize_key(name);
        if key.is_empty() {
            return None;
        }
        self.entries
            .iter()
            .find(|e| e.keys.contains(&key))
            .map(CatalogEntry::resolved)
    }

    /// Resolves a name: a catalog model, else an estimate read from the name (`-7b`, `-350m`,
    /// `base`, `large` …), else an [`CoreError::UnknownModel`] listing the closest catalog names.
    pub fn resolve(&self, name: &str) -> Result<ResolvedModel, CoreError> {
        crate::api::defaults::check_name_length("model name", name)?;
        if let Some(found) = self.lookup(name) {
            return Ok(found);
        }
        if let Some(found) = self.lookup_under_organisation(name) {
            return Ok(found);
        }
        if let Some(found) = self.lookup_repackaged(name) {
            return Ok(found);
        }
        name_estimate::estimate(name).ok_or_else(|| CoreError::UnknownModel {
            name: String::from(name),
            suggestions: self.closest(name, 3).join(", "),
        })
    }

    /// A name with an organisation whose model part is a catalog name or alias
    /// (`deepseek-ai/DeepSeek-R1`, an alias of DeepSeek-V3's architecture): under the catalog model's
    /// own organisation it is that model; under another it is that model repackaged.
    fn lookup_under_organisation(&self, name: &str) -> Option<ResolvedModel> {
        let (organisation, model) = name.split_once('/')?;
        let found = self.lookup(model)?;
        let own = found
            .spec
            .name
            .split_once('/')
            .is_some_and(|(o, _)| o.eq_ignore_ascii_case(organisation));
        Some(if own { found } else { repackaged(found, name) })
    }

    /// A repackaged model by its base: another organisation's upload (`unsloth/…`, `mlx-community/…`),
    /// a format or quantization suffix (`-GGUF`, `-AWQ`, `-FP8`, `-4bit`, `-Q4_K_M`), a release date
    /// (`-2507`) or a variant (`-Instruct`, `-it`, `-pt`, `-Base`, `-Thinking`, `-reasoning`) over a
    /// catalog model: the same architecture. The answer's source says how the name was read.
    #[must_use]
    pub fn lookup_repackaged(&self, name: &str) -> Option<ResolvedModel> {
        const SUFFIXES: &[&str] = &[
            "gguf",
            "awq",
            "gptq",
            "fp8",
            "dynamic",
            "int4",
            "int8",
            "w4a16",
            "w8a8",
            "bnb",
            "4bit",
            "8bit",
            "mlx",
            "nvfp4",
            "mxfp4",
            "instruct",
            "it",
            "pt",
            "chat",
            "base",
            "hf",
            "unsloth",
            "i1",
            "imat",
            "imatrix",
            "thinking",
            "reasoning",
        ];
        let short = name.rsplit('/').next().unwrap_or(name);
        let mut segments: Vec<&str> = short.split(['-', '_', '.']).collect();
        // A variant word before a version or size (`Mixtral-8x7B-Instruct-v0.1` over
        // `Mixtral-8x7B-v0.1`): the same name without it.
        let variant = |s: &&str| matches!(s.to_ascii_lowercase().as_str(), "instruct" | "chat" | "it");
        let inner = segments.iter().rposition(variant).filter(|&i| i + 1 < segments.len());
        if let Some(i) = inner {
            let mut without = segments.clone();
            without.remove(i);
            if let Some(found) = self.lookup(&without.join("-")) {
                return Some(repackaged(found, name));
            }
        }
        // Precision names carry their own separators (`Q4_K_M`): cut at the first one that parses.
        let joined = |parts: &[&str]| parts.join("-");
        let mut tried: Vec<String> = Vec::new();
        while segments.len() > 1 {
            let last = segments[segments.len() - 1].to_ascii_lowercase();
            let tail_precision =
                (1..segments.len()).find(|&i| segments[i..].join("_").parse::<crate::Precision>().is_ok());
            if let Some(i) = tail_precision {
                segments.truncate(i);
            } else if SUFFIXES.contains(&last.as_str()) || (last.len() == 4 && last.bytes().all(|b| b.is_ascii_digit()))
            {
                segments.pop();
            } else {
                break;
            }
            let base = joined(&segments);
            for candidate in [
                base.clone(),
                alloc::format!("{base}-Instruct"),
                alloc::format!("{base}-it"),
            ] {
                for candidate in [
                    candidate.clone(),
                    String::from(candidate.strip_prefix("Meta-").unwrap_or(&candidate)),
                ] {
                    if tried.contains(&candidate) {
                        continue;
                    }
                    if let Some(found) = self.lookup(&candidate) {
                        return Some(repackaged(found, name));
                    }
                    tried.push(candidate);
                }
            }
        }
        None
    }

    /// Up to `n` catalog ids closest to `name` (by edit distance over normalized keys, or containment).
    #[must_use]
    pub fn closest(&self, name: &str, n: usize) -> Vec<&str> {
        let key = normalize_key(name);
        if key.is_empty() {
            return Vec::new();
        }
        let limit = (key.len() / 3).max(2);
        let mut scored: Vec<(usize, &str)> = self
            .entries
            .iter()
            .filter_map(|e| {
                let best = e
                    .keys
                    .iter()
                    .map(|k| {
                        if k.contains(&key) || key.contains(k.as_str()) {
                            1
                        } else {
                            edit_distance(&key, k)
                        }
                    })
                    .min()?;
                (best <= limit).then_some((best, e.spec.name.as_str()))
            })
            .collect();
        scored.sort_by_key(|&(d, name)| (d, name.len()));
        scored.into_iter().take(n).map(|(_, name)| name).collect()
    }
}

/// `found`, its source saying `name` was read as it; its checkpoint format is the one the name
/// states (another upload's files are not the base model's).
fn repackaged(mut found: ResolvedModel, name: &str) -> ResolvedModel {
    found.checkpoint = crate::checkpoint::from_name(name);
    if let SpecSource::Catalog { reference } = &mut found.source {
        *reference = alloc::format!(
            "{reference}; '{name}' read as {}: the same architecture, repackaged",
            found.spec.name
        );
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;
    use alloc::string::ToString;

    #[test]
    fn catalog_has_at_least_sixty_models_across_all_five_families() {
        let catalog = Catalog::builtin();
        assert!(catalog.entries().len() >= 60, "{}", catalog.entries().len());
        for family in Family::ALL {
            let n = catalog.entries().iter().filter(|e| e.spec().family == *family).count();
            assert!(n >= 5, "{family}: {n}");
        }
    }

    #[test]
    fn names_resolve_with_and_without_org_in_any_case() {
        let catalog = Catalog::builtin();
        for name in [
            "bert-base-uncased",
            "google-bert/bert-base-uncased",
            "BERT-BASE-UNCASED",
            "bert_base_uncased",
        ] {
            assert_eq!(
                catalog.lookup(name).unwrap().spec.name,
                "google-bert/bert-base-uncased",
                "{name}"
            );
        }
        assert_eq!(
            catalog.lookup("Llama 3 8B").unwrap().spec.name,
            "meta-llama/Meta-Llama-3-8B"
        );
        assert_eq!(catalog.lookup("gpt2").unwrap().spec.name, "openai-community/gpt2");
    }

    #[test]
    fn no_two_entries_share_a_key() {
        let catalog = Catalog::builtin();
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for e in catalog.entries() {
            for k in &e.keys {
                if let Some((_, other)) = seen.iter().find(|(key, _)| key == k) {
                    panic!("key '{k}' of {} also belongs to {other}", e.spec.name);
                }
                seen.push((k, &e.spec.name));
            }
        }
    }

    #[test]
    fn unknown_names_list_close_matches() {
        let err = Catalog::builtin().resolve("bert-bse-uncased").unwrap_err().to_string();
        assert!(err.contains("did you mean: google-bert/bert-base-uncased"), "{err}");
    }

    #[test]
    fn repackaged_uploads_resolve_to_their_base_model() {
        let catalog = Catalog::builtin();
        for (name, base) in [
            ("unsloth/Qwen3-30B-A3B-GGUF", "Qwen/Qwen3-30B-A3B"),
            (
                "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF",
                "meta-llama/Llama-3.1-8B-Instruct",
            ),
            ("mlx-community/Qwen3-30B-A3B-4bit", "Qwen/Qwen3-30B-A3B"),
            ("Qwen/Qwen3-8B-FP8", "Qwen/Qwen3-8B"),
            ("Qwen3-8B-Q4_K_M", "Qwen/Qwen3-8B"),
            ("unsloth/gpt-oss-20b-GGUF", "openai/gpt-oss-20b"),
            ("mistralai/Mixtral-8x7B-Instruct-v0.1", "mistralai/Mixtral-8x7B-v0.1"),
            ("someorg/DeepSeek-R1", "deepseek-ai/DeepSeek-V3"),
            ("microsoft/Phi-4-reasoning", "microsoft/phi-4"),
            ("microsoft/Phi-4-mini-reasoning", "microsoft/Phi-4-mini-instruct"),
            ("Qwen/Qwen3-4B-Thinking-2507", "Qwen/Qwen3-4B"),
        ] {
            let found = catalog.resolve(name).unwrap();
            assert_eq!(found.spec.name, base, "{name}");
            let SpecSource::Catalog { reference } = &found.source else {
                panic!("{name}")
            };
            assert!(reference.contains("repackaged"), "{reference}");
        }
        // A name whose base is unknown is still an estimate.
        assert!(catalog.resolve("acme/Thing-7B-GGUF").unwrap().source.is_estimate());
    }

    #[test]
    fn an_alias_resolves_under_its_organisation() {
        let found = Catalog::builtin().resolve("deepseek-ai/DeepSeek-R1").unwrap();
        assert_eq!(found.spec.name, "deepseek-ai/DeepSeek-V3");
        assert!(matches!(found.source, SpecSource::Catalog { .. }));
        let magistral = Catalog::builtin().resolve("mistralai/Magistral-Small-2509").unwrap();
        assert_eq!(magistral.spec.name, "mistralai/Mistral-Small-3.1-24B-Instruct-2503");
    }

    #[test]
    fn estimable_names_resolve_as_estimates() {
        let resolved = Catalog::builtin().resolve("acme/wonder-13b-chat").unwrap();
        assert!(resolved.source.is_estimate());
    }
}
