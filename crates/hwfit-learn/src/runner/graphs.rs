//! The graphs the runner times: a catalog model's architecture as an ONNX graph with random
//! weights — a text transformer (encoder, or decoder for prefill and one decode step over a KV
//! cache) or a ResNet — and the inputs of one run.
//!
//! Graph code names tensors as the papers do (b, t, d, h, w, x, g for the graph): many short
//! names are the clearest spelling here.
#![allow(clippy::many_single_char_names)]

use hwfit_core::spec::{Modality, ModelSpec, StackRole, TransformerStack};
use hwfit_core::Workload;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{BenchGraph, Input};
use crate::onnx::{Attr, GraphBuilder};
use crate::LearnError;

struct Weights(ChaCha8Rng);

impl Weights {
    fn uniform(&mut self, g: &mut GraphBuilder, dims: &[i64], bound: f32) -> String {
        let n: i64 = dims.iter().product();
        let data = (0..n).map(|_| self.0.random_range(-bound..bound)).collect();
        g.weight("w", dims, data)
    }

    fn constant(g: &mut GraphBuilder, dims: &[i64], value: f32) -> String {
        let n: i64 = dims.iter().product();
        g.weight("c", dims, vec![value; n as usize])
    }
}

/// The one text transformer stack the runner can build for `spec`.
fn text_stack(spec: &ModelSpec) -> Option<&TransformerStack> {
    let mut stacks = spec.stacks();
    let stack = stacks.next()?;
    let single = stacks.next().is_none() && spec.conv_nets().next().is_none();
    (single
        && stack.input == Modality::Text
        && stack.experts <= 1
        && matches!(stack.role, StackRole::Encoder | StackRole::Decoder))
    .then_some(stack)
}

