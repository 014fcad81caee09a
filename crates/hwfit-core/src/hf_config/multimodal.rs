//! Models that pair a language model (`text_config`, or InternVL's `llm_config`) with a vision tower
//! (`vision_config`): Gemma 3 (Gemma 3n in its own module), Llama 4, Mistral 3, Qwen2/2.5-VL, PaliGemma, SmolVLM/Idefics3, InternVL,
//! LLaVA-OneVision, Llama 3.2 Vision; and configs of model types hwfit does not know, read by their
//! standard fields.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::decoder::standard_fields;
use super::HfConfig;
use crate::catalog::build::{dense, vit};
use crate::spec::{Component, TransformerStack};
use crate::CoreError;

/// Image side assumed for vision towers that take any resolution (Qwen2-VL, Qwen2.5-VL): 448 pixels,
/// 1,024 patches of 14 before merging.
const DYNAMIC_IMAGE_SIDE: u32 = 448;

/// The components read, the longest text sequence, and how the config was read when hwfit does not
/// know its model type.
pub(super) type Read = (Vec<Component>, u32, Option<String>);

impl HfConfig {
    /// The language model's `model_type` when the nested config does not state it.
    fn language_kind(&self, kind: &str) -> String {
        let nested = self.text_config.as_deref().map(HfConfig::kind).unwrap_or_default();
        if !nested.is_empty() && nested != "text" {
            return match nested.as_str() {
                "gemma3" => String::from("gemma3_text"),
                "llama4" => String::from("llama4_text"),
                // Qwen3-VL's language models are Qwen3's (query/key norms included).
                "qwen3_vl_text" => String::from("qwen3"),
                "qwen3_vl_moe_text" => String::from("qwen3_moe"),
                "mllama_text_model" => String::from("llama"),
                other => String::from(other),
            };
        }
        String::from(match kind {
            "gemma3" => "gemma3_text",
            "gemma3n" => "gemma3n_text",
            "llama4" => "llama4_text",
            "paligemma" => "gemma",
            "qwen2_vl" | "qwen2_5_vl" | "llava_onevision" | "llava_next" => "qwen2",
            "qwen3_vl" => "qwen3",
            "qwen3_vl_moe" => "qwen3_moe",
            _ => "llama",
        })
    }

    /// A vision tower from a `vision_config`, whatever it calls its width and depth.
    fn vision_stack(&self, parent_kind: &str) -> TransformerStack {
        let kind = self.kind();
        let width = self
            .embed_dim
            .or(self.hidden_size)
            .or(self.vt_hidden_size)
            .unwrap_or(1024);
        let layers = self
            .num_hidden_layers
            .or(self.depth)
            .or(self.vt_num_hidden_layers)
            .unwrap_or(24)
            + self.num_global_layers.unwrap_or(0);
        let heads = self
            .num_attention_heads
            .or(self.num_heads)
            .or(self.vt_num_attention_heads)
            .unwrap_or(16);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let inter = self
            .intermediate_size
            .or(self.vt_intermediate_size)
            .or(self.mlp_ratio.map(|r| (r * f64::from(width)) as u32))
            .unwrap_or(width.saturating_mul(4));
        let dynamic = parent_kind.starts_with("qwen");
        let image = if dynamic {
            DYNAMIC_IMAGE_SIDE
        } else {
            self.image_size.unwrap_or(224)
        };
        let patch = self.patch_size.unwrap_or(14);
        let mut tower = vit(layers, width, heads, inter, image, patch);
        if dynamic {
            // Rotary positions, no learned table.
            tower.learned_positions = 0;
        }
        if kind == "pixtral" || parent_kind == "qwen2_5_vl" {
            tower.gated_ffn = true;
        }
        tower
    }

    /// A language model with a vision tower and a projector between them.
    pub(super) fn multimodal(&self, kind: &str) -> Result<(Vec<Component>, u32), CoreError> {
        // Qwen2/2.5-VL state the language model at the top level (older transformers versions).
        let lm_config = match self.text_config.as_deref() {
            Some(t) if t.num_hidden_layers.is_some() || self.num_hidden_layers.is_none() => t,
            _ => self,
        };
        let lm_kind = self.language_kind(kind);
        let lm = lm_config
            .decoder_stack(&lm_kind)
            .map_err(|e| nested_error(e, "text_config"))?;
        let positions = lm_config.positions(&lm_kind);
        if kind == "gemma3n" {
            return Ok((self.gemma3n(lm, lm_config)?, positions));
        }
        let Some(vision_config) = self.vision_config.as_deref() else {
            return Ok((vec![lm.component()], positions));
        };
        let vision = vision_config.vision_stack(kind);
        let merge = u64::from(vision_config.spatial_merge_size.unwrap_or(1).max(1)).pow(2);
        let v = u64::from(vision.hidden_size) * merge;
        let h = u64::from(lm.hidden_size);
        let patches = vision.tokens_per_item(0);
        let tokens = u64::from(self.mm_tokens_per_image.unwrap_or(0)).max(patches / merge);
        // Qwen's merger: two layers over merged patches; LLaVA-style projectors: vision → text, text → text.
        let projector = if merge > 1 { v * v + v * h } else { v * h + h * h };
        Ok((
            vec![
                vision.component(),
                dense("multimodal projector", projector, 2 * tokens * projector),
                lm.component(),
            ],
            positions,
        ))
    }

    /// A config of a model type hwfit does not know, read by the standard fields: a decoder-only
    /// language model when its class generates text, else a bidirectional encoder.
    pub(super) fn by_standard_fields(&self, kind: &str) -> Result<Read, CoreError> {
        let missing: Vec<&str> = [
            ("num_hidden_layers", self.num_hidden_layers),
            ("hidden_size", self.hidden_size),
            ("num_attention_heads", self.num_attention_heads),
            ("vocab_size", self.vocab_size),
        ]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(name, _)| *name)
        .collect();
        if !missing.is_empty() {
            return Err(CoreError::InvalidConfig(format!(
                "model_type '{kind}' is not one hwfit knows, and the standard fields it would be read by are missing: {}",
                missing.join(", ")
            )));
        }
        let generates = self.architectures.iter().any(|a| {
            a.ends_with("ForCausalLM") || a.ends_with("LMHeadModel") || a.ends_with("ForConditionalGeneration")
        });
        let (parts, how) = if generates || self.architectures.is_empty() && self.intermediate_size.is_some() {
            let mut parts = vec![self.decoder_stack(kind)?.component()];
            let per_layer = self.per_layer_embedding_parameters();
            if per_layer > 0 {
                parts.push(dense("per-layer embeddings", per_layer, 0));
            }
            (parts, "a decoder-only language model")
        } else {
            (self.bert_like(kind)?, "a bidirectional encoder")
        };
        let note = format!(
            "model_type '{kind}' is not one hwfit knows: read by its standard fields ({}) as {how}",
            standard_fields()
        );
        Ok((parts, self.max_position_embeddings.unwrap_or(0), Some(note)))
    }
}

fn nested_error(e: CoreError, field: &str) -> CoreError {
    match e {
        CoreError::InvalidConfig(message) => CoreError::InvalidConfig(format!("{field}: {message}")),
        other => other,
    }
}
