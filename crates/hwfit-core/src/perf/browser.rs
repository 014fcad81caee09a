//! The browser step model: what a step costs on WebGPU, WebAssembly and WebNN besides the roofline.
//!
//! - **WebGPU** dispatches one compute pass per operator: a step costs `kernels × dispatch_us` however
//!   small the batch, plus one `sync_ms` per step (input upload, submit, `mapAsync` readback of the
//!   output). Dynamically quantized int8 operators have no WebGPU kernels in ONNX Runtime Web (the
//!   runtime transformers.js uses): each quantized operator is a CPU round trip, another `sync_ms`.
//!   The first call also compiles every distinct pipeline (`first_run_ms`, reported apart).
//! - **WebAssembly** runs the kernels on the CPU: no dispatch or readback cost; its peak is the
//!   threads it may use (one unless the page is cross-origin isolated) × 128-bit SIMD.
//! - **WebNN** compiles the whole graph once: one dispatch and one readback per step.
//!
//! The coefficients are fitted to the public browser measurements in `data/measured/` (see
//! [`super::fitting`]).

use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::spec::{ModelSpec, StackRole, TransformerStack};
use crate::{HardwareType, Precision, Workload};

/// Fitted constants of the browser step model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserCoefficients {
    /// WebGPU: time per kernel dispatch (encode, bind, dispatch, barrier), µs.
    pub dispatch_us: f64,
    /// WebGPU/WebNN: time per step to upload inputs, submit and read the output back, ms; also the
    /// cost of each CPU round trip of a quantized operator.
    pub sync_ms: f64,
    /// WebGPU: achieved share of the shader cores' peak.
    pub webgpu_compute: f64,
    /// WebGPU: achieved share of the memory bandwidth.
    pub webgpu_memory: f64,
    /// WebAssembly: achieved share of the threads' 128-bit SIMD peak.
    pub wasm_compute: f64,
    /// WebGPU: compile time per distinct pipeline on the first call, ms.
    pub compile_ms: f64,
    /// What the constants were fitted on.
    pub fitted_on: String,
}

/// The fixed costs of one browser step, next to its compute (IPFS Accelerate has no such breakdown).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FixedCosts {
    /// Kernels the step dispatches (WebGPU: one per operator; WebNN: the compiled graph, 1).
    pub kernels: u32,
    /// `kernels × dispatch_us`, ms.
    pub dispatch_ms: f64,
    /// CPU round trips: the step's readback plus one per quantized operator without a GPU kernel.
    pub round_trips: u32,
    /// `round_trips × sync_ms`, ms.
    pub sync_ms: f64,
    /// The roofline part (FLOPs or bytes at the achieved rate), ms.
    pub compute_ms: f64,
    /// Pipeline compilation on the first call, ms; not part of `latency`.
    pub first_run_ms: f64,
}

/// Operators one transformer layer runs: Q, K, V, O projections, the two attention products, the
/// softmax, two norms, two residual adds, the feed-forward matrices and their activation; decoders
/// add the two KV-cache writes, cross-attending decoders a second attention block.
fn layer_kernels(stack: &TransformerStack) -> u32 {
    let ffn = if stack.gated_ffn { 4 } else { 3 };
    let self_attention = 4 + 2 + 1;
    let base = self_attention + ffn + 2 + 2;
    match stack.role {
        StackRole::Encoder => base,
        StackRole::Decoder => base + 2,
        StackRole::CrossDecoder => base + 2 + self_attention + 2,
    }
}

/// Matrix multiplications with weights in one transformer layer (the operators quantization touches).
fn layer_linear_operators(stack: &TransformerStack) -> u32 {
    let ffn = if stack.gated_ffn { 3 } else { 2 };
    match stack.role {
        StackRole::CrossDecoder => 8 + ffn,
        _ => 4 + ffn,
    }
}

/// Kernels per convolutional network: each convolution or linear layer, plus a residual add or
/// activation the runtime does not fuse for every other one. Without a published depth, 50 layers.
fn conv_kernels(layers: u32) -> u32 {
    let layers = if layers == 0 { 50 } else { layers };
    layers + layers.div_ceil(2)
}

/// The stacks a step of `workload` runs (decode: the generating stack only; the encoder ran once).
fn stacks_run(spec: &ModelSpec, workload: Workload) -> impl Iterator<Item = &TransformerStack> {
    spec.stacks()
        .filter(move |s| workload != Workload::Decode || s.generates())
}

/// Operators one step dispatches: per stack its layers plus the embedding gather, the final norm and
/// the head; per convolutional network its layers; two per dense extra. A training step runs the
/// backward pass (two kernels per forward one) and one optimizer update per weight tensor.
#[must_use]
pub fn kernels_per_step(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload)
        .map(|s| s.layers * layer_kernels(s) + 3)
        .sum();
    let rest: u32 = if workload == Workload::Decode {
        0
    } else {
        spec.conv_nets().map(|c| conv_kernels(c.layers)).sum::<u32>() + 2 * dense_count(spec)
    };
    let forward = stacks + rest;
    if workload == Workload::TrainStep {
        3 * forward + linear_operators(spec, workload)
    } else {
        forward
    }
}

fn dense_count(spec: &ModelSpec) -> u32 {
    spec.components
        .iter()
        .filter(|c| matches!(c, crate::spec::Component::Dense { .. }))
        .count() as u32
}

