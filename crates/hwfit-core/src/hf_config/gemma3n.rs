//! Gemma 3n (`gemma3n`), as transformers' `modeling_gemma3n.py` builds it: a language model with
//! per-layer embeddings, AltUp streams, LAuReL residuals and key/value-sharing layers; an image
//! encoder named by its timm architecture (MobileNet-V5); a conformer audio encoder; and an embedder
//! that projects each tower's output into the language model.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::conformer::conformer_blocks;
use super::{need, HfConfig};
use crate::catalog::build::{conv, dense};
use crate::spec::{Component, TransformerStack};
use crate::CoreError;

/// An image encoder a config names by its timm architecture, with the figures of timm's model of that
/// name at the input side the model's processor resizes to.
struct KnownImageEncoder {
    architecture: &'static str,
    parameters: u64,
    macs: u64,
    peak_activations: u64,
    total_activations: u64,
    image_size: u32,
    convolutions: u32,
}

/// Counted on timm 1.0.31's `mobilenetv5_300m_enc` at 768 × 768 (Gemma 3n's `preprocessor_config.json`
/// resizes images to 768 × 768): parameters summed, multiply-accumulates by
/// `torch.utils.flop_counter.FlopCounterMode` (871.5 GFLOPs), convolution outputs by forward hooks.
const IMAGE_ENCODERS: &[KnownImageEncoder] = &[KnownImageEncoder {
    architecture: "mobilenetv5_300m_enc",
    parameters: 294_126_912,
    macs: 435_741_474_816,
    peak_activations: 28_311_552,
    total_activations: 476_762_112,
    image_size: 768,
    convolutions: 282,
}];

impl HfConfig {
    /// Gemma 3n's parts: the image encoder and its embedder, the audio encoder and its embedder, the
    /// language model, its per-layer embedding table and its extra projections.
    pub(super) fn gemma3n(&self, lm: TransformerStack, text: &HfConfig) -> Result<Vec<Component>, CoreError> {
        let text_hidden = u64::from(lm.hidden_size);
        let mut parts = Vec::new();
        if let Some(vision) = self.vision_config.as_deref() {
            let tokens = self.vision_soft_tokens_per_image.unwrap_or(256);
            parts.extend(vision.gemma3n_image_encoder(text_hidden, tokens)?);
        }
        if let Some(audio) = self.audio_config.as_deref() {
            let tokens = self.audio_soft_tokens_per_image.unwrap_or(188);
            parts.extend(audio.gemma3n_audio_encoder(text_hidden, tokens)?);
        }
        let extras = text.gemma3n_language_extras(&lm);
        parts.push(lm.component());
        parts.push(dense("per-layer embeddings", text.per_layer_embedding_parameters(), 0));
        parts.push(dense("AltUp, LAuReL and per-layer projections", extras, 0));
        Ok(parts)
    }

    /// The image encoder a `vision_config` names (`architecture`) and the embedder of its `vocab_size`
    /// rows of `hidden_size` with the projection into the language model, applied to `tokens` soft
    /// tokens per image.
    fn gemma3n_image_encoder(&self, text_hidden: u64, tokens: u32) -> Result<Vec<Component>, CoreError> {
        let name = self.architecture.as_deref().ok_or_else(|| {
            CoreError::InvalidConfig(String::from(
                "vision_config: 'architecture' is missing (needed for model_type 'gemma3n')",
            ))
        })?;
        let known = IMAGE_ENCODERS.iter().find(|e| e.architecture == name).ok_or_else(|| {
            let names: Vec<&str> = IMAGE_ENCODERS.iter().map(|e| e.architecture).collect();
            CoreError::InvalidConfig(format!(
                "vision_config: architecture '{name}' is not an image encoder hwfit knows (known: {})",
                names.join(", ")
            ))
        })?;
        let width = u64::from(need(self.hidden_size, "vision_config.hidden_size", "gemma3n")?);
        let projection = width * text_hidden;
        let embedder = u64::from(self.vocab_size.unwrap_or(0)) * width + projection;
        Ok(vec![
            conv(
                known.parameters,
                known.macs,
                known.peak_activations,
                known.total_activations,
                known.image_size,
                known.convolutions,
            ),
            dense("image embedder", embedder, 2 * u64::from(tokens) * projection),
        ])
    }

