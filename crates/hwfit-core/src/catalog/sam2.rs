//! SAM 2 and SAM 2.1 (Segment Anything in images and videos), built module by module as
//! facebookresearch/sam2 builds them from its configs (`sam2/configs/sam2/sam2_hiera_{t,s,b+,l}.yaml`
//! and `sam2/configs/sam2.1/sam2.1_hiera_{t,s,b+,l}.yaml` @ 2b90b9f5ceec907a1c18123530e92e794ad901a4)
//! with the modules of `sam2/modeling`: the Hiera image encoder (`backbones/hieradet.py`) and its FPN
//! neck, the memory attention (`memory_attention.py`, RoPE attention of `sam/transformer.py`), the
//! memory encoder (`memory_encoder.py`), SAM's prompt encoder and mask decoder with SAM 2's additions
//! (`sam/mask_decoder.py`) and the object-pointer projections of `sam2_base.py`.
//!
//! One item is one video frame tracked with a full memory bank — the workload of the README's
//! speed column: the image encoder at 1024 px, memory attention from the frame's 64×64 features to
//! `num_maskmem` (7) remembered frames and 16 object pointers, the mask decoder for one click, and
//! the memory encoder that stores the frame. Hiera's stages are transformer stacks (windowed
//! attention on all but the global blocks); each stage's first block, which pools the queries and
//! widens the channels, is counted on its own.

use alloc::vec::Vec;

use super::build::{dense_with_operators, linear, stack};
use crate::hf_config::{sam_mask_decoder_parameters, sam_prompt_encoder_parameters};
use crate::spec::{Component, Modality, SlidingWindow, StackRole};

/// The input side the configs state (`image_size: 1024`).
pub(crate) const IMAGE: u64 = 1024;
/// The patch embedding's stride: stage 1 works on a 256×256 grid.
const PATCH_STRIDE: u64 = 4;
/// `d_model` of the neck, the memory attention and the SAM heads.
const D: u64 = 256;
/// The memory encoder's `out_dim`: the width of a remembered frame's features.
const MEMORY_DIM: u64 = 64;
/// `num_maskmem`: frames in the memory bank.
const MEMORIES: u64 = 7;
/// `max_obj_ptrs_in_encoder` (SAM2Base's default): object pointers attended to.
const POINTERS: u64 = 16;
/// The memory attention's layers and feed-forward width (`num_layers: 4`, `dim_feedforward: 2048`).
const MEMORY_LAYERS: u64 = 4;
const MEMORY_FFN: u64 = 2048;
/// The mask decoder's tokens for one click: the object-score, IoU and four mask tokens, the
/// point and its padding point.
const DECODER_TOKENS: u64 = 8;

/// A Hiera image encoder as one config states it (`trunk:` with `Hiera`'s defaults for what it
/// leaves out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hiera {
    /// `embed_dim`: stage 1's width (doubled at each stage).
    embed_dim: u64,
    /// `num_heads`: stage 1's heads (doubled at each stage).
    heads: u64,
    /// `stages`: blocks per stage.
    stages: [u64; 4],
    /// `global_att_blocks`: blocks with global attention.
    global: [u64; 3],
    /// `window_spec`: the attention window per stage.
    windows: [u64; 4],
    /// `window_pos_embed_bkg_spatial_size`: the background position table's side.
    background: u64,
}

/// Operators eager PyTorch dispatches for each dense part (facebookresearch/sam2 @ 2b90b9f5's
/// modules on PyTorch 2.15, a CPU, counted with a `TorchDispatchMode`, views left out; the same for
/// every scale): a stage transition block 15, the patch embedding and position tables 5, the neck
/// (with its sine position encodings) 102, the memory attention 143, the memory encoder 113, the SAM
/// heads for one click 194 and the skip projections 4.
const TRANSITION_OPERATORS: u32 = 15;
const EMBEDDING_OPERATORS: u32 = 5;
const NECK_OPERATORS: u32 = 102;
const MEMORY_ATTENTION_OPERATORS: u32 = 143;
const MEMORY_ENCODER_OPERATORS: u32 = 113;
const HEAD_OPERATORS: u32 = 194 + 4;

