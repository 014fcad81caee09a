//! Questions about a model or the catalogs: classify, models, one model's detail, resources,
//! compatibility and devices.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{defaults, Hwfit};
use crate::catalog::CatalogSummary;
use crate::{
    estimate_resources, Classification, ClassifierInput, CompatibilityMatrix, Component, CoreError, Device, Family,
    HardwareType, Mode, Precision, ResourceInput, ResourceRequirements, SpecSource, Subfamily,
};

/// Classify a model (`POST /models/classify`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ClassifyModelRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// `transformers` class name, e.g. `GPT2LMHeadModel`.
    pub model_class: Option<String>,
    /// Hugging Face pipeline tags.
    pub tasks: Vec<String>,
    /// Method names the model offers.
    pub methods: Vec<String>,
    /// A Hugging Face `config.json` object: its `_name_or_path` and `architectures[0]` fill a missing
    /// name and class.
    pub model_config: Option<serde_json::Value>,
}

/// The catalog listing, optionally of one family (`GET /models`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ModelsRequest {
    /// Only models of this family.
    pub family: Option<Family>,
}

/// One model's architecture (`POST /models/detail`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ModelRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object to read the architecture from.
    pub model_config: Option<serde_json::Value>,
}

/// Everything about one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelDetail {
    /// Canonical name.
    pub name: String,
    /// Family.
    pub family: Family,
    /// Subfamily.
    pub subfamily: Subfamily,
    /// Longest sequence (0: none).
    pub max_positions: u32,
    /// The components (transformer stacks, convolutional nets, dense extras).
    pub components: Vec<Component>,
    /// Where the architecture comes from.
    pub source: SpecSource,
    /// The format the checkpoint is published in, when its config or name states one (questions
    /// that state no precision are answered at it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<crate::CheckpointFormat>,
    /// Parameters, computed from the architecture.
    pub parameters: u64,
    /// Parameters a generated token passes through (mixture of experts: the shared parts and the
    /// experts it is routed to; equal to `parameters` for dense models).
    pub active_parameters: u64,
    /// Forward FLOPs per item at `flops_sequence_length` tokens.
    pub flops_per_item: u64,
    /// The sequence length of `flops_per_item` (128, or the model's maximum if shorter).
    pub flops_sequence_length: u32,
    /// KV cache per token at fp16, bytes (0 for models that generate no text).
    pub kv_cache_bytes_per_token_fp16: u64,
    /// Fixed state one sequence keeps in the recurrent layers of a hybrid model at fp16, bytes,
    /// whatever its length (0 for models without them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recurrent_state_bytes_fp16: u64,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// Estimate the resources a model needs (`POST /resources`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ResourcesRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object to read the architecture from.
    pub model_config: Option<serde_json::Value>,
    /// The family the caller expects (refused if it contradicts the model's).
    pub model_family: Option<Family>,
    /// Where it runs (default `cpu`).
    pub hardware: HardwareType,
    /// Weight precision (default: the checkpoint's format where its config or name states one —
    /// FP8, AWQ, MXFP4, `-Q4_K_M` … —, else `fp32`).
    pub precision: Option<Precision>,
    /// Inference or training (default `inference`).
    pub mode: Mode,
    /// Items per step (default 1).
    pub batch_size: u32,
    /// Tokens per sequence (default 128, at most the model's positions).
    pub sequence_length: Option<u32>,
    /// Training: fp32 master weights, gradients and AdamW state with the products at `precision`
    /// (`true`, the default at fp16 and bf16: 18 bytes per parameter), or all of them at
    /// `precision` (`false`: 8 bytes per parameter at bf16).
    pub mixed_precision: Option<bool>,
}

impl Default for ResourcesRequest {
    fn default() -> Self {
        Self {
            model_name: String::new(),
            model_config: None,
            model_family: None,
            hardware: defaults::RESOURCES_HARDWARE,
            precision: None,
            mode: defaults::MODE,
            batch_size: defaults::BATCH_SIZE,
            sequence_length: None,
            mixed_precision: None,
        }
    }
}

/// The resources answer: the model, where its numbers come from, and the requirements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResourcesAnswer {
    /// Model.
    pub model_name: String,
    /// Family.
    pub family: Family,
    /// Subfamily.
    pub subfamily: Subfamily,
    /// Where the architecture comes from.
    pub model_source: SpecSource,
    /// The requirements (IPFS Accelerate's `resource_requirements`).
    pub resource_requirements: ResourceRequirements,
}

