//! NVIDIA Parakeet speech recognisers (`parakeet_ctc`, `parakeet_tdt`, `parakeet_rnnt`, and a bare
//! `parakeet_encoder`), as transformers' `modeling_parakeet.py` builds them: a FastConformer encoder
//! (depthwise-separable subsampling convolutions, then conformer blocks of two half feed-forwards,
//! self-attention with relative positions and a convolution module) and a CTC head, or a
//! transducer's prediction network (an LSTM over the emitted tokens) and joint network.

use alloc::vec::Vec;

use super::conformer::conformer_blocks;
use super::{need, HfConfig};
use crate::catalog::build::dense;
use crate::spec::Component;
use crate::CoreError;

/// Seconds of audio one item stands for: 30, as a Whisper window.
const CLIP_SECONDS: u32 = 30;

/// Mel frames per second of audio (a 10 ms hop, Parakeet's feature extractor's).
const MEL_FRAMES_PER_SECOND: u32 = 100;

impl HfConfig {
    /// A Parakeet model: its `encoder_config` (or the config itself for `parakeet_encoder`) and
    /// its head.
    pub(super) fn parakeet(&self, kind: &str) -> Result<Vec<Component>, CoreError> {
        let encoder = match self.encoder_config.as_deref() {
            Some(e) => e,
            None if kind == "parakeet_encoder" => self,
            None => return Err(super::decoder::missing("encoder_config", kind)),
        };
        let (mut parts, frames, width) = encoder.fast_conformer(kind)?;
        if kind == "parakeet_encoder" {
            return Ok(parts);
        }
        let vocab = u64::from(need(self.vocab_size, "vocab_size", kind)?);
        let frames = u64::from(frames);
        if kind == "parakeet_ctc" {
            let head = vocab * width;
            parts.push(dense("CTC head", head, 2 * frames * head));
            return Ok(parts);
        }
        // A transducer (TDT, RNN-T): the encoder's output projected to the prediction network's
        // width; the prediction network embeds the last token and runs it through its LSTM layers
        // and a projection; the joint network scores the vocabulary (and TDT's durations) for each
        // pair. Greedy decoding visits each encoder frame at most once.
        let d = u64::from(need(self.decoder_hidden_size, "decoder_hidden_size", kind)?);
        let lstm_layers = u64::from(self.num_decoder_layers.unwrap_or(1));
        let durations = self.durations.as_deref().map_or(0, <[u32]>::len) as u64;
        let projections = width * d + d * d;
        let lstm = lstm_layers * 4 * d * 2 * d;
        let joint = (vocab + durations) * d;
        let per_step = projections + lstm + joint;
        parts.push(dense("transducer embedding", vocab * d, 0));
        parts.push(dense(
            "transducer prediction and joint networks",
            per_step,
            2 * frames * per_step,
        ));
        Ok(parts)
    }

    /// The FastConformer encoder: its conformer stack, the blocks' relative-position projections
    /// and convolution modules, and the subsampling front end; the encoder frames of one clip and
    /// the width.
    fn fast_conformer(&self, kind: &str) -> Result<(Vec<Component>, u32, u64), CoreError> {
        let layers = need(self.num_hidden_layers, "encoder_config.num_hidden_layers", kind)?;
        let width = need(self.hidden_size, "encoder_config.hidden_size", kind)?;
        let heads = need(self.num_attention_heads, "encoder_config.num_attention_heads", kind)?;
        let inter = need(self.intermediate_size, "encoder_config.intermediate_size", kind)?;
        let factor = self.subsampling_factor.unwrap_or(8).max(1);
        let mel_frames = CLIP_SECONDS * MEL_FRAMES_PER_SECOND;
        let frames = mel_frames.div_ceil(factor);
        let kernel = u64::from(self.conv_kernel_size.unwrap_or(9));
        let mut parts = conformer_blocks(layers, width, heads, inter, frames, kernel);
        let h = u64::from(width);
        let (subsampling, subsampling_macs) = self.subsampling(h, mel_frames, factor);
        parts.push(dense("audio subsampling", subsampling, 2 * subsampling_macs));
        Ok((parts, frames, h))
    }

    /// The depthwise-separable subsampling front end over `mel_frames` frames of
    /// `num_mel_bins`: a full convolution from one plane to `subsampling_conv_channels`, then a
    /// depthwise and a pointwise convolution per further halving, each stride halving time and
    /// frequency, until `factor`; then the projection of channels × remaining bins to the width.
    /// Its parameters and multiply-accumulates per clip.
    fn subsampling(&self, width: u64, mel_frames: u32, factor: u32) -> (u64, u64) {
        let channels = u64::from(self.subsampling_conv_channels.unwrap_or(256));
        let area = u64::from(self.subsampling_conv_kernel_size.unwrap_or(3)).pow(2);
        let stride = self.subsampling_conv_stride.unwrap_or(2).max(2);
        let stages = factor.max(stride).ilog(stride).max(1);
        let (mut time, mut bins) = (u64::from(mel_frames), u64::from(self.num_mel_bins.unwrap_or(80)));
        let (mut parameters, mut macs) = (0u64, 0u64);
        for stage in 0..stages {
            time = time.div_ceil(u64::from(stride));
            bins = bins.div_ceil(u64::from(stride));
            let per_position = if stage == 0 {
                channels * area
            } else {
                channels * area + channels * channels
            };
            parameters += per_position;
            macs += per_position * time * bins;
        }
        let projection = channels * bins * width;
        (parameters + projection, macs + projection * time)
    }
}
