//! The bytes eager PyTorch streams besides the weights: every call of the modelling code reads its
//! inputs from memory and writes its output back, where a fused kernel keeps a layer's
//! intermediate values on chip and streams its working set once ([`super::cost`]). Counted per
//! token and layer from the same calls [`super::operators`] counts for eager dispatch:
//!
//! - each projection reads its input and writes its output; the attention output's head layout is
//!   one contiguous copy (the other views and transposes move nothing);
//! - a layer norm is one fused call (read, write); an RMS norm is `transformers`' eight calls, at
//!   16 bits each a pass over the hidden state in FP32 (cast up, square, mean, product, cast back,
//!   scale: 28 + 4 × the activation width bytes per value; at FP32 the casts move nothing: 28);
//! - rotary embeddings: for the queries and the keys two products, a negated half, a
//!   concatenation and a sum — 12 values per value rotated;
//! - attention as one fused scaled-dot-product call reads the queries, keys and values and writes
//!   its output; attention that `transformers` writes out in separate calls materialises the
//!   scores, every call a pass over `heads × context` values per token: with learned sinks
//!   (gpt-oss: product, scale, mask, the sinks' concatenation, maximum, subtraction, softmax, the
//!   values' product — 13 passes, and the key/value heads repeated to the query heads) or T5's
//!   relative position bias (product, the bias added, softmax, the values' product — 9 passes);
//! - residual adds read two values and write one; activations read and write the inner width
//!   (GELU's written-out tanh form: eight calls, 17 passes), a gated feed-forward's product three;
//! - mixture-of-experts layers: the router's logits, each routed token gathered and scattered back,
//!   every expert a token reaches as a gated feed-forward, the shared experts as a dense one;
//! - decoders' caches: a pass over the input concatenates its keys and values to an empty cache
//!   (read, write); a decode step's concatenation copies the whole cache (read and write it once
//!   more besides attention's read: [`DECODE_CACHE_COPIES`]).
//!
//! Convolutional networks: each convolution's output is written, batch-normed and activated (each
//! a read and a write) and read by the next layer; every third layer a residual add — 7 passes
//! over each feature map, where fused kernels make 2.
//!
//! Recurrent layers of hybrid models are counted as attention layers (their reference PyTorch
//! scans stream more). The counts are values; multiplied by the activation width they are bytes.

use crate::spec::{ModelSpec, Norm, StackRole, TransformerStack};
use crate::{Precision, Workload};

/// Passes over the scores of attention written out with learned sinks.
const SINK_SCORE_PASSES: f64 = 13.0;

/// Passes over the scores of T5's attention (no fused kernel takes its position bias).
const RELATIVE_BIAS_SCORE_PASSES: f64 = 9.0;

/// Passes of GELU's tanh approximation written out as eight calls.
const WRITTEN_OUT_GELU_PASSES: f64 = 17.0;

/// Passes eager PyTorch makes over each feature map of a convolutional network.
const CONV_PASSES: f64 = 7.0;

/// Bytes one normalisation of `width` values streams per token.
fn norm_bytes(norm: Norm, width: f64, activation: f64) -> f64 {
    match norm {
        Norm::LayerNorm => 2.0 * activation * width,
        Norm::RmsNorm if activation < 4.0 => (28.0 + 4.0 * activation) * width,
        Norm::RmsNorm => 28.0 * width,
    }
}

/// Values one feed-forward of inner width `inner` streams per token.
fn ffn_values(stack: &TransformerStack, inner: f64) -> f64 {
    let h = f64::from(stack.hidden_size);
    if stack.gated_ffn {
        // Gate and up projections, the activation, the gate product, the down projection.
        2.0 * (h + inner) + 2.0 * inner + 3.0 * inner + (inner + h)
    } else {
        let activation = if stack.written_out_gelu {
            WRITTEN_OUT_GELU_PASSES
        } else {
            2.0
        };
        (h + inner) + activation * inner + (inner + h)
    }
}

/// Values a mixture-of-experts feed-forward streams per token: the router, the token gathered to
/// and scattered back from each expert it reaches, those experts, and the shared experts.
fn moe_ffn_values(stack: &TransformerStack) -> f64 {
    let h = f64::from(stack.hidden_size);
    let k = f64::from(stack.active_experts.max(1));
    let router = h + f64::from(stack.experts);
    let shared = if stack.shared_expert_size > 0 {
        ffn_values(stack, f64::from(stack.shared_expert_size))
    } else {
        0.0
    };
    router + 4.0 * k * h + k * ffn_values(stack, f64::from(stack.intermediate_size)) + shared
}

