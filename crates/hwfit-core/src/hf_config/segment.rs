//! SAM (`model_type` `sam`): a ViT image encoder with windowed attention, relative positions and a
//! convolutional neck, a prompt encoder and a two-way-transformer mask decoder — counted as
//! `transformers`' `modeling_sam.py` builds them, with `SamConfig`'s defaults (facebook/sam-vit-huge's
//! decoder) for fields a config leaves out.

use alloc::vec::Vec;

use super::{need, HfConfig};
use crate::catalog::build::{dense, vit};
use crate::spec::{Component, SlidingWindow};
use crate::CoreError;

impl HfConfig {
    /// The image encoder, the neck and relative positions (as a dense extra), and the prompt
    /// encoder with the mask decoder.
    pub(super) fn sam(&self) -> Result<Vec<Component>, CoreError> {
        let kind = "sam";
        let v = Self::required(self.vision_config.as_deref(), "vision_config", kind)?;
        let layers = need(v.num_hidden_layers, "vision_config.num_hidden_layers", kind)?;
        let hidden = need(v.hidden_size, "vision_config.hidden_size", kind)?;
        let heads = need(v.num_attention_heads, "vision_config.num_attention_heads", kind)?;
        let mlp = v.mlp_dim.unwrap_or(hidden.saturating_mul(4));
        let image = v.image_size.unwrap_or(1024);
        let patch = v.patch_size.unwrap_or(16).max(1);
        let grid = image / patch;
        let window = v.window_size.unwrap_or(0);
        let global = v.global_attn_indexes.as_ref().map_or(0, |g| g.len() as u32).min(layers);
        let mut encoder = vit(layers, hidden, heads, mlp, image, patch);
        // No class token: the absolute positions are the patch grid's.
        encoder.learned_positions = grid * grid;
        if window > 0 {
            encoder.sliding_window = Some(SlidingWindow {
                window: window * window,
                layers: layers - global,
            });
        }
        // Relative positions: each layer's (2 × size − 1) × head_dim table per axis, `size` the
        // window for windowed layers and the patch grid for global ones.
        let head_dim = u64::from(hidden / heads.max(1));
        let rel = |size: u32| 2 * (2 * u64::from(size) - 1) * head_dim;
        let relative = if v.use_rel_pos.unwrap_or(true) {
            u64::from(layers - global) * rel(if window > 0 { window } else { grid }) + u64::from(global) * rel(grid)
        } else {
            0
        };
        // The neck: a 1×1 and a 3×3 convolution without bias to `output_channels`, each normed.
        let out = u64::from(v.output_channels.unwrap_or(256));
        let neck_weights = u64::from(hidden) * out + 9 * out * out;
        let pixels = u64::from(grid) * u64::from(grid);
        let empty = HfConfig::default();
        let decoder = mask_decoder_parameters(self.mask_decoder_config.as_deref().unwrap_or(&empty))
            + prompt_encoder_parameters(self.prompt_encoder_config.as_deref().unwrap_or(&empty));
        Ok(alloc::vec![
            encoder.component(),
            dense(
                "neck and relative positions",
                neck_weights + 4 * out + relative,
                2 * neck_weights * pixels
            ),
            // Decoder FLOPs bounded by applying every weight to each image-embedding position.
            dense("prompt encoder + mask decoder", decoder, 2 * decoder * pixels),
        ])
    }
}

/// The mask decoder every SAM checkpoint shares (`SamConfig`'s defaults), as SAM 2 builds it too.
pub(crate) fn sam_mask_decoder_parameters() -> u64 {
    mask_decoder_parameters(&HfConfig::default())
}

/// The prompt encoder every SAM checkpoint shares (`SamConfig`'s defaults).
pub(crate) fn sam_prompt_encoder_parameters() -> u64 {
    prompt_encoder_parameters(&HfConfig::default())
}

/// A `SamAttention` of width `h`, its inner width `h / downsample` (q, k, v in, one out; biases).
fn attention(h: u64, downsample: u64) -> u64 {
    let inner = h / downsample.max(1);
    3 * (h * inner + inner) + inner * h + h
}

/// A `SamFeedForward` (`proj_in`, `depth − 2` hidden layers, `proj_out`; biases).
fn feed_forward(input: u64, hidden: u64, output: u64, depth: u64) -> u64 {
    (input * hidden + hidden) + depth.saturating_sub(2) * (hidden * hidden + hidden) + (hidden * output + output)
}

/// `SamMaskDecoder`: output tokens, the two-way transformer, the upscaling, the hypernetworks and
/// the IoU head.
fn mask_decoder_parameters(c: &HfConfig) -> u64 {
    let h = u64::from(c.hidden_size.unwrap_or(256));
    let mlp = u64::from(c.mlp_dim.unwrap_or(2048));
    let layers = u64::from(c.num_hidden_layers.unwrap_or(2));
    let down = u64::from(c.attention_downsample_rate.unwrap_or(2));
    let masks = u64::from(c.num_multimask_outputs.unwrap_or(3)) + 1;
    let norm = 2 * h;
    let block = attention(h, 1) + 2 * attention(h, down) + (h * mlp + mlp + mlp * h + h) + 4 * norm;
    let transformer = layers * block + attention(h, down) + norm;
    let tokens = h + masks * h;
    let upscale = (h * (h / 4) * 4 + h / 4) + 2 * (h / 4) + ((h / 4) * (h / 8) * 4 + h / 8);
    let hypernetworks = masks * feed_forward(h, h, h / 8, 3);
    let iou = feed_forward(
        h,
        u64::from(c.iou_head_hidden_dim.unwrap_or(256)),
        masks,
        u64::from(c.iou_head_depth.unwrap_or(3)),
    );
    transformer + tokens + upscale + hypernetworks + iou
}

/// `SamPromptEncoder`: the mask-input convolutions and the point/box embeddings.
fn prompt_encoder_parameters(c: &HfConfig) -> u64 {
    let h = u64::from(c.hidden_size.unwrap_or(256));
    let m = u64::from(c.mask_input_channels.unwrap_or(16));
    let quarter = m / 4;
    let mask_embed = (quarter * 4 + quarter) + (quarter * m * 4 + m) + (m * h + h) + 2 * quarter + 2 * m;
    let points = u64::from(c.num_point_embeddings.unwrap_or(4));
    mask_embed + h + points * h + h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SamConfig's defaults give the 4,058,340-parameter mask decoder of every SAM checkpoint.
    #[test]
    fn the_default_mask_decoder_is_sams() {
        assert_eq!(mask_decoder_parameters(&HfConfig::default()), 4_058_340);
        assert_eq!(prompt_encoder_parameters(&HfConfig::default()), 6_220);
    }
}
