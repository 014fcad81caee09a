//! The hardware selection map (the selection guide's `--create-map`): for every family, a
//! representative catalog model per size category and mode, and per batch size and mode, the primary
//! recommendation and its fallbacks.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::PerfModel;
use crate::select::{select_hardware, Candidate, SelectionConfig, SelectionInput};
use crate::spec::ModelSpec;
use crate::{Catalog, CoreError, Family, Mode, Precision};

/// One recommendation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MapEntry {
    /// Best candidate, if any runs it.
    pub primary: Option<String>,
    /// The other eligible candidates, best first.
    pub fallbacks: Vec<String>,
    /// The representative model the entry was computed for.
    pub model: String,
}

/// Recommendations per batch size.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchSizes {
    /// batch size → entry.
    pub batch_sizes: SortedMap<String, MapEntry>,
}

/// One family's part of the map.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamilyMap {
    /// size category → mode → entry (batch 1).
    pub model_sizes: SortedMap<String, SortedMap<Mode, MapEntry>>,
    /// Inference per batch size (the family's medium model, or its first).
    pub inference: BatchSizes,
    /// Training per batch size.
    pub training: BatchSizes,
}

/// The map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SelectionMap {
    /// family → map.
    pub model_families: SortedMap<Family, FamilyMap>,
    /// Candidates considered.
    pub hardware_platforms: Vec<String>,
    /// Precision for inference (fp16) and training (bf16).
    pub precisions: SortedMap<Mode, Precision>,
}

fn precision_for(mode: Mode) -> Precision {
    match mode {
        Mode::Inference => Precision::Fp16,
        Mode::Training => Precision::Bf16,
    }
}

