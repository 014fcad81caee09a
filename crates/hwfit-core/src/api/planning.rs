//! Planning questions: the prediction matrix, the selection map, distributed training, resource
//! pools, task recommendations and compatible models.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::targets::{one_candidate, resolve_candidates, HardwareList};
use super::{defaults, Hwfit};
use crate::plan::distributed::{plan_distributed, DistributedConfig, DistributedInput};
use crate::plan::map::{selection_map, SelectionMap};
use crate::plan::matrix::{prediction_matrix, PredictionMatrix};
use crate::plan::pool::{resource_pool_config, ResourcePoolConfig};
use crate::plan::recommend::{compatible_models, recommend_models_for_task, CompatibleModels, TaskRecommendations};
use crate::{Candidate, CoreError, Family, HardwareType, Mode, ModelSpec, Precision};

/// Predictions for models × hardware × batch sizes × precisions (`POST /performance/matrix`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct MatrixRequest {
    /// Models (default: bert-base-uncased, t5-small, gpt2, vit-base-patch16-224).
    pub models: Vec<String>,
    /// Hardware types (default: every type with a reference device).
    #[serde(alias = "hardware_platforms", alias = "available_hardware")]
    pub hardware: HardwareList,
    /// Concrete devices.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Batch sizes (default 1, 8, 32).
    pub batch_sizes: Vec<u32>,
    /// Precisions (default `fp32`).
    pub precisions: Vec<Precision>,
    /// Inference (default) or training.
    pub mode: Mode,
    /// Tokens per sequence (default 128).
    pub sequence_length: u32,
}

impl Default for MatrixRequest {
    fn default() -> Self {
        Self {
            models: Vec::new(),
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            batch_sizes: Vec::new(),
            precisions: Vec::new(),
            mode: defaults::MODE,
            sequence_length: defaults::SEQUENCE_LENGTH,
        }
    }
}

/// The hardware selection map (`POST /hardware/map`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct MapRequest {
    /// Families (default: all five).
    pub model_families: Vec<Family>,
    /// Batch sizes (default 1, 4, 16, 32, 64).
    pub batch_sizes: Vec<u32>,
    /// Hardware types (IPFS Accelerate's `hardware_platforms`; default: every type with a
    /// reference device).
    #[serde(alias = "hardware_platforms", alias = "available_hardware")]
    pub hardware: HardwareList,
    /// Concrete devices.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
}

/// Plan distributed training (`POST /training/distributed`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DistributedPlanRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object.
    pub model_config: Option<serde_json::Value>,
    /// The family the caller expects.
    pub model_family: Option<Family>,
    /// GPUs (required).
    pub gpu_count: u32,
    /// Per-GPU batch the user wants (required).
    pub batch_size: u32,
    /// Memory per GPU, GB (default: the device's, else 80).
    pub max_memory_gb: Option<f64>,
    /// The GPU model.
    pub device: Option<String>,
    /// Tokens per sequence (default 512, at most the model's positions).
    pub sequence_length: Option<u32>,
}

/// A resource-pool configuration for several models (`POST /resources/pool`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ResourcePoolRequest {
    /// Models.
    pub models: Vec<String>,
    /// Hardware types (default: every type with a reference device).
    #[serde(alias = "hardware_platforms", alias = "available_hardware")]
    pub hardware: HardwareList,
    /// Concrete devices.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
    /// Weight precision (default: each model's checkpoint format where its config or name states
    /// one, else `fp16`).
    pub precision: Option<Precision>,
    /// Tokens per sequence (default 128).
    pub sequence_length: u32,
}

impl Default for ResourcePoolRequest {
    fn default() -> Self {
        Self {
            models: Vec::new(),
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            precision: None,
            sequence_length: defaults::SEQUENCE_LENGTH,
        }
    }
}