/// Hiera-T, -S, -B+ and -L as `sam2.1_hiera_{t,s,b+,l}.yaml` state them (the SAM 2 configs state the
/// same trunks).
pub(crate) const SCALES: [Hiera; 4] = [
    Hiera {
        embed_dim: 96,
        heads: 1,
        stages: [1, 2, 7, 2],
        global: [5, 7, 9],
        windows: [8, 4, 14, 7],
        background: 7,
    },
    Hiera {
        embed_dim: 96,
        heads: 1,
        stages: [1, 2, 11, 2],
        global: [7, 10, 13],
        windows: [8, 4, 14, 7],
        background: 7,
    },
    Hiera {
        embed_dim: 112,
        heads: 2,
        stages: [2, 3, 16, 3],
        global: [12, 16, 20],
        windows: [8, 4, 14, 7],
        background: 14,
    },
    Hiera {
        embed_dim: 144,
        heads: 2,
        stages: [2, 6, 36, 4],
        global: [23, 33, 43],
        windows: [8, 4, 16, 8],
        background: 7,
    },
];

/// Which release: SAM 2.1 adds the temporal-position projection of object pointers and a learned
/// no-object embedding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Release {
    Sam2,
    Sam2_1,
}

/// `MLP(i, h, o, layers)` of `sam2_utils.py`.
const fn mlp(i: u64, h: u64, o: u64, layers: u64) -> u64 {
    linear(i, h) + (layers - 2) * linear(h, h) + linear(h, o)
}

impl Hiera {
    fn width(&self, stage: usize) -> u64 {
        self.embed_dim << stage
    }

    fn heads(&self, stage: usize) -> u64 {
        self.heads << stage
    }

    /// The token grid's side at `stage`.
    const fn side(stage: usize) -> u64 {
        (IMAGE / PATCH_STRIDE) >> stage
    }

    /// The index of a stage's first block.
    fn first_block(&self, stage: usize) -> u64 {
        self.stages[..stage].iter().sum()
    }

    /// A stage's blocks after the first (for stages 2–4), as a transformer stack.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "widths, heads and counts of a few thousand"
    )]
    fn stage(&self, stage: usize) -> Option<Component> {
        let first = self.first_block(stage) + u64::from(stage > 0);
        let end = self.first_block(stage + 1);
        let layers = end.checked_sub(first).filter(|&n| n > 0)?;
        let global = self.global.iter().filter(|&&b| (first..end).contains(&b)).count() as u64;
        let width = self.width(stage);
        // Stage 1 embeds the image in 4×4 patches (the 7×7 kernel's other taps and its bias are
        // counted with the position tables); the later stages read the pooled grid.
        let input = if stage == 0 {
            Modality::Image {
                image_size: IMAGE as u32,
                patch_size: PATCH_STRIDE as u32,
                register_tokens: 0,
            }
        } else {
            Modality::FeatureMap {
                side: Self::side(stage) as u32,
            }
        };
        let mut s = stack(
            StackRole::Encoder,
            input,
            layers as u32,
            width as u32,
            self.heads(stage) as u32,
            4 * width as u32,
        );
        let window = self.windows[stage];
        s.sliding_window = Some(SlidingWindow {
            window: (window * window) as u32,
            layers: (layers - global) as u32,
        });
        Some(s.component())
    }

    /// The three blocks that open stages 2–4: a `proj` to the new width for the residual, `qkv`
    /// to the new width over the previous stage's grid, queries max-pooled to the new grid and
    /// attending within the previous stage's window, then the new width's projection and MLP.
    fn transitions(&self) -> Component {
        let (mut parameters, mut flops) = (0, 0);
        for stage in 1..4 {
            let (input, width) = (self.width(stage - 1), self.width(stage));
            let tokens_in = Self::side(stage - 1).pow(2);
            let tokens = Self::side(stage).pow(2);
            let window = self.windows[stage - 1];
            parameters += 2 * input
                + linear(input, width)
                + linear(input, 3 * width)
                + linear(width, width)
                + 2 * width
                + mlp(width, 4 * width, width, 2);
            flops += 2 * tokens_in * input * 4 * width
                + 2 * tokens * 9 * width * width
                + 4 * tokens * window * window * width;
        }
        dense_with_operators(
            "Hiera stage transitions (query pooling)",
            parameters,
            flops,
            3 * TRANSITION_OPERATORS,
        )
    }

    /// The patch embedding (7×7 convolution, stride 4), the background and window position tables,
    /// and the norms and biases of the blocks the stacks count without them.
    fn embeddings_norms_biases(&self) -> Component {
        let c = self.embed_dim;
        // The stage-1 stack counts 3 × 4 × 4 of the kernel's 3 × 7 × 7 taps per channel.
        let patch = 3 * (49 - 16) * c + c;
        let positions = c * (self.background.pow(2) + self.windows[0].pow(2));
        let stacked: u64 = (0..4)
            .map(|s| (self.stages[s] - u64::from(s > 0)) * 13 * self.width(s))
            .sum();
        // The stacks count no embedding FLOPs: the whole 7×7 convolution is here.
        let flops = 2 * 3 * 49 * c * Self::side(0).pow(2);
        dense_with_operators(
            "Hiera patch embedding, positions, norms and biases",
            patch + positions + stacked,
            flops,
            EMBEDDING_OPERATORS,
        )
    }

    /// The FPN neck: a 1×1 lateral convolution from each stage to `d_model`.
    fn neck(&self) -> Component {
        let parameters = (0..4).map(|s| linear(self.width(s), D)).sum();
        let flops = (0..4).map(|s| 2 * self.width(s) * D * Self::side(s).pow(2)).sum();
        dense_with_operators("FPN neck", parameters, flops, NECK_OPERATORS)
    }
}

