//! Compact constructors for catalog entries: one call per architecture shape, taking the numbers as
//! they appear in the model's `config.json`.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::spec::{Component, ConvNet, Modality, Norm, StackRole, TransformerStack};

/// A stack with the given shape and defaults: multi-head attention (kv = heads), head width
/// hidden/heads, dense two-matrix feed-forward, no vocabulary, no learned positions.
#[must_use]
pub fn stack(role: StackRole, input: Modality, layers: u32, hidden: u32, heads: u32, inter: u32) -> TransformerStack {
    TransformerStack {
        role,
        input,
        layers,
        hidden_size: hidden,
        attention_heads: heads,
        kv_heads: heads,
        head_dim: hidden / heads.max(1),
        intermediate_size: inter,
        gated_ffn: false,
        experts: 1,
        active_experts: 1,
        vocab_size: 0,
        tied_embeddings: true,
        learned_positions: 0,
        shared_expert_size: 0,
        dense_layers: 0,
        dense_intermediate_size: 0,
        latent_attention: None,
        compressed_attention: None,
        sparse_attention: None,
        sliding_window: None,
        full_attention: None,
        recurrent_layers: 0,
        state_mixer: None,
        mixer_only_layers: 0,
        expert_latent_size: 0,
        gated_attention: false,
        value_head_dim: 0,
        norm: Norm::LayerNorm,
        norms_per_layer: 2,
        qk_norm: false,
        rotary: false,
        attention_sinks: false,
        kv_shared_layers: 0,
        relative_position_bias: false,
        conv1d_projections: false,
        written_out_gelu: false,
    }
}

impl TransformerStack {
    /// Sets the vocabulary and whether the output projection is tied to it.
    #[must_use]
    pub fn vocab(mut self, vocab: u32, tied: bool) -> Self {
        self.vocab_size = vocab;
        self.tied_embeddings = tied;
        self
    }
    /// Sets learned absolute position embeddings.
    #[must_use]
    pub fn positions(mut self, positions: u32) -> Self {
        self.learned_positions = positions;
        self
    }
    /// Sets grouped-query attention key/value heads.
    #[must_use]
    pub fn kv(mut self, kv_heads: u32) -> Self {
        self.kv_heads = kv_heads;
        self
    }
    /// Sets an explicit head width.
    #[must_use]
    pub fn head_dim(mut self, head_dim: u32) -> Self {
        self.head_dim = head_dim;
        self
    }
    /// Sets RMS normalisation and rotary positions (the Llama layer).
    #[must_use]
    pub fn rms_rotary(mut self) -> Self {
        self.norm = Norm::RmsNorm;
        self.rotary = true;
        self
    }
    /// Sets rotary positions.
    #[must_use]
    pub fn rotary(mut self) -> Self {
        self.rotary = true;
        self
    }
    /// Sets the normalisations per layer (Gemma 2/3 normalise before and after each block: 4).
    #[must_use]
    pub fn norms_per_layer(mut self, norms: u32) -> Self {
        self.norms_per_layer = norms;
        self
    }
    /// Makes the feed-forward gated (three matrices).
    #[must_use]
    pub fn gated(mut self) -> Self {
        self.gated_ffn = true;
        self
    }
    /// Sets mixture-of-experts routing.
    #[must_use]
    pub fn experts(mut self, experts: u32, active: u32) -> Self {
        self.experts = experts;
        self.active_experts = active;
        self
    }
    /// Wraps the stack as a component.
    #[must_use]
    pub fn component(self) -> Component {
        Component::Transformer(self)
    }
}

/// BERT-style text encoder: learned positions, vocabulary embedding.
#[must_use]
pub fn bert(layers: u32, hidden: u32, heads: u32, inter: u32, vocab: u32, positions: u32) -> Vec<Component> {
    vec![stack(StackRole::Encoder, Modality::Text, layers, hidden, heads, inter)
        .vocab(vocab, true)
        .positions(positions)
        .component()]
}