/// Operators with weights a step runs (transformer projections and feed-forward matrices,
/// convolutions): the ones a quantized model runs quantized.
#[must_use]
pub fn linear_operators(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload)
        .map(|s| s.layers * layer_linear_operators(s) + 1)
        .sum();
    let convs: u32 = if workload == Workload::Decode {
        0
    } else {
        spec.conv_nets()
            .map(|c| if c.layers == 0 { 50 } else { c.layers })
            .sum()
    };
    stacks + convs + dense_count(spec)
}

/// Distinct pipelines the first call compiles: identical layers share theirs, so one layer's
/// operators per stack (plus its embedding, norm and head) and half a network's convolutions (the
/// shapes repeat within each stage).
#[must_use]
pub fn pipelines(spec: &ModelSpec, workload: Workload) -> u32 {
    let stacks: u32 = stacks_run(spec, workload).map(|s| layer_kernels(s) + 3).sum();
    let convs: u32 = spec.conv_nets().map(|c| conv_kernels(c.layers).div_ceil(2)).sum();
    stacks + convs + 2 * dense_count(spec)
}

/// The fixed costs of a step on a browser back-end, given the roofline part (`compute_ms`).
#[must_use]
pub fn fixed_costs(
    coefficients: &BrowserCoefficients,
    hardware: HardwareType,
    spec: &ModelSpec,
    workload: Workload,
    precision: Precision,
    compute_ms: f64,
) -> FixedCosts {
    match hardware {
        HardwareType::Webgpu => {
            let kernels = kernels_per_step(spec, workload);
            let quantized = if precision == Precision::Int8 {
                linear_operators(spec, workload)
            } else {
                0
            };
            let round_trips = 1 + quantized;
            FixedCosts {
                kernels,
                dispatch_ms: f64::from(kernels) * coefficients.dispatch_us / 1e3,
                round_trips,
                sync_ms: f64::from(round_trips) * coefficients.sync_ms,
                compute_ms,
                first_run_ms: f64::from(pipelines(spec, workload)) * coefficients.compile_ms,
            }
        }
        HardwareType::Webnn => FixedCosts {
            kernels: 1,
            dispatch_ms: coefficients.dispatch_us / 1e3,
            round_trips: 1,
            sync_ms: coefficients.sync_ms,
            compute_ms,
            first_run_ms: 0.0,
        },
        _ => FixedCosts {
            kernels: 0,
            dispatch_ms: 0.0,
            round_trips: 0,
            sync_ms: 0.0,
            compute_ms,
            first_run_ms: 0.0,
        },
    }
}

impl BrowserCoefficients {
    /// The achieved shares of peak for a browser back-end (WebNN as WebGPU); overheads come from
    /// [`fixed_costs`].
    #[must_use]
    pub fn efficiency(&self, hardware: HardwareType) -> super::Efficiency {
        let (compute, memory) = match hardware {
            HardwareType::Wasm => (self.wasm_compute, 1.0),
            _ => (self.webgpu_compute, self.webgpu_memory),
        };
        super::Efficiency {
            compute,
            memory,
            overhead_ms: 0.0,
        }
    }
}

impl FixedCosts {
    /// Dispatch and round-trip time per step, ms.
    #[must_use]
    pub fn overhead_ms(&self) -> f64 {
        self.dispatch_ms + self.sync_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec
    }

    #[test]
    fn kernels_follow_the_layers_not_the_batch() {
        let bert = spec("bert-base-uncased");
        // 12 encoder layers × 14 operators + embedding, norm, head.
        assert_eq!(kernels_per_step(&bert, Workload::Forward), 12 * 14 + 3);
        assert_eq!(linear_operators(&bert, Workload::Forward), 12 * 6 + 1);
        let llama = spec("meta-llama/Llama-3.2-1B");
        assert_eq!(kernels_per_step(&llama, Workload::Decode), 16 * 17 + 3);
        // Whisper's decode step runs the decoder only.
        let whisper = spec("openai/whisper-base");
        assert!(kernels_per_step(&whisper, Workload::Decode) < kernels_per_step(&whisper, Workload::Forward));
        assert!(pipelines(&bert, Workload::Forward) < kernels_per_step(&bert, Workload::Forward));
    }

    #[test]
    fn only_webgpu_int8_pays_round_trips() {
        let bert = spec("bert-base-uncased");
        let c = BrowserCoefficients {
            dispatch_us: 20.0,
            sync_ms: 1.0,
            webgpu_compute: 0.5,
            webgpu_memory: 0.5,
            wasm_compute: 0.5,
            compile_ms: 10.0,
            fitted_on: String::new(),
        };
        let fp32 = fixed_costs(&c, HardwareType::Webgpu, &bert, Workload::Forward, Precision::Fp32, 1.0);
        let int8 = fixed_costs(&c, HardwareType::Webgpu, &bert, Workload::Forward, Precision::Int8, 1.0);
        assert_eq!(fp32.round_trips, 1);
        assert_eq!(int8.round_trips, 1 + 12 * 6 + 1);
        assert!((fp32.dispatch_ms - 171.0 * 0.02).abs() < 1e-9);
        let wasm = fixed_costs(&c, HardwareType::Wasm, &bert, Workload::Forward, Precision::Int8, 1.0);
        assert!(wasm.overhead_ms() == 0.0 && wasm.first_run_ms == 0.0);
    }
}