/// Catalog models for a Hugging Face pipeline task (`POST /models/recommend`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct RecommendRequest {
    /// A pipeline task (`text-generation`, `image-classification` …).
    pub task: String,
    /// Hardware types allowed (default: every type with a reference device).
    #[serde(alias = "hardware_platforms", alias = "available_hardware")]
    pub hardware: HardwareList,
    /// Concrete devices allowed.
    pub devices: Vec<String>,
    /// A device described by its numbers (`--device-spec`), predicted on with the rest.
    pub device_spec: Option<crate::DeviceSpec>,
    /// A browser, predicted on as the npm package's probe would be: the probe's `capabilities`
    /// object or its facts in words (`"firefox, gpu=RTX 3080, isolated, cores=16"`); its WebGPU,
    /// WebAssembly and WebNN back-ends join the targets.
    #[serde(deserialize_with = "crate::browser::describe::deserialize_browser")]
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::browser::describe::browser_schema")
    )]
    pub browser: Option<crate::browser::BrowserCapabilities>,
}

/// Which models run on one hardware type or device (`POST /models/compatible`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CompatibleRequest {
    /// Models.
    pub models: Vec<String>,
    /// The hardware type (or give `device`).
    pub hardware: Option<HardwareType>,
    /// A device from the device catalog.
    pub device: Option<String>,
}

/// Refuses a matrix of more than [`defaults::MAX_MATRIX_CELLS`] cells.
fn matrix_budget(models: usize, targets: usize, batch_sizes: usize, precisions: usize) -> Result<(), CoreError> {
    let cells = models
        .saturating_mul(targets)
        .saturating_mul(batch_sizes)
        .saturating_mul(precisions);
    if cells > defaults::MAX_MATRIX_CELLS {
        return Err(CoreError::TooLarge {
            what: "prediction matrix (models × targets × batch sizes × precisions)",
            size: cells,
            max: defaults::MAX_MATRIX_CELLS,
        });
    }
    Ok(())
}

fn or_default<T: Copy>(given: &[T], default: &[T]) -> Vec<T> {
    if given.is_empty() {
        default.to_vec()
    } else {
        given.to_vec()
    }
}

impl Hwfit {
    /// The models named (blank names are skipped; a list of none is an error).
    fn resolve_all<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<crate::ResolvedModel>, CoreError> {
        let models = names
            .iter()
            .map(|n| n.as_ref().trim())
            .filter(|n| !n.is_empty())
            .map(|n| self.catalog.resolve(n))
            .collect::<Result<Vec<_>, CoreError>>()?;
        if models.is_empty() {
            return Err(CoreError::EmptyList { what: "models" });
        }
        Ok(models)
    }

    /// Predictions for models × hardware × batch sizes × precisions; without precisions, each model
    /// at its checkpoint's format or the default ([`defaults::precision`]).
    pub fn matrix(&self, req: &MatrixRequest, local: &[Candidate]) -> Result<PredictionMatrix, CoreError> {
        let batch_sizes = or_default(&req.batch_sizes, defaults::BATCH_SIZES);
        let names: &[&str] = if req.models.is_empty() {
            defaults::MATRIX_MODELS
        } else {
            &[]
        };
        let model_count = if req.models.is_empty() {
            names.len()
        } else {
            req.models.len()
        };
        let precision_count = req.precisions.len().max(1);
        // Refused before any name is resolved when it cannot fit even on one target.
        matrix_budget(model_count, 1, batch_sizes.len(), precision_count)?;
        let models = if req.models.is_empty() {
            self.resolve_all(names)?
        } else {
            self.resolve_all(&req.models)?
        };
        let candidates = resolve_candidates(&self.devices, req.named_targets(), local)?;
        matrix_budget(models.len(), candidates.len(), batch_sizes.len(), precision_count)?;
        // Models grouped by the precisions they are predicted at, in request order.
        let mut groups: Vec<(Vec<Precision>, Vec<ModelSpec>)> = Vec::new();
        for model in models {
            let precisions = if req.precisions.is_empty() {
                alloc::vec![defaults::precision(None, &model, defaults::PRECISION).0]
            } else {
                req.precisions.clone()
            };
            match groups.iter_mut().find(|(p, _)| *p == precisions) {
                Some((_, specs)) => specs.push(model.spec),
                None => groups.push((precisions, alloc::vec![model.spec])),
            }
        }
        let mut matrix: Option<PredictionMatrix> = None;
        for (precisions, specs) in &groups {
            let part = prediction_matrix(
                specs,
                &candidates,
                &batch_sizes,
                precisions,
                req.mode,
                req.sequence_length,
                &self.perf,
            )?;
            matrix = Some(match matrix {
                Some(m) => m.with_rows_of(part),
                None => part,
            });
        }
        matrix.ok_or(CoreError::EmptyList { what: "models" })
    }

