//! The starter-file decision: which template, for which hardware, device string, dtype and batch.
//! The CLI renders the decision with its embedded templates; the decision is the same everywhere.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::targets::{resolve_candidates, HardwareList};
use super::{defaults, Hwfit};
use crate::{select_hardware, Candidate, CoreError, Family, HardwareType, Mode, Precision, SelectionInput, Subfamily};

string_enum! {
    /// Where a starter file runs.
    pub enum StarterRuntime: "runtime" {
        /// PyTorch with Hugging Face transformers.
        Pytorch => "pytorch" | "torch",
        /// transformers.js in the browser or Node.
        TransformersJs => "transformers.js" | "transformersjs",
        /// ONNX Runtime Web.
        OnnxruntimeWeb => "onnxruntime-web" | "ort-web",
    }
}

// string_enum! fixes the derive list, so Default is written out.
#[allow(clippy::derivable_impls)]
impl Default for StarterRuntime {
    fn default() -> Self {
        Self::Pytorch
    }
}

impl StarterRuntime {
    /// Hardware types this runtime can target.
    #[must_use]
    pub const fn hardware(self) -> &'static [HardwareType] {
        match self {
            Self::Pytorch => &[
                HardwareType::Cuda,
                HardwareType::Rocm,
                HardwareType::Mps,
                HardwareType::Cpu,
            ],
            Self::TransformersJs | Self::OnnxruntimeWeb => &[HardwareType::Webgpu, HardwareType::Wasm],
        }
    }
}

/// A starter file for a model on its recommended hardware (`POST /templates`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct TemplateRequest {
    /// Model name or Hugging Face id.
    pub model_name: String,
    /// A Hugging Face `config.json` object.
    pub model_config: Option<serde_json::Value>,
    /// `pytorch` (default), `transformers.js` or `onnxruntime-web`.
    pub runtime: StarterRuntime,
    /// Hardware types to choose from (default: the runtime's).
    #[serde(alias = "available_hardware", alias = "hardware_platforms")]
    pub hardware: HardwareList,
    /// Concrete devices to choose from.
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
    /// Items per step (default 1).
    pub batch_size: u32,
    /// Weight precision (default: fp16 for PyTorch on a GPU, fp32 otherwise).
    pub precision: Option<Precision>,
}

impl Default for TemplateRequest {
    fn default() -> Self {
        Self {
            model_name: String::new(),
            model_config: None,
            runtime: StarterRuntime::default(),
            hardware: HardwareList::default(),
            devices: Vec::new(),
            device_spec: None,
            browser: None,
            batch_size: defaults::BATCH_SIZE,
            precision: None,
        }
    }
}

/// What the starter is rendered for: every value a template uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TemplateDecision {
    /// The template file (`pytorch/hf_embedding_template.py.j2` …).
    pub template: String,
    /// The runtime.
    pub runtime: StarterRuntime,
    /// Model.
    pub model_name: String,
    /// Family.
    pub family: Family,
    /// Subfamily.
    pub subfamily: Subfamily,
    /// The transformers pipeline task.
    pub pipeline_task: String,
    /// The recommended candidate.
    pub hardware: String,
    /// Its hardware type.
    pub hardware_type: HardwareType,
    /// The device predicted on.
    pub device_name: String,
    /// PyTorch device string.
    pub torch_device: String,
    /// PyTorch dtype.
    pub torch_dtype: String,
    /// transformers.js device.
    pub js_device: String,
    /// transformers.js dtype.
    pub js_dtype: String,
    /// ONNX Runtime Web execution providers, as a JS array literal.
    pub ort_providers: String,
    /// Precision.
    pub precision: Precision,
    /// Items per step.
    pub batch_size: u32,
    /// The selection's explanation.
    pub recommendation: String,
}

fn torch_dtype(p: Precision) -> &'static str {
    match p {
        Precision::Fp16 | Precision::F16 => "torch.float16",
        Precision::Bf16 => "torch.bfloat16",
        _ => "torch.float32",
    }
}