/// ResNet depth from a model name (`resnet-50`, `microsoft/resnet-18`).
fn resnet_depth(spec: &ModelSpec) -> Option<u32> {
    let name = spec.name.to_ascii_lowercase();
    let tail = name.split("resnet").nth(1)?;
    let digits: String = tail
        .trim_start_matches(['-', '_'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let depth = digits.parse().ok()?;
    [18, 34, 50, 101, 152].contains(&depth).then_some(depth)
}

/// The workloads the runner builds for `spec` (none when it cannot build the architecture):
/// forward passes of encoders and ResNets, prefill and decode of decoders.
#[must_use]
pub fn workloads(spec: &ModelSpec) -> &'static [Workload] {
    if resnet_depth(spec).is_some() && spec.conv_nets().count() == 1 {
        return &[Workload::Forward];
    }
    match text_stack(spec).map(|s| s.role) {
        Some(StackRole::Encoder) => &[Workload::Forward],
        Some(StackRole::Decoder) => &[Workload::Prefill, Workload::Decode],
        _ => &[],
    }
}

/// Builds the graph of one case.
pub fn build(spec: &ModelSpec, workload: Workload, batch: u32, seq: u32, seed: u64) -> Result<BenchGraph, LearnError> {
    let mut w = Weights(ChaCha8Rng::seed_from_u64(seed));
    if let Some(depth) = resnet_depth(spec).filter(|_| spec.conv_nets().count() == 1) {
        if workload != Workload::Forward {
            return Err(LearnError::Bench(format!("{} runs forward passes only", spec.name)));
        }
        return Ok(resnet(&mut w, depth, batch));
    }
    let stack = text_stack(spec).ok_or_else(|| {
        LearnError::Bench(format!(
            "{}: the runner builds single-stack text transformers (encoders, decoders without experts) and ResNets",
            spec.name
        ))
    })?;
    match (stack.role, workload) {
        (StackRole::Encoder, Workload::Forward) | (StackRole::Decoder, Workload::Prefill | Workload::Decode) => {
            Ok(transformer(&mut w, stack, workload, batch, seq))
        }
        _ => Err(LearnError::Bench(format!(
            "{}: {workload} is not a workload of a {:?} stack",
            spec.name, stack.role
        ))),
    }
}

fn layer_norm(g: &mut GraphBuilder, x: &str, h: i64) -> String {
    let gamma = Weights::constant(g, &[h], 1.0);
    let beta = Weights::constant(g, &[h], 0.0);
    g.node("LayerNormalization", &[x, &gamma, &beta], &[("axis", Attr::Int(-1))])
}

fn linear(g: &mut GraphBuilder, w: &mut Weights, x: &str, n_in: i64, n_out: i64) -> String {
    let weight = w.uniform(g, &[n_in, n_out], 0.02);
    let bias = Weights::constant(g, &[n_out], 0.0);
    let y = g.node("MatMul", &[x, &weight], &[]);
    g.node("Add", &[&y, &bias], &[])
}

/// `[b, t, heads·d]` → `[b, heads, t, d]`.
fn split_heads(g: &mut GraphBuilder, x: &str, b: i64, t: i64, heads: i64, d: i64) -> String {
    let shape = g.ints(&[b, t, heads, d]);
    let r = g.node("Reshape", &[x, &shape], &[]);
    g.node("Transpose", &[&r], &[("perm", Attr::Ints(vec![0, 2, 1, 3]))])
}

/// Grouped-query attention: `[b, kv, l, d]` repeated to `[b, heads, l, d]`.
fn repeat_kv(g: &mut GraphBuilder, x: &str, b: i64, kv: i64, heads: i64, l: i64, d: i64) -> String {
    if kv == heads {
        return x.into();
    }
    let s5 = g.ints(&[b, kv, 1, l, d]);
    let r = g.node("Reshape", &[x, &s5], &[]);
    let e5 = g.ints(&[b, kv, heads / kv, l, d]);
    let e = g.node("Expand", &[&r, &e5], &[]);
    let s4 = g.ints(&[b, heads, l, d]);
    g.node("Reshape", &[&e, &s4], &[])
}

fn transformer(w: &mut Weights, s: &TransformerStack, workload: Workload, batch: u32, seq: u32) -> BenchGraph {
    let mut g = GraphBuilder::new("transformer");
    let (b, h) = (i64::from(batch), i64::from(s.hidden_size));
    let (heads, kv, d) = (
        i64::from(s.attention_heads),
        i64::from(s.kv_heads.max(1)),
        i64::from(s.head_dim),
    );
    let inner = i64::from(s.intermediate_size);
    let vocab = i64::from(s.vocab_size.max(1));
    let decode = workload == Workload::Decode;
    // Tokens this step computes, and the context they attend to.
    let (t, past) = if decode {
        (1, i64::from(seq))
    } else {
        (i64::from(seq), 0)
    };
    let l = past + t;
    let ids = g.input_i64("ids", &[b, t]);
    let mut inputs = vec![Input::tokens(&[b, t])];
    let emb = w.uniform(&mut g, &[vocab, h], 0.02);
    let mut x = g.node("Gather", &[&emb, &ids], &[("axis", Attr::Int(0))]);
    if s.learned_positions > 0 {
        let pos = w.uniform(&mut g, &[t, h], 0.02);
        x = g.node("Add", &[&x, &pos], &[]);
    }
    let scale = Weights::constant(&mut g, &[1], 1.0 / (d as f32).sqrt());
    let causal = (s.role == StackRole::Decoder && t > 1).then(|| {
        let mask = (0..t * l)
            .map(|i| if i % l > i / l + past { -1e4 } else { 0.0 })
            .collect();
        g.weight("mask", &[t, l], mask)
    });
    for layer in 0..s.layers {
        let n = layer_norm(&mut g, &x, h);
        let q = linear(&mut g, w, &n, h, heads * d);
        let q = split_heads(&mut g, &q, b, t, heads, d);
        let mut kv_heads = Vec::new();
        for part in ["k", "v"] {
            let y = linear(&mut g, w, &n, h, kv * d);
            let mut y = split_heads(&mut g, &y, b, t, kv, d);
            if decode {
                let name = format!("past_{part}_{layer}");
                let p = g.input(&name, &[b, kv, past, d]);
                inputs.push(Input::values(&[b, kv, past, d]));
                y = g.node("Concat", &[&p, &y], &[("axis", Attr::Int(2))]);
            }
            kv_heads.push(repeat_kv(&mut g, &y, b, kv, heads, l, d));
        }
        let kt = g.node("Transpose", &[&kv_heads[0]], &[("perm", Attr::Ints(vec![0, 1, 3, 2]))]);
        let scores = g.node("MatMul", &[&q, &kt], &[]);
        let mut scores = g.node("Mul", &[&scores, &scale], &[]);
        if let Some(mask) = &causal {
            scores = g.node("Add", &[&scores, mask], &[]);
        }
        let p = g.node("Softmax", &[&scores], &[("axis", Attr::Int(-1))]);
        let o = g.node("MatMul", &[&p, &kv_heads[1]], &[]);
        let o = g.node("Transpose", &[&o], &[("perm", Attr::Ints(vec![0, 2, 1, 3]))]);
        let merged = g.ints(&[b, t, heads * d]);
        let o = g.node("Reshape", &[&o, &merged], &[]);
        let o = linear(&mut g, w, &o, heads * d, h);
        x = g.node("Add", &[&x, &o], &[]);
        let n = layer_norm(&mut g, &x, h);
        let a = linear(&mut g, w, &n, h, inner);
        let sig_in = if s.gated_ffn {
            a.clone()
        } else {
            let k = Weights::constant(&mut g, &[1], 1.702);
            g.node("Mul", &[&a, &k], &[])
        };
        let sig = g.node("Sigmoid", &[&sig_in], &[]);
        let mut act = g.node("Mul", &[&a, &sig], &[]);
        if s.gated_ffn {
            let up = linear(&mut g, w, &n, h, inner);
            act = g.node("Mul", &[&act, &up], &[]);
        }
        let down = linear(&mut g, w, &act, inner, h);
        x = g.node("Add", &[&x, &down], &[]);
    }
    let x = layer_norm(&mut g, &x, h);
    let items = match workload {
        Workload::Prefill => (b * t) as f64,
        _ => b as f64,
    };
    if s.role == StackRole::Decoder {
        // Logits of the last position only, as generation needs.
        let last = g.ints(&[t - 1]);
        let x = g.node("Gather", &[&x, &last], &[("axis", Attr::Int(1))]);
        let head = if s.tied_embeddings {
            g.node("Transpose", &[&emb], &[("perm", Attr::Ints(vec![1, 0]))])
        } else {
            w.uniform(&mut g, &[h, vocab], 0.02)
        };
        g.node_named("MatMul", &[&x, &head], &[], "logits");
        g.output("logits", &[b, 1, vocab]);
    } else {
        g.node_named("Identity", &[&x], &[], "hidden");
        g.output("hidden", &[b, t, h]);
    }
    BenchGraph {
        graph: g,
        inputs,
        items,
    }
}

fn conv(g: &mut GraphBuilder, w: &mut Weights, x: &str, c_in: i64, c_out: i64, k: i64, stride: i64) -> String {
    let bound = (6.0 / (c_in * k * k) as f32).sqrt();
    let weight = w.uniform(g, &[c_out, c_in, k, k], bound);
    let bias = Weights::constant(g, &[c_out], 0.0);
    g.node(
        "Conv",
        &[x, &weight, &bias],
        &[
            ("kernel_shape", Attr::Ints(vec![k, k])),
            ("strides", Attr::Ints(vec![stride, stride])),
            ("pads", Attr::Ints(vec![k / 2; 4])),
        ],
    )
}

/// ResNet (He et al. 2015): basic blocks for 18/34, bottlenecks for 50/101/152; convolutions carry
/// a bias where the published network has batch norm (folded at inference).
fn resnet(w: &mut Weights, depth: u32, batch: u32) -> BenchGraph {
    let mut g = GraphBuilder::new("resnet");
    let b = i64::from(batch);
    let x = g.input("image", &[b, 3, 224, 224]);
    let blocks: [i64; 4] = match depth {
        18 => [2, 2, 2, 2],
        34 | 50 => [3, 4, 6, 3],
        101 => [3, 4, 23, 3],
        _ => [3, 8, 36, 3],
    };
    let bottleneck = depth >= 50;
    let expansion = if bottleneck { 4 } else { 1 };
    let stem = conv(&mut g, w, &x, 3, 64, 7, 2);
    let stem = g.node("Relu", &[&stem], &[]);
    let mut x = g.node(
        "MaxPool",
        &[&stem],
        &[
            ("kernel_shape", Attr::Ints(vec![3, 3])),
            ("strides", Attr::Ints(vec![2, 2])),
            ("pads", Attr::Ints(vec![1; 4])),
        ],
    );
    let mut c_in = 64;
    for (stage, &count) in blocks.iter().enumerate() {
        let width = 64 << stage;
        for block in 0..count {
            let stride = if stage > 0 && block == 0 { 2 } else { 1 };
            let c_out = width * expansion;
            let y = if bottleneck {
                let y = conv(&mut g, w, &x, c_in, width, 1, 1);
                let y = g.node("Relu", &[&y], &[]);
                let y = conv(&mut g, w, &y, width, width, 3, stride);
                let y = g.node("Relu", &[&y], &[]);
                conv(&mut g, w, &y, width, c_out, 1, 1)
            } else {
                let y = conv(&mut g, w, &x, c_in, width, 3, stride);
                let y = g.node("Relu", &[&y], &[]);
                conv(&mut g, w, &y, width, c_out, 3, 1)
            };
            let shortcut = if stride != 1 || c_in != c_out {
                conv(&mut g, w, &x, c_in, c_out, 1, stride)
            } else {
                x.clone()
            };
            let sum = g.node("Add", &[&y, &shortcut], &[]);
            x = g.node("Relu", &[&sum], &[]);
            c_in = c_out;
        }
    }
    let pooled = g.node("GlobalAveragePool", &[&x], &[]);
    let flat = g.node("Flatten", &[&pooled], &[]);
    let fc = w.uniform(&mut g, &[1000, c_in], 0.02);
    let fc_b = Weights::constant(&mut g, &[1000], 0.0);
    g.node_named("Gemm", &[&flat, &fc, &fc_b], &[("transB", Attr::Int(1))], "logits");
    g.output("logits", &[b, 1000]);
    let inputs = vec![Input::values(&[i64::from(batch), 3, 224, 224])];
    BenchGraph {
        graph: g,
        inputs,
        items: b as f64,
    }
}

/// `spec` cut to 2 layers and a 512-token vocabulary: the same graph shape, built and run in a
/// fraction of the time (for tests).
#[cfg(test)]
pub(crate) fn tiny(spec: &ModelSpec) -> ModelSpec {
    use hwfit_core::spec::Component;
    let mut tiny = spec.clone();
    for component in &mut tiny.components {
        if let Component::Transformer(stack) = component {
            stack.layers = stack.layers.min(2);
            stack.vocab_size = stack.vocab_size.min(512);
        }
    }
    tiny
}

#[cfg(test)]
mod tests {
    use super::*;
    use hwfit_core::Catalog;

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec.clone()
    }

    /// The graphs have the catalog's parameter counts (norm and bias vectors aside).
    #[test]
    fn graphs_match_the_catalog_sizes() {
        for (name, workload) in [
            ("bert-base-uncased", Workload::Forward),
            ("gpt2", Workload::Prefill),
            ("resnet-50", Workload::Forward),
        ] {
            let s = spec(name);
            let g = build(&s, workload, 1, 8, 1).unwrap();
            let ratio = g.graph.parameter_count() as f64 / s.parameters() as f64;
            assert!(
                (0.97..1.03).contains(&ratio),
                "{name}: graph/catalog parameters = {ratio}"
            );
        }
    }

    #[test]
    fn workloads_follow_the_architecture() {
        assert_eq!(workloads(&spec("gpt2")), [Workload::Prefill, Workload::Decode]);
        assert_eq!(workloads(&spec("bert-base-uncased")), [Workload::Forward]);
        assert_eq!(workloads(&spec("resnet-50")), [Workload::Forward]);
        assert!(workloads(&spec("openai/whisper-tiny")).is_empty());
    }

    #[test]
    fn unsupported_models_are_refused() {
        let err = build(&spec("bert-base-uncased"), Workload::Decode, 1, 8, 1)
            .err()
            .unwrap();
        assert!(err.to_string().contains("not a workload"), "{err}");
        let err = build(&spec("openai/whisper-tiny"), Workload::Forward, 1, 8, 1)
            .err()
            .unwrap();
        assert!(err.to_string().contains("single-stack"), "{err}");
    }
}