/// The memory attention: layers of RoPE self-attention over the frame's features, cross-attention
/// to the memory bank (keys and values from `MEMORY_DIM`-wide memories) and a ReLU feed-forward.
fn memory_attention() -> Component {
    let layer = 4 * linear(D, D) + 2 * linear(D, D) + 2 * linear(MEMORY_DIM, D) + mlp(D, MEMORY_FFN, D, 2) + 3 * 2 * D;
    let parameters = MEMORY_LAYERS * layer + 2 * D;
    let tokens = Hiera::side(2).pow(2);
    // Each pointer is split into D / MEMORY_DIM tokens.
    let memory = MEMORIES * tokens + POINTERS * D / MEMORY_DIM;
    let per_layer = 2 * tokens * 6 * D * D
        + 2 * memory * MEMORY_DIM * 2 * D
        + 4 * tokens * tokens * D
        + 4 * tokens * memory * D
        + 2 * tokens * 2 * D * MEMORY_FFN;
    dense_with_operators(
        "memory attention (7 memories, 16 object pointers)",
        parameters,
        MEMORY_LAYERS * per_layer,
        MEMORY_ATTENTION_OPERATORS,
    )
}

/// The memory encoder: the mask downsampler (four stride-2 3×3 convolutions with norms, 1 → 256
/// channels, and a 1×1), the frame features' 1×1 projection, two ConvNeXt blocks and the 1×1 to
/// `MEMORY_DIM`.
fn memory_encoder() -> Component {
    let (mut parameters, mut flops) = (0, 0);
    let mut channels = 1;
    for step in 1..=4 {
        let out = channels * 4;
        let side = IMAGE >> step;
        parameters += 9 * channels * out + out + 2 * out;
        flops += 2 * 9 * channels * out * side * side;
        channels = out;
    }
    let pixels = Hiera::side(2).pow(2);
    parameters += 2 * linear(D, D) + linear(D, MEMORY_DIM);
    flops += 2 * pixels * D * (2 * D + MEMORY_DIM);
    // Fuser: two CXBlocks (7×7 depthwise convolution, norm, 4× MLP, layer scale).
    parameters += 2 * (49 * D + D + 2 * D + mlp(D, 4 * D, D, 2) + D);
    flops += 2 * 2 * pixels * (49 * D + 8 * D * D);
    dense_with_operators("memory encoder", parameters, flops, MEMORY_ENCODER_OPERATORS)
}

/// SAM's prompt encoder and mask decoder with SAM 2's additions (high-resolution skip
/// projections, an object-score token and head), the object-pointer projections and the learned
/// memory embeddings.
fn heads(release: Release) -> Component {
    let skips = linear(D, D / 8) + linear(D, D / 4);
    let object_score = D + mlp(D, D, 1, 3);
    let decoder = sam_mask_decoder_parameters() + skips + object_score;
    let pointers = mlp(D, D, D, 3);
    // `mask_downsample` (a 4×4 convolution, 1 → 1), `maskmem_tpos_enc`, `no_mem_embed`,
    // `no_mem_pos_enc`, `no_obj_ptr`.
    let learned = 17 + MEMORIES * MEMORY_DIM + 3 * D;
    let release_2_1 = match release {
        Release::Sam2 => 0,
        Release::Sam2_1 => linear(D, MEMORY_DIM) + MEMORY_DIM,
    };
    let parameters = decoder + sam_prompt_encoder_parameters() + pointers + learned + release_2_1;
    // The two-way transformer (attention at half width) over the 64×64 embeddings, the two
    // transposed convolutions up to 256×256, the skips and the masks' dot products.
    let pixels = Hiera::side(2).pow(2);
    let inner = D / 2;
    let two_way_layer =
        8 * pixels * D * inner + 8 * DECODER_TOKENS * pixels * inner + 2 * DECODER_TOKENS * (4 * D * D + 2 * D * 2048);
    let final_attention = 4 * pixels * D * inner + 4 * DECODER_TOKENS * pixels * inner;
    let upscaling = 2 * D * (D / 4) * 4 * pixels + 2 * (D / 4) * (D / 8) * 4 * 4 * pixels;
    let skip_flops = 2 * D * (D / 8) * 16 * pixels + 2 * D * (D / 4) * 4 * pixels;
    let masks = 2 * 4 * (D / 8) * 16 * pixels;
    let flops = 2 * two_way_layer + final_attention + upscaling + skip_flops + masks;
    dense_with_operators(
        "prompt encoder, mask decoder, object pointers",
        parameters,
        flops,
        HEAD_OPERATORS,
    )
}