fn js_dtype(p: Precision) -> &'static str {
    match p {
        Precision::Fp16 | Precision::F16 | Precision::Bf16 => "fp16",
        Precision::Int8 | Precision::Q8_0 => "q8",
        Precision::Int4 | Precision::Q4_0 | Precision::Q4KM | Precision::Q5KM => "q4",
        _ => "fp32",
    }
}

impl Hwfit {
    /// Decides the starter file for a model on the hardware selection recommends among the
    /// runtime's targets (or the ones named).
    /// With nothing named, the local devices the runtime can target, else the runtime's hardware
    /// types.
    pub fn template(&self, req: &TemplateRequest, local: &[Candidate]) -> Result<TemplateDecision, CoreError> {
        let model = self.resolve_model(&req.model_name, req.model_config.as_ref(), None)?;
        let spec = &model.spec;
        let runtime_hardware = req.runtime.hardware();
        let usable: Vec<Candidate> = local
            .iter()
            .filter(|c| runtime_hardware.contains(&c.device.hardware_type))
            .cloned()
            .collect();
        let named = req.named_targets();
        let hardware = if !named.names_any() && usable.is_empty() {
            HardwareList::of(runtime_hardware)
        } else {
            req.hardware.clone()
        };
        let candidates: Vec<Candidate> = resolve_candidates(
            &self.devices,
            super::question::Targets {
                hardware: &hardware,
                ..named
            },
            &usable,
        )?;
        let on_gpu = |c: &Candidate| !matches!(c.device.hardware_type, HardwareType::Cpu | HardwareType::Wasm);
        let precision = req.precision.unwrap_or(
            if req.runtime == StarterRuntime::Pytorch && candidates.iter().any(on_gpu) {
                Precision::Fp16
            } else {
                Precision::Fp32
            },
        );
        let selection = select_hardware(
            spec,
            &SelectionInput {
                batch_size: req.batch_size,
                seq_length: defaults::SEQUENCE_LENGTH.min(spec.max_positions.max(1)),
                mode: Mode::Inference,
                precision,
                task_type: None,
                mixed_precision: None,
                candidates: candidates.clone(),
            },
            &self.perf,
            &self.selection,
        )?;
        let Some(key) = selection.primary_recommendation.clone() else {
            return Err(CoreError::InvalidRequest(format!(
                "no candidate can run {}: {}",
                spec.name, selection.explanation
            )));
        };
        let chosen = candidates
            .iter()
            .find(|c| c.key == key)
            .ok_or_else(|| CoreError::InvalidRequest(format!("the recommended candidate {key} is not a candidate")))?;
        let hw = chosen.device.hardware_type;
        let template = match req.runtime {
            StarterRuntime::Pytorch => format!(
                "pytorch/{}.j2",
                self.classifier
                    .template_for(spec.family.as_str(), Some(spec.subfamily.as_str()))
            ),
            StarterRuntime::TransformersJs => String::from("transformers.js/starter.mjs.j2"),
            StarterRuntime::OnnxruntimeWeb => String::from("onnxruntime-web/session.mjs.j2"),
        };
        Ok(TemplateDecision {
            template,
            runtime: req.runtime,
            model_name: spec.name.clone(),
            family: spec.family,
            subfamily: spec.subfamily,
            pipeline_task: String::from(spec.subfamily.pipeline_task()),
            hardware: key,
            hardware_type: hw,
            device_name: chosen.device.name.clone(),
            torch_device: String::from(hw.torch_device().unwrap_or("cpu")),
            torch_dtype: String::from(torch_dtype(precision)),
            js_device: String::from(if hw == HardwareType::Webgpu { "webgpu" } else { "wasm" }),
            js_dtype: String::from(js_dtype(precision)),
            ort_providers: String::from(match hw {
                HardwareType::Webgpu => r#"["webgpu", "wasm"]"#,
                HardwareType::Webnn => r#"[{ name: "webnn", deviceType: "gpu" }, "wasm"]"#,
                _ => r#"["wasm"]"#,
            }),
            precision,
            batch_size: req.batch_size,
            recommendation: selection.explanation,
        })
    }
}