    /// The selection map: families × size categories × batch sizes × modes.
    pub fn map(&self, req: &MapRequest, local: &[Candidate]) -> Result<SelectionMap, CoreError> {
        let candidates = resolve_candidates(&self.devices, req.named_targets(), local)?;
        selection_map(
            &self.catalog,
            &candidates,
            &or_default(&req.model_families, Family::ALL),
            &or_default(&req.batch_sizes, defaults::MAP_BATCH_SIZES),
            &self.perf,
            &self.selection,
        )
    }

    /// Plans distributed training: strategy, batches, memory, torchrun and DeepSpeed configs.
    pub fn distributed(&self, req: &DistributedPlanRequest) -> Result<DistributedConfig, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), req.model_family)?;
        let device = req
            .device
            .as_deref()
            .map(|d| self.devices.resolve(d).cloned())
            .transpose()?;
        plan_distributed(
            &model.spec,
            &DistributedInput {
                gpu_count: req.gpu_count,
                batch_size: req.batch_size,
                seq_length: defaults::sequence_length(
                    req.sequence_length,
                    defaults::DISTRIBUTED_SEQUENCE_LENGTH,
                    &model.spec,
                )
                .0,
                max_memory_gb: req.max_memory_gb,
                device,
            },
        )
    }

    /// A resource-pool configuration for several models.
    pub fn resource_pool(
        &self,
        req: &ResourcePoolRequest,
        local: &[Candidate],
    ) -> Result<ResourcePoolConfig, CoreError> {
        let candidates = resolve_candidates(&self.devices, req.named_targets(), local)?;
        let models: Vec<(ModelSpec, Precision)> = self
            .resolve_all(&req.models)?
            .into_iter()
            .map(|m| {
                (
                    defaults::precision(req.precision, &m, defaults::POOL_PRECISION).0,
                    m.spec,
                )
            })
            .map(|(p, spec)| (spec, p))
            .collect();
        resource_pool_config(&models, &candidates, req.sequence_length, &self.perf, &self.selection)
    }

    /// Catalog models for a task that run on the hardware allowed.
    pub fn recommend(&self, req: &RecommendRequest, local: &[Candidate]) -> Result<TaskRecommendations, CoreError> {
        if req.task.trim().is_empty() {
            return Err(CoreError::MissingField { field: "task" });
        }
        let candidates = resolve_candidates(&self.devices, req.named_targets(), local)?;
        recommend_models_for_task(
            &req.task,
            &self.catalog,
            &self.classifier,
            &candidates,
            &self.perf,
            &self.selection,
        )
    }

    /// Which of the models run on one hardware type or device.
    pub fn compatible_models(&self, req: &CompatibleRequest) -> Result<CompatibleModels, CoreError> {
        let candidate = one_candidate(&self.devices, req.hardware, req.device.as_deref())?;
        let specs: Vec<ModelSpec> = self.resolve_all(&req.models)?.into_iter().map(|m| m.spec).collect();
        compatible_models(&specs, &candidate, &self.perf, &self.selection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HardwareType;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn a_matrix_over_its_cell_budget_is_refused_before_it_is_computed() {
        let hwfit = Hwfit::builtin().unwrap();
        let request = MatrixRequest {
            models: vec![String::from("gpt2")],
            hardware: HardwareList::all(),
            batch_sizes: (1..=2_000).collect(),
            precisions: vec![Precision::Fp32, Precision::Fp16, Precision::Int8, Precision::Int4],
            ..MatrixRequest::default()
        };
        let err = hwfit.matrix(&request, &[]).unwrap_err();
        assert!(
            matches!(
                err,
                CoreError::TooLarge {
                    max: defaults::MAX_MATRIX_CELLS,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(err.kind(), crate::error::ErrorKind::OutOfRange);
        assert!(err.to_string().contains("at most 10000"), "{err}");
        // 20,000 model names are refused before any is resolved.
        let many = MatrixRequest {
            models: vec![String::from("no-such-model"); 20_000],
            hardware: HardwareList::of(&[HardwareType::Cpu]),
            ..MatrixRequest::default()
        };
        assert!(matches!(hwfit.matrix(&many, &[]), Err(CoreError::TooLarge { .. })));
        // Within the budget it answers.
        let small = MatrixRequest {
            batch_sizes: vec![1, 8],
            ..request
        };
        assert!(hwfit.matrix(&small, &[]).is_ok());
    }

    #[test]
    fn names_over_the_cap_are_refused_without_being_searched() {
        let hwfit = Hwfit::builtin().unwrap();
        let long = "x".repeat(defaults::MAX_NAME_BYTES + 1);
        let err = hwfit.devices_catalog().resolve(&long).unwrap_err();
        assert!(err.to_string().starts_with("device name is too large"), "{err}");
        let err = hwfit.catalog().resolve(&long).unwrap_err();
        assert!(err.to_string().starts_with("model name is too large"), "{err}");
    }

    /// Without precisions, each model of a matrix or a pool is planned at its checkpoint's format
    /// (gpt-oss's MXFP4) and the others at the question's default; stated precisions hold for all.
    #[test]
    fn matrices_and_pools_take_each_checkpoints_format_by_default() {
        let hwfit = Hwfit::builtin().unwrap();
        let request = MatrixRequest {
            models: vec![String::from("openai/gpt-oss-20b"), String::from("gpt2")],
            hardware: HardwareList::of(&[HardwareType::Cuda]),
            batch_sizes: vec![1],
            ..MatrixRequest::default()
        };
        let m = hwfit.matrix(&request, &[]).unwrap();
        let precisions =
            |name: &str| -> Vec<Precision> { m.models[name].predictions["cuda"]["1"].keys().copied().collect() };
        assert_eq!(precisions("openai/gpt-oss-20b"), [Precision::Mxfp4]);
        assert_eq!(precisions("openai-community/gpt2"), [defaults::PRECISION]);
        assert_eq!(m.precision_options, [Precision::Mxfp4, defaults::PRECISION]);
        let stated = hwfit
            .matrix(
                &MatrixRequest {
                    precisions: vec![Precision::Bf16],
                    ..request
                },
                &[],
            )
            .unwrap();
        assert_eq!(stated.precision_options, [Precision::Bf16]);
        let pool = ResourcePoolRequest {
            models: vec![String::from("openai/gpt-oss-20b"), String::from("gpt2")],
            hardware: HardwareList::of(&[HardwareType::Cuda]),
            ..ResourcePoolRequest::default()
        };
        let plan = hwfit.resource_pool(&pool, &[]).unwrap();
        let per_model = &plan.resource_requirements.per_model;
        assert_eq!(per_model["openai/gpt-oss-20b"].precision, Precision::Mxfp4);
        assert_eq!(per_model["openai-community/gpt2"].precision, defaults::POOL_PRECISION);
    }
}