fn entry(
    spec: &ModelSpec,
    candidates: &[Candidate],
    mode: Mode,
    batch: u32,
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<MapEntry, CoreError> {
    let req = SelectionInput {
        batch_size: batch,
        seq_length: crate::api::defaults::SEQUENCE_LENGTH.min(spec.max_positions.max(1)),
        mode,
        precision: precision_for(mode),
        task_type: None,
        mixed_precision: None,
        candidates: candidates.to_vec(),
    };
    let s = select_hardware(spec, &req, perf, config)?;
    Ok(MapEntry {
        primary: s.primary_recommendation,
        fallbacks: s.fallback_options,
        model: spec.name.clone(),
    })
}

/// Builds the map of `families` over `candidates` at `batch_sizes`.
pub fn selection_map(
    catalog: &Catalog,
    candidates: &[Candidate],
    families_wanted: &[Family],
    batch_sizes: &[u32],
    perf: &PerfModel,
    config: &SelectionConfig,
) -> Result<SelectionMap, CoreError> {
    if candidates.is_empty() {
        return Err(CoreError::NoCandidates);
    }
    for &batch in batch_sizes {
        crate::resources::check_range("batch_size", batch, crate::resources::MAX_BATCH_SIZE)?;
    }
    let mut families = SortedMap::new();
    for &family in families_wanted {
        let members: Vec<&ModelSpec> = catalog
            .entries()
            .iter()
            .map(crate::catalog::CatalogEntry::spec)
            .filter(|s| s.family == family)
            .collect();
        let mut fmap = FamilyMap::default();
        for category in ["small", "medium", "large"] {
            let Some(spec) = members
                .iter()
                .find(|s| config.size_category(s.parameters()) == category)
            else {
                continue;
            };
            let mut by_mode = SortedMap::new();
            for mode in [Mode::Inference, Mode::Training] {
                by_mode.insert(mode, entry(spec, candidates, mode, 1, perf, config)?);
            }
            fmap.model_sizes.insert(String::from(category), by_mode);
        }
        let Some(spec) = members
            .iter()
            .find(|s| config.size_category(s.parameters()) == "medium")
            .or(members.first())
        else {
            continue;
        };
        for &batch in batch_sizes {
            fmap.inference.batch_sizes.insert(
                format!("{batch}"),
                entry(spec, candidates, Mode::Inference, batch, perf, config)?,
            );
            fmap.training.batch_sizes.insert(
                format!("{batch}"),
                entry(spec, candidates, Mode::Training, batch, perf, config)?,
            );
        }
        families.insert(family, fmap);
    }
    Ok(SelectionMap {
        model_families: families,
        hardware_platforms: candidates.iter().map(|c| c.key.clone()).collect(),
        precisions: [Mode::Inference, Mode::Training]
            .into_iter()
            .map(|m| (m, precision_for(m)))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;
    use crate::{DeviceCatalog, PerfRequest, Workload};

    /// A data-centre GPU with 16 GB and a desktop CPU with 192 GB: small models prefer the GPU, but
    /// large training batches only fit the CPU's memory.
    fn t4_and_i9() -> Vec<Candidate> {
        crate::candidates_from(&DeviceCatalog::builtin(), &[], &["T4", "i9-13900K"]).unwrap()
    }

    fn map(candidates: &[Candidate]) -> SelectionMap {
        selection_map(
            &Catalog::builtin(),
            candidates,
            Family::ALL,
            &[1, 4, 16, 32, 64],
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        )
        .unwrap()
    }

    #[test]
    fn every_family_is_mapped_at_the_guides_batch_sizes_on_its_medium_model() {
        let m = map(&t4_and_i9());
        assert_eq!(m.hardware_platforms, ["nvidia-t4", "intel-core-i9-13900k"]);
        assert_eq!(m.precisions[&Mode::Inference], Precision::Fp16);
        assert_eq!(m.precisions[&Mode::Training], Precision::Bf16);
        assert_eq!(m.model_families.len(), Family::ALL.len());
        // The representative is the first catalog model of the family with 1e8 < parameters <= 1e9
        // (the default "medium" category): BERT base 110 M, GPT-2 124 M, ViT-L 304 M (ViT-B's 86 M
        // is "small"), Whisper small 244 M, CLIP ViT-B/32 151 M.
        for (family, model) in [
            (Family::Embedding, "google-bert/bert-base-uncased"),
            (Family::TextGeneration, "openai-community/gpt2"),
            (Family::Vision, "google/vit-large-patch16-224"),
            (Family::Audio, "openai/whisper-small"),
            (Family::Multimodal, "openai/clip-vit-base-patch32"),
        ] {
            let f = &m.model_families[&family];
            for by_batch in [&f.inference.batch_sizes, &f.training.batch_sizes] {
                let keys: Vec<&str> = by_batch.keys().map(String::as_str).collect();
                // String keys, so in text order.
                assert_eq!(keys, ["1", "16", "32", "4", "64"], "{family}");
                assert!(by_batch.values().all(|e| e.model == model), "{family}: {by_batch:?}");
            }
        }
        // Size categories hold the first model of each category.
        let audio = &m.model_families[&Family::Audio].model_sizes;
        assert_eq!(audio["small"][&Mode::Inference].model, "openai/whisper-tiny");
        assert_eq!(audio["medium"][&Mode::Inference].model, "openai/whisper-small");
        assert_eq!(audio["large"][&Mode::Training].model, "openai/whisper-large-v3");
        // Qwen3-Embedding-4B and -8B are the catalog's large embedders.
        let embedding = &m.model_families[&Family::Embedding].model_sizes;
        assert!(embedding["large"][&Mode::Inference]
            .model
            .starts_with("Qwen/Qwen3-Embedding-"));
    }

    #[test]
    fn every_primary_and_fallback_is_a_distinct_candidate() {
        let candidates = t4_and_i9();
        let keys: Vec<&str> = candidates.iter().map(|c| c.key.as_str()).collect();
        let m = map(&candidates);
        let mut entries = 0;
        for f in m.model_families.values() {
            let sized = f.model_sizes.values().flat_map(SortedMap::values);
            let batched = f.inference.batch_sizes.values().chain(f.training.batch_sizes.values());
            for e in sized.chain(batched) {
                entries += 1;
                match &e.primary {
                    Some(p) => {
                        assert!(keys.contains(&p.as_str()), "{e:?}");
                        assert!(!e.fallbacks.contains(p), "{e:?}");
                    }
                    None => assert!(e.fallbacks.is_empty(), "{e:?}"),
                }
                assert!(e.fallbacks.iter().all(|f| keys.contains(&f.as_str())), "{e:?}");
            }
        }
        // 5 families × 2 modes × 5 batch sizes, plus 2 modes for each size category present (every
        // family has at least its medium model).
        assert!(entries >= 5 * 2 * 5 + 5 * 2, "{entries}");
    }

    #[test]
    fn whisper_training_leaves_the_t4_once_the_batch_outgrows_its_16_gb() {
        let candidates = t4_and_i9();
        let audio = &map(&candidates).model_families[&Family::Audio].training.batch_sizes;
        for (batch, primary, fallbacks) in [
            ("1", "nvidia-t4", vec!["intel-core-i9-13900k"]),
            ("4", "nvidia-t4", vec!["intel-core-i9-13900k"]),
            ("16", "nvidia-t4", vec!["intel-core-i9-13900k"]),
            ("32", "intel-core-i9-13900k", vec![]),
            ("64", "intel-core-i9-13900k", vec![]),
        ] {
            assert_eq!(audio[batch].primary.as_deref(), Some(primary), "batch {batch}");
            assert_eq!(audio[batch].fallbacks, fallbacks, "batch {batch}");
        }
        // What the move rests on: the performance model's own memory verdict on the T4.
        let whisper = Catalog::builtin().resolve("whisper-small").unwrap().spec;
        let fits = |batch| {
            let req = PerfRequest {
                precision: Precision::Bf16,
                workload: Workload::TrainStep,
                batch_size: batch,
                seq_length: 128,
                runtime: None,
                prompt_chunk: None,
                mixed_precision: None,
            };
            PerfModel::builtin()
                .unwrap()
                .predict(&whisper, &candidates[0].device, &req)
                .unwrap()
                .fits_in_memory
        };
        assert!(fits(16));
        assert!(!fits(32));
    }

    #[test]
    fn no_candidates_is_an_error() {
        let err = selection_map(
            &Catalog::builtin(),
            &[],
            Family::ALL,
            &[1],
            &PerfModel::builtin().unwrap(),
            &SelectionConfig::default(),
        )
        .unwrap_err();
        assert_eq!(err, CoreError::NoCandidates);
    }
}