/// GPT-2-style decoder: learned positions, tied output, 4× feed-forward.
#[must_use]
pub fn gpt2(layers: u32, hidden: u32, heads: u32, vocab: u32, positions: u32) -> Vec<Component> {
    let mut decoder = stack(StackRole::Decoder, Modality::Text, layers, hidden, heads, 4 * hidden)
        .vocab(vocab, true)
        .positions(positions);
    // `Conv1D` projections and `activation_function: gelu_new`, as GPT-2's configs have it.
    decoder.conv1d_projections = true;
    decoder.written_out_gelu = true;
    vec![decoder.component()]
}

/// Llama-style decoder: rotary positions, gated feed-forward, grouped-query attention.
#[must_use]
pub fn llama(layers: u32, hidden: u32, heads: u32, kv: u32, inter: u32, vocab: u32, tied: bool) -> TransformerStack {
    stack(StackRole::Decoder, Modality::Text, layers, hidden, heads, inter)
        .kv(kv)
        .gated()
        .rms_rotary()
        .vocab(vocab, tied)
}

/// T5-style encoder-decoder with a shared vocabulary (relative positions).
#[must_use]
pub fn t5(d_model: u32, d_ff: u32, heads: u32, layers: u32, vocab: u32, gated: bool, tied: bool) -> Vec<Component> {
    let mut enc = stack(StackRole::Encoder, Modality::Text, layers, d_model, heads, d_ff).head_dim(64);
    let mut dec = stack(StackRole::CrossDecoder, Modality::Text, layers, d_model, heads, d_ff)
        .head_dim(64)
        .vocab(vocab, tied);
    if gated {
        // `feed_forward_proj: gated-gelu` (flan-T5) gates with `gelu_new`.
        enc = enc.gated();
        dec = dec.gated();
        enc.written_out_gelu = true;
        dec.written_out_gelu = true;
    }
    // T5's `T5LayerNorm` is a root-mean-square norm; its attention takes relative position biases.
    enc.norm = Norm::RmsNorm;
    dec.norm = Norm::RmsNorm;
    enc.relative_position_bias = true;
    dec.relative_position_bias = true;
    vec![enc.component(), dec.component()]
}

/// BART-style encoder-decoder with learned positions and a shared, tied vocabulary.
#[must_use]
pub fn bart(d_model: u32, layers: u32, heads: u32, ffn: u32, vocab: u32, positions: u32) -> Vec<Component> {
    vec![
        stack(StackRole::Encoder, Modality::Text, layers, d_model, heads, ffn)
            .positions(positions)
            .component(),
        stack(StackRole::CrossDecoder, Modality::Text, layers, d_model, heads, ffn)
            .vocab(vocab, true)
            .positions(positions)
            .component(),
    ]
}

/// ViT-style image encoder: patch embedding, class token, learned positions.
#[must_use]
pub fn vit(layers: u32, hidden: u32, heads: u32, inter: u32, image_size: u32, patch_size: u32) -> TransformerStack {
    let input = Modality::Image {
        image_size,
        patch_size,
        register_tokens: 0,
    };
    let tokens = (image_size / patch_size).pow(2) + 1;
    stack(StackRole::Encoder, input, layers, hidden, heads, inter).positions(tokens)
}

/// Whisper: log-mel conv stem, audio encoder over 1500 frames (30 s), text decoder of 448 positions.
#[must_use]
pub fn whisper(d_model: u32, layers: u32, heads: u32, ffn: u32, vocab: u32, mel_bins: u32) -> Vec<Component> {
    let frames = 1500;
    let stem_params = 3 * u64::from(mel_bins) * u64::from(d_model) + 3 * u64::from(d_model).pow(2);
    // The first conv runs at 3000 mel frames, the second (stride 2) at 1500.
    let stem_flops = 2 * (3000 * 3 * u64::from(mel_bins) * u64::from(d_model) + 1500 * 3 * u64::from(d_model).pow(2));
    vec![
        dense("log-mel conv stem", stem_params, stem_flops),
        stack(
            StackRole::Encoder,
            Modality::Audio { frames },
            layers,
            d_model,
            heads,
            ffn,
        )
        .positions(frames)
        .component(),
        stack(StackRole::CrossDecoder, Modality::Text, layers, d_model, heads, ffn)
            .vocab(vocab, true)
            .positions(448)
            .component(),
    ]
}