/// The device catalog, optionally of one hardware type (`GET /devices`): the curated devices, or
/// with `all` or a `query` the device database's too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DevicesRequest {
    /// Only devices of this hardware type.
    pub hardware: Option<HardwareType>,
    /// Include the device database (where one is loaded), not only the curated devices.
    pub all: bool,
    /// Only devices whose id, name or an alias contains every word of this (letters and digits
    /// compared, case ignored: `rtx 4070 super`, `m3 max`); searches the device database too.
    pub query: Option<String>,
}

/// Which hardware types run which families and precisions (`GET /compat`); it takes no fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CompatibilityRequest {}

impl Hwfit {
    /// Classifies a model into a family and subfamily, with the analyses behind it.
    pub fn classify(&self, req: &ClassifyModelRequest) -> Result<Classification, CoreError> {
        let mut request = ClassifierInput {
            model_name: String::from(req.model_name.trim()),
            model_class: req.model_class.clone(),
            tasks: req.tasks.clone(),
            methods: req.methods.clone(),
            hw_compatibility: None,
        };
        if let Some(value) = &req.model_config {
            let config = crate::HfConfig::deserialize_value(value)?;
            if request.model_name.is_empty() {
                request.model_name = String::from(config.declared_name().unwrap_or_default());
            }
            if request.model_class.is_none() {
                request.model_class = config.architectures.first().cloned();
            }
        }
        if request.model_name.is_empty() {
            return Err(CoreError::MissingField { field: "model_name" });
        }
        Ok(self.classifier.classify(&request))
    }

    /// The model catalog, optionally one family's part.
    #[must_use]
    pub fn models(&self, req: &ModelsRequest) -> Vec<CatalogSummary<'_>> {
        self.catalog
            .entries()
            .iter()
            .filter(|e| req.family.is_none_or(|f| e.spec().family == f))
            .map(crate::catalog::CatalogEntry::summary)
            .collect()
    }

    /// One model's architecture and derived figures.
    pub fn model(&self, req: &ModelRequest) -> Result<ModelDetail, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), None)?;
        let spec = model.spec;
        let seq = spec.max_positions.clamp(1, defaults::SEQUENCE_LENGTH);
        Ok(ModelDetail {
            parameters: spec.parameters(),
            active_parameters: spec.active_parameters(),
            flops_per_item: spec.flops_per_item(seq),
            flops_sequence_length: seq,
            kv_cache_bytes_per_token_fp16: spec.kv_cache_bytes_per_token(2),
            recurrent_state_bytes_fp16: spec.recurrent_state_bytes(2),
            name: spec.name,
            family: spec.family,
            subfamily: spec.subfamily,
            max_positions: spec.max_positions,
            components: spec.components,
            source: model.source,
            checkpoint: model.checkpoint,
        })
    }

    /// Memory, CPU cores and disk a model needs on a hardware type.
    pub fn resources(&self, req: &ResourcesRequest) -> Result<ResourcesAnswer, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), req.model_family)?;
        let (sequence_length, note) =
            defaults::sequence_length(req.sequence_length, defaults::SEQUENCE_LENGTH, &model.spec);
        let (precision, precision_note) = defaults::precision(req.precision, &model, defaults::PRECISION);
        let mut requirements = estimate_resources(
            &model.spec,
            &ResourceInput {
                hardware: req.hardware,
                precision,
                mode: req.mode,
                batch_size: req.batch_size,
                seq_length: sequence_length,
                mixed_precision: req.mixed_precision,
            },
        )
        .map_err(|e| defaults::checkpoint_refused(e, req.precision, &model))?;
        requirements.notes.extend(precision_note.into_iter().chain(note));
        Ok(ResourcesAnswer {
            model_name: model.spec.name,
            family: model.spec.family,
            subfamily: model.spec.subfamily,
            model_source: model.source,
            resource_requirements: requirements,
        })
    }

    /// Which hardware types run which families and precisions.
    #[must_use]
    pub fn compatibility(&self) -> CompatibilityMatrix {
        CompatibilityMatrix::build()
    }

    /// The device catalog, optionally one hardware type's part.
    #[must_use]
    pub fn devices(&self, req: &DevicesRequest) -> Vec<&Device> {
        let pool = if req.all || req.query.is_some() {
            self.devices.devices()
        } else {
            self.devices.curated()
        };
        let words: Vec<String> = req.query.as_deref().map(search_words).unwrap_or_default();
        pool.iter()
            .filter(|d| req.hardware.is_none_or(|h| d.hardware_type == h))
            .filter(|d| {
                words.is_empty() || {
                    let names = search_words(&alloc::format!("{} {} {}", d.id, d.name, d.aliases.join(" "))).concat();
                    words.iter().all(|w| names.contains(w.as_str()))
                }
            })
            .collect()
    }
}

/// The words of a search: runs of letters and digits, lower-cased.
fn search_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}