/// SAM 2 (or 2.1) with the trunk `hiera`.
pub(crate) fn sam2(hiera: &Hiera, release: Release) -> Vec<Component> {
    let mut parts: Vec<Component> = (0..4).filter_map(|s| hiera.stage(s)).collect();
    parts.push(hiera.transitions());
    parts.push(hiera.embeddings_norms_biases());
    parts.push(hiera.neck());
    parts.push(memory_attention());
    parts.push(memory_encoder());
    parts.push(heads(release));
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parameters(parts: &[Component]) -> u64 {
        parts.iter().map(Component::parameters).sum()
    }

    /// Each config built by facebookresearch/sam2 @ 2b90b9f5 (its modules instantiated from the
    /// yaml with PyTorch 2.15, `sum(p.numel() for p in model.parameters())`): exactly.
    #[test]
    fn every_release_and_scale_has_the_parameters_its_modules_have() {
        let published_2_1 = [38_962_498, 46_060_354, 80_850_178, 224_446_642];
        let published_2 = [38_945_986, 46_043_842, 80_833_666, 224_430_130];
        for (i, hiera) in SCALES.iter().enumerate() {
            assert_eq!(
                parameters(&sam2(hiera, Release::Sam2_1)),
                published_2_1[i],
                "sam2.1 scale {i}"
            );
            assert_eq!(
                parameters(&sam2(hiera, Release::Sam2)),
                published_2[i],
                "sam2 scale {i}"
            );
        }
    }

    /// Hiera's trunk alone, and the shared parts, against the same instantiation.
    #[test]
    fn the_parts_match_the_modules() {
        let tiny = sam2(&SCALES[0], Release::Sam2_1);
        let trunk: u64 = tiny[..tiny.len() - 4].iter().map(Component::parameters).sum();
        assert_eq!(trunk, 26_849_472);
        assert_eq!(memory_attention().parameters(), 5_922_304);
        assert_eq!(memory_encoder().parameters(), 1_384_608);
        assert_eq!(SCALES[2].neck().parameters(), 431_104);
    }

    /// FLOPs per part against `torch.utils.flop_counter.FlopCounterMode` over the same modules
    /// (batch 1, 1024 px; memory attention over 7 × 4096 memory tokens and 64 pointer tokens; the
    /// SAM heads for one click, without the skip projections the image path runs): the dense parts
    /// within 1 %, Hiera-T's and Hiera-B+'s trunks (stacks, transitions, patch embedding) within 20 %
    /// (the stacks count attention as the rest of hwfit does, and no window padding).
    #[test]
    fn flops_match_pytorchs_flop_counter() {
        #[allow(clippy::cast_precision_loss)]
        let near = |ours: u64, measured: f64, tolerance: f64| {
            let ratio = ours as f64 / measured;
            assert!((ratio - 1.0).abs() < tolerance, "{ours} vs {measured}: {ratio}");
        };
        near(memory_attention().flops_per_item(0), 605_607_165_952.0, 0.01);
        near(memory_encoder().flops_per_item(0), 11_607_736_320.0, 0.01);
        let skip_flops = 2 * D * (D / 8) * 16 * 4096 + 2 * D * (D / 4) * 4 * 4096;
        near(
            heads(Release::Sam2_1).flops_per_item(0) - skip_flops,
            3_641_773_568.0,
            0.01,
        );
        near(
            SCALES[0].neck().flops_per_item(0),
            290_783_394_816.0 - 284_743_597_056.0,
            0.01,
        );
        for (hiera, measured) in [(&SCALES[0], 284_743_597_056.0), (&SCALES[2], 638_095_094_784.0)] {
            let parts = sam2(hiera, Release::Sam2_1);
            let trunk: u64 = parts[..parts.len() - 4].iter().map(|p| p.flops_per_item(0)).sum();
            near(trunk, measured, 0.20);
        }
    }
}
