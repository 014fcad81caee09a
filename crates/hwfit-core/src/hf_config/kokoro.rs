//! Kokoro (hexgrad/Kokoro-82M): a StyleTTS 2-style speech synthesiser whose `config.json` has no
//! `model_type` but a `plbert` and an `istftnet` section. Counted as hexgrad/kokoro @ dfb907a0 builds
//! it (`kokoro/model.py`, `modules.py`, `istftnet.py`): PL-BERT (transformers' ALBERT: one layer's
//! weights run `num_hidden_layers` times), its projection, the prosody predictor (LSTM duration
//! encoder, duration head, F0 and energy AdaIN residual blocks), the text encoder (convolutions and a
//! BiLSTM), and the decoder with its iSTFTNet generator. Convolutions carry weight norm (a gain per
//! output channel, per *input* channel for transposed ones); LSTMs two biases.
//!
//! One item is **one second of speech**: `FRAMES_PER_SECOND` alignment frames of 600 samples at
//! 24 kHz, from at most as many phoneme tokens (each token lasts at least one frame) — the text side
//! at its bound, under a tenth of the work. FLOPs count the products PyTorch's `FlopCounterMode`
//! counts (matrix products, convolutions, attention) plus the LSTMs it does not see.

use alloc::vec::Vec;
use serde::Deserialize;

use super::{need, HfConfig};
use crate::catalog::build::{dense_with_operators, linear};
use crate::spec::Component;
use crate::CoreError;

/// The iSTFTNet generator's section of the config.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct IstftNet {
    pub upsample_rates: Vec<u32>,
    pub upsample_kernel_sizes: Vec<u32>,
    pub upsample_initial_channel: Option<u32>,
    pub resblock_kernel_sizes: Vec<u32>,
    pub resblock_dilation_sizes: Vec<Vec<u32>>,
    pub gen_istft_n_fft: Option<u32>,
    pub gen_istft_hop_size: Option<u32>,
}

/// The sample rate `istftnet.py` fixes (`sampling_rate=24000`).
const SAMPLE_RATE: u64 = 24_000;
/// The decoder's widths `istftnet.py` fixes: its residual blocks, the ASR skip, the harmonics.
const DECODER_WIDTH: u64 = 1024;
const ASR_WIDTH: u64 = 64;
const HARMONICS: u64 = 8;
/// ALBERT's `embedding_size` and `type_vocab_size` (AlbertConfig's defaults; Kokoro passes neither).
const ALBERT_EMBEDDING: u64 = 128;
const ALBERT_TYPES: u64 = 2;
/// The operators eager PyTorch dispatches for each part of Kokoro-82M's `forward_with_tokens`
/// (hexgrad/kokoro @ dfb907a0, PyTorch 2.15 on a CPU, counted with a `TorchDispatchMode`, views
/// left out; 40 tokens, 40 frames — the count does not grow with either): PL-BERT 241 and its
/// projection 1; the predictor's duration encoder 89, LSTMs 8 + 8, duration head 1, F0 and energy
/// blocks 75 + 75 and projections 1 + 1, and the alignment 22; the text encoder 40; the decoder
/// 139; the generator 871 (its eight AdaIN residual blocks with Snake activations are 744 of them).
const EAGER_OPERATORS: [u32; 5] = [242, 280, 40, 139, 871];

/// Bounds that keep every count in range (Kokoro-82M: widths 512–2048, kernels up to 20, 12
/// layers, 178 tokens): a config beyond them is refused, naming the field.
const WIDEST: u32 = 16_384;
const WIDEST_KERNEL: u32 = 64;
const DEEPEST: u32 = 256;
const LARGEST_TABLE: u32 = 1 << 20;

/// A weight-normed `Conv1d(ci, co, k)` with bias: weight, a gain per output channel, bias.
const fn wn_conv(ci: u64, co: u64, k: u64) -> u64 {
    co * ci * k + 2 * co
}

