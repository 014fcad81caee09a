//! Hardware-aware starter code: the classifier's recommended template for the model's family and
//! subfamily (PyTorch), or the transformers.js / ONNX Runtime Web starter, rendered with minijinja
//! for the hardware, device string, precision and batch size that selection recommends.

use anyhow::{Context, Result};
use hwfit_core::{
    select_hardware, Candidate, Classifier, DeviceCatalog, HardwareType, PerfModel, Precision, ResolvedModel,
    Selection, SelectionConfig, SelectionRequest,
};
use minijinja::{context, Environment};
use serde::Serialize;

/// The template files, embedded.
const TEMPLATES: &[(&str, &str)] = &[
    ("pytorch/base.py.j2", include_str!("../templates/pytorch/base.py.j2")),
    (
        "pytorch/hf_embedding_template.py.j2",
        include_str!("../templates/pytorch/hf_embedding_template.py.j2"),
    ),
    (
        "pytorch/hf_sentence_transformer_template.py.j2",
        include_str!("../templates/pytorch/hf_sentence_transformer_template.py.j2"),
    ),
    (
        "pytorch/hf_token_classification_template.py.j2",
        include_str!("../templates/pytorch/hf_token_classification_template.py.j2"),
    ),
    (
        "pytorch/hf_text_classification_template.py.j2",
        include_str!("../templates/pytorch/hf_text_classification_template.py.j2"),
    ),
    (
        "pytorch/hf_text_generation_template.py.j2",
        include_str!("../templates/pytorch/hf_text_generation_template.py.j2"),
    ),
    (
        "pytorch/hf_chat_template.py.j2",
        include_str!("../templates/pytorch/hf_chat_template.py.j2"),
    ),
    (
        "pytorch/hf_text2text_generation_template.py.j2",
        include_str!("../templates/pytorch/hf_text2text_generation_template.py.j2"),
    ),
    (
        "pytorch/hf_vision_template.py.j2",
        include_str!("../templates/pytorch/hf_vision_template.py.j2"),
    ),
    (
        "pytorch/hf_object_detection_template.py.j2",
        include_str!("../templates/pytorch/hf_object_detection_template.py.j2"),
    ),
    (
        "pytorch/hf_segmentation_template.py.j2",
        include_str!("../templates/pytorch/hf_segmentation_template.py.j2"),
    ),
    (
        "pytorch/hf_depth_estimation_template.py.j2",
        include_str!("../templates/pytorch/hf_depth_estimation_template.py.j2"),
    ),
    (
        "pytorch/hf_audio_template.py.j2",
        include_str!("../templates/pytorch/hf_audio_template.py.j2"),
    ),
    (
        "pytorch/hf_speech_recognition_template.py.j2",
        include_str!("../templates/pytorch/hf_speech_recognition_template.py.j2"),
    ),
    (
        "pytorch/hf_audio_classification_template.py.j2",
        include_str!("../templates/pytorch/hf_audio_classification_template.py.j2"),
    ),
    (
        "pytorch/hf_text_to_speech_template.py.j2",
        include_str!("../templates/pytorch/hf_text_to_speech_template.py.j2"),
    ),
    (
        "pytorch/hf_multimodal_template.py.j2",
        include_str!("../templates/pytorch/hf_multimodal_template.py.j2"),
    ),
    (
        "pytorch/hf_vision_language_template.py.j2",
        include_str!("../templates/pytorch/hf_vision_language_template.py.j2"),
    ),
    (
        "pytorch/hf_image_text_encoder_template.py.j2",
        include_str!("../templates/pytorch/hf_image_text_encoder_template.py.j2"),
    ),
    (
        "pytorch/hf_document_qa_template.py.j2",
        include_str!("../templates/pytorch/hf_document_qa_template.py.j2"),
    ),
    (
        "transformers.js/starter.mjs.j2",
        include_str!("../templates/transformers.js/starter.mjs.j2"),
    ),
    (
        "onnxruntime-web/session.mjs.j2",
        include_str!("../templates/onnxruntime-web/session.mjs.j2"),
    ),
];

