//! The hardware selection map (the selection guide's `--create-map`): for every family, a
//! representative catalog model per size category and mode, and per batch size and mode, the primary
//! recommendation and its fallbacks.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::PerfModel;
use crate::select::{select_hardware, Candidate, SelectionConfig, SelectionRequest};
use crate::spec::ModelSpec;
use crate::{Catalog, CoreError, Family, Mode, Precision};

/// One recommendation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchSizes {
    /// batch size → entry.
    pub batch_sizes: BTreeMap<String, MapEntry>,
}

/// One family's part of the map.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FamilyMap {
    /// size category → mode → entry (batch 1).
    pub model_sizes: BTreeMap<String, BTreeMap<Mode, MapEntry>>,
    /// Inference per batch size (the family's medium model, or its first).
    pub inference: BatchSizes,
    /// Training per batch size.
    pub training: BatchSizes,
}

/// The map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SelectionMap {
    /// family → map.
    pub model_families: BTreeMap<Family, FamilyMap>,
    /// Candidates considered.
    pub hardware_platforms: Vec<String>,
    /// Precision for inference (fp16) and training (bf16).
    pub precisions: BTreeMap<Mode, Precision>,
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
    let req = SelectionRequest {
        batch_size: batch,
        seq_length: crate::api::defaults::SEQUENCE_LENGTH.min(spec.max_positions.max(1)),
        mode,
        precision: precision_for(mode),
        task_type: None,
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
    let mut families = BTreeMap::new();
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
            let mut by_mode = BTreeMap::new();
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