/// Bytes the attention block of one layer streams per token attending to `context` tokens.
fn attention_bytes(stack: &TransformerStack, activation: f64, context: f64, decode: bool) -> f64 {
    let h = f64::from(stack.hidden_size);
    let heads = f64::from(stack.attention_heads);
    let q = heads * f64::from(stack.head_dim);
    let kv = f64::from(stack.kv_heads) * f64::from(stack.head_dim);
    let projections = (h + q) + 2.0 * (h + kv) + (q + h);
    let layout = 2.0 * q;
    let rotary = if stack.rotary { 12.0 * (q + kv) } else { 0.0 };
    let fused = 2.0 * q + 2.0 * kv;
    let written_out = if stack.attention_sinks {
        // The key and value heads repeated to the query heads: over the whole cache in a decode step.
        let repeated = if decode { context } else { 1.0 };
        SINK_SCORE_PASSES * heads * context + 2.0 * repeated * (q + kv)
    } else if stack.relative_position_bias {
        RELATIVE_BIAS_SCORE_PASSES * heads * context
    } else {
        0.0
    };
    let residual = 3.0 * h;
    let qk_norm = if stack.qk_norm {
        norm_bytes(stack.norm, q + kv, activation)
    } else {
        0.0
    };
    activation * (projections + layout + rotary + fused + written_out + residual) + qk_norm
}

/// Bytes one layer with a feed-forward of `ffn` values streams per token.
fn layer_bytes(stack: &TransformerStack, ffn: f64, activation: f64, context: f64, decode: bool) -> f64 {
    let h = f64::from(stack.hidden_size);
    let kv = f64::from(stack.kv_heads) * f64::from(stack.head_dim);
    let norms = f64::from(stack.norms_per_layer) * norm_bytes(stack.norm, h, activation);
    let attention = attention_bytes(stack, activation, context, decode);
    let feed_forward = if ffn > 0.0 { activation * (ffn + 3.0 * h) } else { 0.0 };
    let cache = match stack.role {
        StackRole::Encoder => 0.0,
        // A pass over the input writes its keys and values to the cache; a decode step's copy
        // of the whole cache is counted per step.
        _ if decode => 0.0,
        _ => activation * 4.0 * kv,
    };
    let cross = match stack.role {
        StackRole::CrossDecoder => {
            attention_bytes(stack, activation, context, decode) + norm_bytes(stack.norm, h, activation)
        }
        _ => 0.0,
    };
    norms + attention + feed_forward + cache + cross
}

/// Bytes all layers of `stack` stream per token attending to `context` tokens.
fn stack_bytes_per_token(stack: &TransformerStack, activation: f64, context: f64, decode: bool) -> f64 {
    let moe = f64::from(stack.moe_layers());
    let dense = f64::from(stack.ffn_layers()) - moe;
    let dense_inner = match (stack.dense_layers, stack.dense_intermediate_size) {
        (d, i) if d > 0 && i > 0 && moe > 0.0 => f64::from(i),
        _ => f64::from(stack.intermediate_size),
    };
    let h = f64::from(stack.hidden_size);
    moe * layer_bytes(stack, moe_ffn_values(stack), activation, context, decode)
        + dense * layer_bytes(stack, ffn_values(stack, dense_inner), activation, context, decode)
        + f64::from(stack.mixer_only_layers) * layer_bytes(stack, 0.0, activation, context, decode)
        // The embedding's output and the final norm.
        + activation * h
        + norm_bytes(stack.norm, h, activation)
}

/// Bytes eager PyTorch streams besides the weights in one step of `workload` at `batch` × `seq`
/// (for decode: `batch` tokens attending to `seq` cached ones, the cache's own reads and copies
/// excluded: [`DECODE_CACHE_COPIES`]).
#[must_use]
pub fn stream_bytes(spec: &ModelSpec, precision: Precision, workload: Workload, batch: u64, seq: u32) -> f64 {
    let activation = precision.activation_bytes() as f64;
    let decode = workload == Workload::Decode;
    let stacks: f64 = super::operators::stacks_run(spec, workload)
        .map(|s| {
            let (tokens, context) = if decode {
                (1.0, f64::from(seq))
            } else {
                let tokens = s.tokens_per_item(seq) as f64;
                (tokens, tokens)
            };
            tokens * stack_bytes_per_token(s, activation, context, decode)
        })
        .sum();
    let convs: f64 = if decode {
        0.0
    } else {
        spec.conv_nets()
            .map(|c| CONV_PASSES * c.total_activation_elements as f64 * activation)
            .sum()
    };
    batch as f64 * (stacks + convs)
}