    /// The conformer audio encoder of an `audio_config`: subsampling convolutions over the mel
    /// frames, then `conf_num_hidden_layers` blocks of two feed-forwards of four times the width
    /// (macaron), self-attention with a relative-position projection and a convolution module
    /// (two pointwise projections around a depthwise kernel); its output, reduced
    /// `conf_reduction_factor` times to `tokens` soft tokens per clip, is embedded and projected into
    /// the language model.
    fn gemma3n_audio_encoder(&self, text_hidden: u64, tokens: u32) -> Result<Vec<Component>, CoreError> {
        const KIND: &str = "gemma3n_audio";
        let layers = need(self.conf_num_hidden_layers, "audio_config.conf_num_hidden_layers", KIND)?;
        let width = need(self.hidden_size, "audio_config.hidden_size", KIND)?;
        let heads = need(
            self.conf_num_attention_heads,
            "audio_config.conf_num_attention_heads",
            KIND,
        )?;
        let kernel = u64::from(self.conf_conv_kernel_size.unwrap_or(5));
        let frames = tokens * self.conf_reduction_factor.unwrap_or(1).max(1);
        let mut parts = conformer_blocks(layers, width, heads, 4 * width, frames, kernel);
        let h = u64::from(width);
        let subsampling = self.gemma3n_subsampling_parameters(h);
        let projection = h * text_hidden;
        let embedder = u64::from(self.vocab_size.unwrap_or(0)) * h + projection;
        let frames = u64::from(frames);
        // Its projection from the last convolution's channels × reduced mel bins dominates.
        parts.push(dense("audio subsampling", subsampling, 2 * frames * subsampling));
        parts.push(dense("audio embedder", embedder, 2 * u64::from(tokens) * projection));
        Ok(parts)
    }

    /// The subsampling front end: each convolution's kernel over its input channels (one mel
    /// plane into the first) with a norm per channel, then the projection of the last channels ×
    /// the mel bins left after the strides to the encoder's width.
    fn gemma3n_subsampling_parameters(&self, width: u64) -> u64 {
        let channels = self.sscp_conv_channel_size.clone().unwrap_or_default();
        let kernels = self.sscp_conv_kernel_size.clone().unwrap_or_default();
        let strides = self.sscp_conv_stride_size.clone().unwrap_or_default();
        let mut input = 1u64;
        let mut bins = u64::from(self.input_feat_size.unwrap_or(128));
        let mut total = 0u64;
        for (i, &out) in channels.iter().enumerate() {
            let out = u64::from(out);
            let area: u64 = kernels.get(i).map_or(9, |k| k.iter().map(|&d| u64::from(d)).product());
            total += input * out * area + out;
            let stride = strides.get(i).and_then(|s| s.last()).copied().unwrap_or(1).max(1);
            bins = bins.div_ceil(u64::from(stride));
            input = out;
        }
        total + input * bins * width
    }

    /// The language model's parameters besides its stack and per-layer table: per layer, LAuReL's
    /// low-rank residual (`laurel_rank`) and its norm, the per-layer input gate and projection and
    /// their norm, AltUp's router, its norm, scale and coefficients; once, the projection of the
    /// hidden state into every layer's per-layer input and AltUp's projections into and out of its
    /// extra streams (`altup_num_inputs` − 1 of them).
    fn gemma3n_language_extras(&self, lm: &TransformerStack) -> u64 {
        let h = u64::from(lm.hidden_size);
        let layers = u64::from(lm.layers);
        let per_layer_input = u64::from(self.hidden_size_per_layer_input.unwrap_or(0));
        let rank = u64::from(self.laurel_rank.unwrap_or(0));
        let streams = u64::from(self.altup_num_inputs.unwrap_or(1).max(1));
        let laurel = if rank > 0 { 2 * h * rank + h } else { 0 };
        let gates = if per_layer_input > 0 {
            2 * h * per_layer_input + h
        } else {
            0
        };
        let altup = if streams > 1 {
            streams * h + 2 * h + streams * streams * streams + streams * streams
        } else {
            0
        };
        let per_layer = layers * (laurel + gates + altup);
        let projection = if per_layer_input > 0 {
            h * layers * per_layer_input + per_layer_input
        } else {
            0
        };
        per_layer + projection + 2 * (streams - 1) * h * h
    }
}
