//! How many operators a step runs: one counting model for every runtime that dispatches operators
//! one at a time (WebGPU's compute passes, eager PyTorch's kernel launches, ONNX Runtime's nodes).
//!
//! Per transformer layer: Q, K, V, O projections, the two attention products, the softmax, two
//! norms, two residual adds, the feed-forward matrices and their activation; decoders add the two
//! KV-cache writes, cross-attending decoders a second attention block. Per stack: its layers plus the
//! embedding gather, the final norm and the head. Per convolutional network: each convolution or
//! linear layer plus a residual add or activation for every other one. A training step runs the
//! backward pass (two operators per forward one) and one optimizer update per weight tensor.
//!
//! A runtime's fitted cost per operator absorbs how many host-side calls it makes per counted
//! operator (eager PyTorch also dispatches views, casts and rotary arithmetic): the count is the
//! common measure of a step's length, not a profile of one runtime.

use crate::spec::{Component, ModelSpec, StackRole, TransformerStack};
use crate::Workload;

/// Operators one transformer layer runs, with `ffn` operators for its feed-forward.
fn layer_operators(stack: &TransformerStack, ffn: u32) -> u32 {
    let self_attention = 4 + 2 + 1;
    let base = self_attention + ffn + 2 + 2;
    match stack.role {
        StackRole::Encoder => base,
        StackRole::Decoder => base + 2,
        StackRole::CrossDecoder => base + 2 + self_attention + 2,
    }
}

/// Operators of one dense feed-forward: its matrices and the activation (and gate product).
fn dense_ffn_operators(stack: &TransformerStack) -> u32 {
    if stack.gated_ffn {
        4
    } else {
        3
    }
}

/// Operators of one mixture-of-experts feed-forward: the router's product, softmax and top-k, then
/// each picked expert (and the shared experts) with a weighted add.
fn moe_ffn_operators(stack: &TransformerStack) -> u32 {
    let expert = dense_ffn_operators(stack) + 1;
    let shared = if stack.shared_expert_size > 0 { expert } else { 0 };
    3 + stack.active_experts * expert + shared
}

/// Operators of all layers of a stack.
fn stack_layer_operators(stack: &TransformerStack) -> u32 {
    let moe = stack.moe_layers();
    moe * layer_operators(stack, moe_ffn_operators(stack))
        + (stack.layers - moe) * layer_operators(stack, dense_ffn_operators(stack))
}

/// Matrix multiplications with weights in one transformer layer (the operators quantization touches).
fn layer_weighted_operators(stack: &TransformerStack) -> u32 {
    let ffn = if stack.gated_ffn { 3 } else { 2 };
    match stack.role {
        StackRole::CrossDecoder => 8 + ffn,
        _ => 4 + ffn,
    }
}

/// Layers of a convolutional network; without a published depth, 50.
fn conv_layers(layers: u32) -> u32 {
    if layers == 0 {
        50
    } else {
        layers
    }
}

/// Operators of a convolutional network: each layer, plus an add or activation for every other one.
pub(crate) fn conv_operators(layers: u32) -> u32 {
    let layers = conv_layers(layers);
    layers + layers.div_ceil(2)
}

/// The stacks a step of `workload` runs (decode: the generating stack only; the encoder ran once).
pub(crate) fn stacks_run(spec: &ModelSpec, workload: Workload) -> impl Iterator<Item = &TransformerStack> {
    spec.stacks()
        .filter(move |s| workload != Workload::Decode || s.generates())
}

fn dense_count(spec: &ModelSpec) -> u32 {
    spec.components
        .iter()
        .filter(|c| matches!(c, Component::Dense { .. }))
        .count() as u32
}

/// Operators one step runs.
#[must_use]
pub fn per_step(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload).map(|s| stack_layer_operators(s) + 3).sum();
    let rest: u32 = if workload == Workload::Decode {
        0
    } else {
        spec.conv_nets().map(|c| conv_operators(c.layers)).sum::<u32>() + 2 * dense_count(spec)
    };
    let forward = stacks + rest;
    if workload == Workload::TrainStep {
        3 * forward + with_weights(spec, workload)
    } else {
        forward
    }
}

/// Operators with weights one step runs (transformer projections and feed-forward matrices,
/// convolutions): the ones a quantized model runs quantized, and the tensors an optimizer updates.
#[must_use]
pub fn with_weights(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload)
        .map(|s| s.layers * layer_weighted_operators(s) + 1)
        .sum();
    let convs: u32 = if workload == Workload::Decode {
        0
    } else {
        spec.conv_nets().map(|c| conv_layers(c.layers)).sum()
    };
    stacks + convs + dense_count(spec)
}

/// Operators of one layer of each stack run, plus each stack's embedding, norm and head, and half
/// of each network's convolutions (shapes repeat within a stage): the distinct kernels a step has.
#[must_use]
pub fn distinct(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload)
        .map(|s| {
            let moe = if s.moe_layers() > 0 {
                layer_operators(s, moe_ffn_operators(s))
            } else {
                0
            };
            let dense = if s.layers > s.moe_layers() {
                layer_operators(s, dense_ffn_operators(s))
            } else {
                0
            };
            moe + dense + 3
        })
        .sum();
    let convs: u32 = spec.conv_nets().map(|c| conv_operators(c.layers).div_ceil(2)).sum();
    stacks + convs + 2 * dense_count(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec
    }

    #[test]
    fn operators_follow_the_layers_not_the_batch() {
        let bert = spec("bert-base-uncased");
        // 12 encoder layers × 14 operators + embedding, norm, head.
        assert_eq!(per_step(&bert, Workload::Forward), 12 * 14 + 3);
        assert_eq!(with_weights(&bert, Workload::Forward), 12 * 6 + 1);
        let llama = spec("meta-llama/Llama-3.2-1B");
        assert_eq!(per_step(&llama, Workload::Decode), 16 * 17 + 3);
        // Whisper's decode step runs the decoder only.
        let whisper = spec("openai/whisper-base");
        assert!(per_step(&whisper, Workload::Decode) < per_step(&whisper, Workload::Forward));
        assert!(distinct(&bert, Workload::Forward) < per_step(&bert, Workload::Forward));
    }

    #[test]
    fn a_training_step_adds_the_backward_pass_and_an_update_per_weight() {
        let bert = spec("bert-base-uncased");
        let forward = per_step(&bert, Workload::Forward);
        assert_eq!(
            per_step(&bert, Workload::TrainStep),
            3 * forward + with_weights(&bert, Workload::Forward)
        );
        let resnet = spec("microsoft/resnet-50");
        assert!(per_step(&resnet, Workload::Forward) >= 50);
    }
}