/// Where the starter runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
pub enum Runtime {
    /// PyTorch with Hugging Face transformers.
    #[value(name = "pytorch")]
    #[serde(rename = "pytorch")]
    Pytorch,
    /// transformers.js in the browser or Node.
    #[value(name = "transformers.js")]
    #[serde(rename = "transformers.js")]
    TransformersJs,
    /// ONNX Runtime Web.
    #[value(name = "onnxruntime-web")]
    #[serde(rename = "onnxruntime-web")]
    OnnxruntimeWeb,
}

impl Runtime {
    /// Hardware types this runtime can target.
    const fn hardware(self) -> &'static [HardwareType] {
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

/// What was rendered, and for what.
#[derive(Debug, Serialize)]
pub struct Rendered {
    /// The template file used.
    pub template: String,
    /// The runtime.
    pub runtime: Runtime,
    /// The recommended hardware.
    pub hardware: String,
    /// Precision rendered.
    pub precision: Precision,
    /// The file's contents.
    pub content: String,
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

/// Renders the starter for `model` on the hardware selection recommends among the runtime's targets.
pub fn render(
    model: &ResolvedModel,
    runtime: Runtime,
    candidates: Option<Vec<Candidate>>,
    batch_size: u32,
    precision: Option<Precision>,
) -> Result<Rendered> {
    let spec = &model.spec;
    let devices = DeviceCatalog::builtin();
    let candidates = match candidates {
        Some(c) => c,
        None => runtime
            .hardware()
            .iter()
            .map(|hw| Candidate::hardware(&devices, *hw))
            .collect::<Result<_, _>>()?,
    };
    let gpu_first = |c: &Candidate| !matches!(c.device.hardware_type, HardwareType::Cpu | HardwareType::Wasm);
    let precision = precision.unwrap_or(if candidates.iter().any(gpu_first) && runtime == Runtime::Pytorch {
        Precision::Fp16
    } else {
        Precision::Fp32
    });
    let req = SelectionRequest {
        batch_size,
        seq_length: 128.min(spec.max_positions.max(1)),
        mode: hwfit_core::Mode::Inference,
        precision,
        task_type: None,
        candidates: candidates.clone(),
    };
    let selection: Selection = select_hardware(spec, &req, &PerfModel::builtin()?, &SelectionConfig::default())?;
    let hardware = selection
        .primary_recommendation
        .clone()
        .with_context(|| format!("no candidate can run {}: {}", spec.name, selection.explanation))?;
    let chosen = candidates
        .iter()
        .find(|c| c.key == hardware)
        .context("the recommended candidate vanished")?;
    let hw = chosen.device.hardware_type;
    let template = match runtime {
        Runtime::Pytorch => format!(
            "pytorch/{}.j2",
            Classifier::builtin().template_for(spec.family.as_str(), Some(spec.subfamily.as_str()))
        ),
        Runtime::TransformersJs => String::from("transformers.js/starter.mjs.j2"),
        Runtime::OnnxruntimeWeb => String::from("onnxruntime-web/session.mjs.j2"),
    };
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)?;
    }
    let ort_providers = match hw {
        HardwareType::Webgpu => r#"["webgpu", "wasm"]"#,
        HardwareType::Webnn => r#"[{ name: "webnn", deviceType: "gpu" }, "wasm"]"#,
        _ => r#"["wasm"]"#,
    };
    let content = env.get_template(&template)?.render(context! {
        model_name => spec.name,
        family => spec.family.as_str(),
        subfamily => spec.subfamily.as_str(),
        pipeline_task => spec.subfamily.pipeline_task(),
        hardware => hardware,
        device_name => chosen.device.name,
        torch_device => hw.torch_device().unwrap_or("cpu"),
        torch_dtype => torch_dtype(precision),
        js_device => if hw == HardwareType::Webgpu { "webgpu" } else { "wasm" },
        js_dtype => js_dtype(precision),
        ort_providers => ort_providers,
        precision => precision.as_str(),
        batch_size => batch_size,
        recommendation => selection.explanation,
    })?;
    Ok(Rendered {
        template,
        runtime,
        hardware,
        precision,
        content,
    })
}
