//! Hardware-aware starter code: renders the core's template decision (`hwfit_core::api::TemplateDecision`:
//! the template, hardware, device string, dtype and batch) with minijinja and the embedded templates.

use anyhow::Result;
use hwfit_core::api::TemplateDecision;
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

/// The core's decision (the answer of `POST /templates`) and the file rendered from it.
#[derive(Debug, Serialize)]
pub struct Rendered {
    /// The decision.
    #[serde(flatten)]
    pub decision: TemplateDecision,
    /// The file's contents.
    pub content: String,
}

/// Renders the core's starter decision with the embedded templates.
pub fn render(d: &TemplateDecision) -> Result<Rendered> {
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)?;
    }
    let content = env.get_template(&d.template)?.render(context! {
        model_name => d.model_name,
        family => d.family.as_str(),
        subfamily => d.subfamily.as_str(),
        pipeline_task => d.pipeline_task,
        hardware => d.hardware,
        device_name => d.device_name,
        torch_device => d.torch_device,
        torch_dtype => d.torch_dtype,
        js_device => d.js_device,
        js_dtype => d.js_dtype,
        ort_providers => d.ort_providers,
        precision => d.precision.as_str(),
        batch_size => d.batch_size,
        recommendation => d.recommendation,
    })?;
    Ok(Rendered {
        decision: d.clone(),
        content,
    })
}
