//! The conformer encoder blocks audio models share (Gemma 3n's audio encoder, Parakeet's
//! FastConformer): two half feed-forwards around self-attention with a relative-position projection
//! and a convolution module.

use alloc::vec;
use alloc::vec::Vec;

use crate::catalog::build::{dense, stack};
use crate::spec::{Component, Modality, StackRole};

/// `layers` conformer blocks of `width` over `frames` frames: a transformer stack holding attention
/// (4h²) and the two half feed-forwards of `ffn_inner` each (as one of twice that width), and the
/// parts it does not hold — per block the relative-position projection (h²) and the convolution
/// module (a pointwise projection to the gated 2h, a depthwise kernel of `kernel` taps, a
/// pointwise projection back).
pub(super) fn conformer_blocks(
    layers: u32,
    width: u32,
    heads: u32,
    ffn_inner: u32,
    frames: u32,
    kernel: u64,
) -> Vec<Component> {
    let encoder = stack(
        StackRole::Encoder,
        Modality::Audio { frames },
        layers,
        width,
        heads,
        2 * ffn_inner,
    );
    let h = u64::from(width);
    let extras = u64::from(layers) * (h * h + 2 * h * h + kernel * h + h * h);
    vec![
        encoder.component(),
        dense(
            "conformer positions and convolution modules",
            extras,
            2 * u64::from(frames) * extras,
        ),
    ]
}