/// A bidirectional LSTM from `input` to `hidden` per direction (two biases).
const fn lstm(input: u64, hidden: u64) -> u64 {
    2 * (4 * hidden * input + 4 * hidden * hidden + 8 * hidden)
}

/// FLOPs of that LSTM over `steps` steps.
const fn lstm_flops(input: u64, hidden: u64, steps: u64) -> u64 {
    2 * 2 * 4 * hidden * (input + hidden) * steps
}

/// Parameters and FLOPs, summed part by part.
#[derive(Default, Clone, Copy)]
struct Tally {
    parameters: u64,
    flops: u64,
}

impl Tally {
    fn add(&mut self, parameters: u64, flops: u64) {
        self.parameters += parameters;
        self.flops += flops;
    }

    fn component(self, name: &str, operators: u32) -> Component {
        dense_with_operators(name, self.parameters, self.flops, operators)
    }
}

/// The model's widths, from the config.
struct Kokoro {
    style: u64,
    hidden: u64,
}

impl Kokoro {
    /// `AdaIN1d(c)`: an affine instance norm and a style projection to a scale and shift.
    fn adain(&self, c: u64) -> (u64, u64) {
        (2 * c + linear(self.style, 2 * c), 2 * self.style * 2 * c)
    }

    /// `AdainResBlk1d(din, dout)` over `frames` input frames (doubled when it upsamples): two
    /// 3-wide convolutions, two AdaINs, a 1×1 shortcut when the width changes, a depthwise
    /// transposed convolution when it upsamples. Returns the output frames too.
    fn res_block(&self, t: &mut Tally, din: u64, dout: u64, upsample: bool, frames: u64) -> u64 {
        let (n1, f1) = self.adain(din);
        let (n2, f2) = self.adain(dout);
        t.add(wn_conv(din, dout, 3) + wn_conv(dout, dout, 3) + n1 + n2, f1 + f2);
        let out = if upsample {
            t.add(din * 3 + din + din, 2 * frames * din * 3);
            2 * frames
        } else {
            frames
        };
        t.add(0, 2 * out * 3 * dout * (din + dout));
        if din != dout {
            t.add(din * dout + dout, 2 * out * din * dout);
        }
        out
    }

    /// `AdaINResBlock1(ch, k)` of the generator over `frames`: three dilated pairs of `k`-wide
    /// convolutions, each with an AdaIN and a Snake alpha.
    fn generator_block(&self, t: &mut Tally, ch: u64, k: u64, pairs: u64, frames: u64) {
        let (n, f) = self.adain(ch);
        t.add(
            2 * pairs * (wn_conv(ch, ch, k) + n + ch),
            2 * pairs * (2 * frames * ch * ch * k + f),
        );
    }
}

impl HfConfig {
    /// Whether this is Kokoro's config (no `model_type`; `plbert` and `istftnet` sections).
    pub(super) fn is_kokoro(&self) -> bool {
        self.model_type.is_none() && self.plbert.is_some() && self.istftnet.is_some()
    }