/// wav2vec2/HuBERT: seven-layer conv feature encoder (512 channels), convolutional relative
/// positions (kernel 128, 16 groups), transformer over 10 s clips (499 frames at 50 frames/s).
#[must_use]
pub fn wav2vec2(layers: u32, hidden: u32, heads: u32, inter: u32) -> Vec<Component> {
    let h = u64::from(hidden);
    // conv0: 1→512, k10; conv1-4: 512→512, k3; conv5-6: 512→512, k2
    let feature_params = 512 * 10 + 4 * 512 * 512 * 3 + 2 * 512 * 512 * 2;
    // 10 s at 16 kHz: output lengths 31999→3199 (conv0), then 1599, 799, 399, 199 (k3,s2), 99, 49 (k2,s2)
    let feature_macs: u64 = 3199 * 512 * 10 + (1599 + 799 + 399 + 199) * 512 * 512 * 3 + (99 + 49) * 512 * 512 * 2;
    let feature_projection = 512 * h;
    let positional_conv = h * (h / 16) * 128;
    vec![
        dense(
            "conv feature encoder + positional conv",
            feature_params + feature_projection + positional_conv,
            2 * (feature_macs + 499 * (feature_projection + positional_conv)),
        ),
        stack(
            StackRole::Encoder,
            Modality::Audio { frames: 499 },
            layers,
            hidden,
            heads,
            inter,
        )
        .component(),
    ]
}

/// Parameters of a `Linear(inputs, outputs)` with bias.
#[must_use]
pub(crate) const fn linear(inputs: u64, outputs: u64) -> u64 {
    inputs * outputs + outputs
}

/// A dense extra with its parameters and forward FLOPs per item.
#[must_use]
pub fn dense(name: &str, parameters: u64, flops_per_item: u64) -> Component {
    dense_with_operators(name, parameters, flops_per_item, 0)
}

/// A dense extra whose eager operators were counted (0: a product and its activation).
#[must_use]
pub fn dense_with_operators(name: &str, parameters: u64, flops_per_item: u64, operators: u32) -> Component {
    Component::Dense {
        name: String::from(name),
        parameters,
        flops_per_item,
        operators,
    }
}

/// A convolutional network from its published parameters, multiply-accumulates per image, feature-map
/// sizes and depth (convolution and linear layers).
#[must_use]
pub fn conv(
    parameters: u64,
    macs: u64,
    peak_activations: u64,
    total_activations: u64,
    image_size: u32,
    layers: u32,
) -> Component {
    Component::Conv(ConvNet {
        parameters,
        flops_per_item: 2 * macs,
        peak_activation_elements: peak_activations,
        total_activation_elements: total_activations,
        image_size,
        layers,
    })
}

/// Running totals of a convolutional network's layers as they are built: parameters,
/// multiply-accumulates, feature maps and kernels.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConvTally {
    /// Parameters.
    pub parameters: u64,
    /// Multiply-accumulates of one forward pass.
    pub macs: u64,
    /// Elements of the largest feature map.
    pub peak_activations: u64,
    /// Elements of every feature map.
    pub total_activations: u64,
    /// Convolution and linear layers.
    pub kernels: u32,
}

impl ConvTally {
    /// A `k`×`k` convolution without bias followed by batch norm (γ, β), on a `side`² input;
    /// returns the output side.
    pub fn conv_bn(&mut self, c_in: u64, c_out: u64, k: u64, stride: u64, side: u64) -> u64 {
        self.conv(c_in, c_out, k, stride, 1, true, side)
    }

    /// A `k`×`k` convolution in `groups` groups, followed by batch norm (γ, β) or, without it,
    /// with a bias; returns the output side.
    #[allow(clippy::too_many_arguments)]
    pub fn conv(&mut self, c_in: u64, c_out: u64, k: u64, stride: u64, groups: u64, norm: bool, side: u64) -> u64 {
        let out = side.div_ceil(stride);
        let weights = k * k * (c_in / groups) * c_out;
        self.parameters += weights + if norm { 2 * c_out } else { c_out };
        self.macs += weights * out * out;
        self.feature_map(c_out * out * out);
        self.kernels += 1;
        out
    }

    /// A feature map kept for the backward pass.
    pub fn feature_map(&mut self, elements: u64) {
        self.total_activations += elements;
        self.peak_activations = self.peak_activations.max(elements);
    }
}