/// Bytes autocast adds to an eager forward pass of a mixed-precision training step (fp32 weights,
/// products at `precision`): the embedding's output is fp32, so the residual stream stays fp32 (an
/// fp32 value plus a 16-bit one is fp32) — each residual add and each norm reads and writes 4 bytes
/// per value where the 16-bit pass streams `precision`'s width (layer norms also run in fp32 under
/// autocast; transformers' RMS norm, given fp32, skips its casts) — and every projection that
/// reads the normalised fp32 stream casts it to `precision` first (read 4 bytes, write 2 per value):
/// queries, keys and values (three calls), and a feed-forward's input projections (gate and up, or
/// the one). Convolutional networks' maps stay at `precision` (batch norm is not among autocast's
/// fp32 operators). None at fp32.
#[must_use]
pub fn autocast_extra_bytes(spec: &ModelSpec, precision: Precision, batch: u64, seq: u32) -> f64 {
    let activation = precision.activation_bytes() as f64;
    if activation >= 4.0 {
        return 0.0;
    }
    let stacks: f64 = super::operators::stacks_run(spec, Workload::Forward)
        .map(|s| {
            let h = f64::from(s.hidden_size);
            let residual = 2.0 * 3.0 * h * (4.0 - activation);
            let norms = f64::from(s.norms_per_layer) * (norm_bytes(s.norm, h, 4.0) - norm_bytes(s.norm, h, activation));
            let ffn_inputs = if s.gated_ffn { 2.0 } else { 1.0 };
            let casts = (3.0 + ffn_inputs) * h * (4.0 + activation);
            let per_layer = residual + norms + casts;
            // The embedding's output and the final norm.
            let ends = h * (4.0 - activation) + norm_bytes(s.norm, h, 4.0) - norm_bytes(s.norm, h, activation);
            s.tokens_per_item(seq) as f64 * (f64::from(s.layers) * per_layer + ends)
        })
        .sum();
    batch as f64 * stacks
}

/// Passes over the KV cache an eager decode step makes besides attention's read of it:
/// `transformers`' dynamic cache concatenates each new key and value to the whole cache
/// (`torch.cat`), reading and writing it.
pub const DECODE_CACHE_COPIES: f64 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec
    }

    #[test]
    fn an_rms_norm_model_streams_more_per_value_than_a_layer_norm_one() {
        // Llama-3.2-1B's eight-call RMS norms and rotary embeddings against BERT's fused layer
        // norms: per hidden value of a layer, the Llama layer streams more.
        let bert = spec("bert-base-uncased");
        let llama = spec("meta-llama/Llama-3.2-1B");
        let per_value = |s: &ModelSpec| {
            let stack = s.stacks().next().unwrap();
            stream_bytes(s, Precision::Bf16, Workload::Forward, 1, 128)
                / (128.0 * f64::from(stack.layers) * f64::from(stack.hidden_size))
        };
        // 210 against 85 bytes per hidden value and token at bf16.
        assert!(
            per_value(&llama) > 2.0 * per_value(&bert),
            "{} {}",
            per_value(&llama),
            per_value(&bert)
        );
    }

    #[test]
    fn written_out_attention_streams_its_scores() {
        // gpt-oss's attention with sinks materialises heads × context scores per token: a longer
        // prompt streams more per token, where a fused attention's traffic per token is flat.
        let oss = spec("openai/gpt-oss-20b");
        let llama = spec("meta-llama/Llama-3.2-1B");
        let growth = |s: &ModelSpec| {
            stream_bytes(s, Precision::Bf16, Workload::Prefill, 1, 1024)
                / 1024.0
                / (stream_bytes(s, Precision::Bf16, Workload::Prefill, 1, 128) / 128.0)
        };
        assert!(growth(&oss) > 2.0, "{}", growth(&oss));
        assert!((growth(&llama) - 1.0).abs() < 1e-9, "{}", growth(&llama));
    }

    #[test]
    fn autocast_streams_the_residual_stream_in_fp32_and_casts_projection_inputs() {
        // BERT-base under autocast bf16: per token and layer two residual adds (3 × 768 values at
        // 4 bytes instead of 2), two layer norms in fp32 (read and write 4 bytes instead of 2) and
        // four casts of the 768-wide stream (queries, keys, values, the feed-forward's input: read
        // 4, write 2); nothing at fp32.
        let bert = spec("bert-base-uncased");
        let h = 768.0;
        let per_layer = 2.0 * 3.0 * h * 2.0 + 2.0 * (8.0 - 4.0) * h + 4.0 * h * 6.0;
        let ends = h * 2.0 + (8.0 - 4.0) * h;
        let expected = 8.0 * 128.0 * (12.0 * per_layer + ends);
        let extra = autocast_extra_bytes(&bert, Precision::Bf16, 8, 128);
        assert!((extra / expected - 1.0).abs() < 1e-9, "{extra} vs {expected}");
        assert!(autocast_extra_bytes(&bert, Precision::Fp32, 8, 128).abs() < f64::EPSILON);
    }

    #[test]
    fn eager_streams_more_than_fused_kernels() {
        for name in [
            "bert-base-uncased",
            "gpt2",
            "meta-llama/Llama-3.2-1B",
            "microsoft/resnet-50",
            "Qwen/Qwen3-30B-A3B",
        ] {
            let s = spec(name);
            let fused = super::super::step_cost(&s, Precision::Bf16, Workload::Forward, 8, 128).unwrap();
            let eager = stream_bytes(&s, Precision::Bf16, Workload::Forward, 8, 128);
            assert!(
                eager > fused.bytes - fused.weight_bytes,
                "{name}: {eager} vs {}",
                fused.bytes - fused.weight_bytes
            );
        }
    }
}