    /// Kokoro's parts, with the FLOPs of one second of speech.
    pub(super) fn kokoro(&self) -> Result<Vec<Component>, CoreError> {
        let kind = "kokoro";
        let bert = Self::required(self.plbert.as_deref(), "plbert", kind)?;
        let istft = self
            .istftnet
            .as_ref()
            .ok_or_else(|| super::decoder::missing("istftnet", kind))?;
        let size = |value: Option<u32>, field: &str, max: u32| -> Result<u64, CoreError> {
            match need(value, field, kind)? {
                0 => Err(CoreError::InvalidConfig(alloc::format!("'{field}' must be positive"))),
                v if v > max => Err(CoreError::InvalidConfig(alloc::format!(
                    "'{field}' is {v}, beyond any Kokoro-style model ({max} at most)"
                ))),
                v => Ok(u64::from(v)),
            }
        };
        let model = Kokoro {
            style: size(self.style_dim, "style_dim", WIDEST)?,
            hidden: size(self.hidden_dim, "hidden_dim", WIDEST)?,
        };
        let (s, d) = (model.style, model.hidden);
        let layers = size(self.n_layer, "n_layer", DEEPEST)?;
        let tokens_vocab = size(self.n_token, "n_token", LARGEST_TABLE)?;
        let max_duration = size(self.max_dur, "max_dur", LARGEST_TABLE)?;
        let kernel = size(self.text_encoder_kernel_size, "text_encoder_kernel_size", WIDEST_KERNEL)?;
        let hop = size(istft.gen_istft_hop_size, "istftnet.gen_istft_hop_size", WIDEST_KERNEL)?;
        let n_fft = size(istft.gen_istft_n_fft, "istftnet.gen_istft_n_fft", WIDEST)?;
        let initial = size(
            istft.upsample_initial_channel,
            "istftnet.upsample_initial_channel",
            WIDEST,
        )?;
        let rates = istft
            .upsample_rates
            .iter()
            .map(|&r| size(Some(r), "istftnet.upsample_rates", WIDEST_KERNEL))
            .collect::<Result<Vec<u64>, _>>()?;
        let kernels = istft
            .upsample_kernel_sizes
            .iter()
            .map(|&k| size(Some(k), "istftnet.upsample_kernel_sizes", WIDEST_KERNEL))
            .collect::<Result<Vec<u64>, _>>()?;
        let block_kernels = istft
            .resblock_kernel_sizes
            .iter()
            .map(|&k| size(Some(k), "istftnet.resblock_kernel_sizes", WIDEST_KERNEL))
            .collect::<Result<Vec<u64>, _>>()?;
        if rates.is_empty() || rates.len() != kernels.len() || rates.len() > 8 {
            return Err(CoreError::InvalidConfig(alloc::string::String::from(
                "'istftnet.upsample_rates' and 'istftnet.upsample_kernel_sizes' must be 1 to 8 entries each, as many of one as of the other",
            )));
        }
        if block_kernels.len() > 8 || istft.resblock_dilation_sizes.iter().any(|d| d.len() > 8) {
            return Err(CoreError::InvalidConfig(alloc::string::String::from(
                "'istftnet.resblock_kernel_sizes' and each of 'istftnet.resblock_dilation_sizes' hold 8 entries at most",
            )));
        }
        // Samples per alignment frame: the decoder's upsampling block doubles the frames, the
        // generator multiplies them by its rates and the inverse STFT by its hop.
        let samples_per_frame = rates
            .iter()
            .try_fold(2 * hop, |acc, &r| acc.checked_mul(r))
            .filter(|&n| n <= SAMPLE_RATE)
            .ok_or_else(|| {
                CoreError::InvalidConfig(alloc::string::String::from(
                    "'istftnet.upsample_rates' × 'gen_istft_hop_size' × 2 exceed a second of audio at 24 kHz",
                ))
            })?;
        let frames = SAMPLE_RATE / samples_per_frame;
        let tokens = frames;

        // PL-BERT and its projection to the hidden width.
        let h = size(bert.hidden_size, "plbert.hidden_size", WIDEST)?;
        let inter = size(bert.intermediate_size, "plbert.intermediate_size", WIDEST)?;
        let passes = size(bert.num_hidden_layers, "plbert.num_hidden_layers", DEEPEST)?;
        let positions = size(
            Some(bert.max_position_embeddings.unwrap_or(512)),
            "plbert.max_position_embeddings",
            LARGEST_TABLE,
        )?;
        let embed = ALBERT_EMBEDDING;
        let mut text = Tally::default();
        let layer = 4 * linear(h, h) + 2 * 2 * h + linear(h, inter) + linear(inter, h);
        text.add(
            (tokens_vocab + positions + ALBERT_TYPES) * embed + 2 * embed + linear(embed, h) + layer + linear(h, h),
            2 * tokens * embed * h
                + passes * (2 * tokens * (4 * h * h + 2 * h * inter) + 4 * tokens * tokens * h)
                + 2 * h * h,
        );
        text.add(linear(h, d), 2 * tokens * h * d);

        // The prosody predictor: the duration encoder (LSTM and AdaLayerNorm per layer), the
        // duration LSTM and head, the shared LSTM over the frames, F0 and energy blocks at twice
        // the frame rate and their 1×1 projections.
        let mut prosody = Tally::default();
        let half = d / 2;
        prosody.add(
            layers * (lstm(d + s, half) + linear(s, 2 * d)),
            layers * (lstm_flops(d + s, half, tokens) + 2 * s * 2 * d),
        );
        prosody.add(lstm(d + s, half), lstm_flops(d + s, half, tokens));
        prosody.add(linear(d, max_duration), 2 * tokens * d * max_duration);
        prosody.add(lstm(d + s, half), lstm_flops(d + s, half, frames));
        for _curve in 0..2 {
            let mut f = frames;
            f = model.res_block(&mut prosody, d, d, false, f);
            f = model.res_block(&mut prosody, d, half, true, f);
            f = model.res_block(&mut prosody, half, half, false, f);
            prosody.add(linear(half, 1), 2 * f * half);
        }
        // The alignment: two products with the one-hot token-to-frame matrix.
        prosody.add(0, 2 * (d + s) * tokens * frames + 2 * d * tokens * frames);

        // The text encoder: the embedding, normed convolutions, a BiLSTM.
        let mut encoder = Tally::default();
        encoder.add(tokens_vocab * d, 0);
        encoder.add(
            layers * (wn_conv(d, d, kernel) + 2 * d),
            layers * 2 * tokens * d * d * kernel,
        );
        encoder.add(lstm(d, half), lstm_flops(d, half, tokens));

        // The decoder: F0 and energy convolutions, the encode block, the ASR skip, four decode
        // blocks (the last one upsampling to the generator's width).
        let mut decoder = Tally::default();
        decoder.add(2 * wn_conv(1, 1, 3), 2 * 2 * frames * 3);
        let wide = DECODER_WIDTH;
        let skip = wide + 2 + ASR_WIDTH;
        let mut f = model.res_block(&mut decoder, d + 2, wide, false, frames);
        decoder.add(wn_conv(d, ASR_WIDTH, 1), 2 * frames * d * ASR_WIDTH);
        for _ in 0..3 {
            f = model.res_block(&mut decoder, skip, wide, false, f);
        }
        f = model.res_block(&mut decoder, skip, initial, true, f);

        // The generator: the harmonic source's linear, per upsampling stage a transposed
        // convolution, residual blocks per kernel size, the noise convolution and its residual
        // block, then the post convolution to the STFT bins.
        let mut generator = Tally::default();
        let samples = f * rates.iter().product::<u64>() * hop;
        generator.add(linear(HARMONICS + 1, 1), 2 * samples * (HARMONICS + 1));
        let bins = n_fft + 2;
        let mut channels = initial;
        for (i, (&rate, &k)) in rates.iter().zip(&kernels).enumerate() {
            let out = channels / 2;
            generator.add(channels * out * k + channels + out, 2 * f * channels * out * k);
            f = (f - 1) * rate + k - 2 * (k.saturating_sub(rate) / 2);
            let last = i + 1 == rates.len();
            if last {
                f += 1;
            }
            for (&rk, dilations) in block_kernels.iter().zip(&istft.resblock_dilation_sizes) {
                model.generator_block(&mut generator, out, rk, dilations.len() as u64, f);
            }
            let (noise_kernel, noise_res) = if last {
                (1, 11)
            } else {
                (2 * rates[i + 1..].iter().product::<u64>(), 7)
            };
            generator.add(linear(bins * noise_kernel, out), 2 * f * bins * out * noise_kernel);
            model.generator_block(&mut generator, out, noise_res, 3, f);
            channels = out;
        }
        generator.add(wn_conv(channels, bins, 7), 2 * f * channels * bins * 7);

        let [text_ops, prosody_ops, encoder_ops, decoder_ops, generator_ops] = EAGER_OPERATORS;
        Ok(alloc::vec![
            text.component(
                "PL-BERT (one ALBERT layer's weights, every pass) and projection",
                text_ops
            ),
            prosody.component("prosody predictor and alignment", prosody_ops),
            encoder.component("text encoder", encoder_ops),
            decoder.component("decoder", decoder_ops),
            generator.component("iSTFTNet generator", generator_ops),
        ])
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use crate::catalog::config_of;
    use crate::hf_config::HfConfig;
    use crate::spec::Component;

    /// hexgrad/kokoro @ dfb907a0 instantiated from the config with PyTorch 2.15 and transformers
    /// 5.24: `sum(p.numel())` is 81,810,022 (the README: "82 million parameters"), per part as below;
    /// `FlopCounterMode` over `forward_with_tokens` with durations forced to one frame per token
    /// (40 tokens, 40 frames), plus the LSTMs it does not count: 36,864·T² + 158,844,928·T +
    /// 2,304·T·F + 1,316,905,928·F + 20,235,264.
    #[test]
    fn kokoro_has_the_parameters_and_flops_of_its_modules() {
        let json = config_of("hexgrad/Kokoro-82M").expect("in the catalog");
        let config: HfConfig = serde_json::from_str(json).expect("a config");
        let spec = config.to_model(None).expect("read").spec;
        let parts: Vec<(u64, u64)> = spec
            .components
            .iter()
            .map(|c| (c.parameters(), c.flops_per_item(0)))
            .collect();
        let parameters: Vec<u64> = parts.iter().map(|p| p.0).collect();
        assert_eq!(
            parameters,
            [
                6_292_480 + 393_728,
                16_203_828,
                5_606_400,
                53_313_586 - 19_685_942,
                19_685_942
            ]
        );
        let flops: u64 = parts.iter().map(|p| p.1).sum();
        let (t, f) = (40_u64, 40_u64);
        let measured = 36_864 * t * t + 158_844_928 * t + 2_304 * t * f + 1_316_905_928 * f + 20_235_264;
        assert_eq!(flops, measured);
        assert!(spec.components.iter().all(|c| matches!(c, Component::Dense { .. })));
        assert_eq!(spec.subfamily, crate::Subfamily::TextToSpeech);
    }

    /// A field out of range or missing is refused by name, never computed with.
    #[test]
    fn a_malformed_kokoro_config_is_refused_naming_the_field() {
        let json = config_of("hexgrad/Kokoro-82M").expect("in the catalog");
        let base: serde_json::Value = serde_json::from_str(json).expect("json");
        let refused = |edit: &dyn Fn(&mut serde_json::Value), field: &str| {
            let mut value = base.clone();
            edit(&mut value);
            let config: HfConfig = serde_json::from_value(value).expect("a config");
            let error = alloc::format!("{}", config.to_model(None).expect_err("refused"));
            assert!(error.contains(field), "{error}");
        };
        refused(&|v| v["hidden_dim"] = 4_000_000_000_u32.into(), "hidden_dim");
        refused(
            &|v| v["istftnet"]["upsample_rates"] = serde_json::json!([64, 64, 64]),
            "upsample_rates",
        );
        refused(
            &|v| v["istftnet"]["upsample_kernel_sizes"] = serde_json::json!([20]),
            "upsample_kernel_sizes",
        );
        refused(&|v| v["style_dim"] = 0.into(), "style_dim");
        refused(&|v| drop(v.as_object_mut().map(|o| o.remove("n_token"))), "n_token");
    }
}
