//! What one step of a workload costs: FLOPs, bytes moved and items produced, from the `ModelSpec`.
//!
//! - forward: batch × forward FLOPs per item; bytes = the weights the matrix products read, once
//!   (embedding tables are gathered row by row; experts no token reaches are skipped) + each layer's
//!   working set written and read once;
//! - prefill: the same over `seq_length` prompt tokens per sequence, the output projection for the
//!   last position only ([`ModelSpec::prefill_flops_per_item`]); items = tokens; a runtime
//!   that feeds the prompt in chunks (llama.cpp's 512-token physical batches) reads the weights
//!   each chunk reaches once per chunk ([`StepCost::in_prompt_chunks`]);
//! - decode: one token per sequence attending to `seq_length` cached tokens; bytes = the generating
//!   stack's weights the batch passes through (shared parts, the experts its tokens reach, the
//!   output projection) + the KV cache read;
//! - train-step: 3 × forward FLOPs (backward ≈ 2 × forward); bytes = weights read twice, every
//!   gradient written, plus AdamW's default update: [`ADAMW_FOREACH_PASSES`] passes over
//!   parameter-sized tensors at the optimizer state's width. Pure training keeps weights, gradients
//!   and state at the precision asked; mixed precision ([`PerfRequest::trains_mixed`]) keeps them
//!   in fp32, and autocast adds its casts (each weight to 16 bits, each gradient back).
//!
//! As a runtime runs the step ([`runtime_step_cost`]): eager PyTorch streams more than a layer's
//! working set — each call of the modelling code reads and writes its tensors, and a decode step
//! copies the KV cache it concatenates to ([`eager_traffic`]).

use serde::{Deserialize, Serialize};

use super::eager_traffic;
use super::operators::Dispatch;
use super::{PerfRequest, Runtime};
use crate::spec::ModelSpec;
use crate::{CoreError, Precision, Workload};

/// The cost of one step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepCost {
    /// Floating-point (or integer) operations.
    pub flops: f64,
    /// Bytes moved to and from memory.
    pub bytes: f64,
    /// Of `bytes`, the weights the matrix products read (the rest — activations, the KV cache,
    /// gradients' and optimizer state's traffic — is streamed by other operators).
    pub weight_bytes: f64,
    /// Items the step produces: sequences/images/clips, or tokens for prefill and decode.
    pub items: f64,
    /// Forward passes the step takes: 1, or one per chunk of a prompt a runtime feeds in chunks.
    pub passes: u32,
}

/// Passes over parameter-sized tensors of one update of `torch.optim.AdamW` as PyTorch runs it by
/// default on an accelerator (the `foreach` implementation, `torch/optim/adam.py`
/// `_multi_tensor_adam`, decoupled weight decay): the weights scaled (read, write: 2), the first
/// moment lerped toward the gradient (3), the second moment scaled (2) and the squared gradient
/// added (3), its square root taken into a new tensor (2), divided by the bias correction (2) and
/// the epsilon added (2), the weights updated by the ratio (read weights, moment and root; write:
/// 4) — 20 passes, each of the parameters' width (the states take the weights' dtype).
pub const ADAMW_FOREACH_PASSES: f64 = 20.0;

/// Passes over parameter-sized tensors a mixed-precision step adds, each at the width named: each
/// fp32 weight cast to the compute precision once per forward pass (`torch.autocast` caches the
/// cast: read fp32, write 16 bits), and each weight's gradient, computed at 16 bits, cast back to
/// fp32 (read 16 bits, write fp32); an fp16 step's gradient scaler then unscales the fp32
/// gradients in place and checks them for infinities (`GradScaler.unscale_`: read, write).
fn mixed_precision_bytes(spec: &ModelSpec, precision: Precision) -> f64 {
    let (fp32, half) = (spec.weight_bytes(Precision::Fp32), spec.weight_bytes(precision));
    let casts = 2.0 * (fp32 + half);
    let unscale = if precision == Precision::Fp16 { 2.0 * fp32 } else { 0.0 };
    casts + unscale
}

fn working_set_traffic(
    spec: &ModelSpec,
    precision: Precision,
    workload: Workload,
    batch: u64,
    seq: u32,
    dispatch: Dispatch,
) -> f64 {
    // Fused kernels write and read each layer's working set once; eager calls each read their
    // inputs and write their output.
    if dispatch == Dispatch::Eager {
        return eager_traffic::stream_bytes(spec, precision, workload, batch, seq);
    }
    if workload == Workload::Decode {
        return 0.0;
    }
    let act = precision.activation_bytes();
    let batch = batch as f64;
    let stacks: f64 = spec
        .stacks()
        .map(|s| {
            2.0 * f64::from(s.layers)
                * batch
                * s.tokens_per_item(seq) as f64
                * s.inference_activation_bytes_per_token(act) as f64
        })
        .sum();
    let convs: f64 = spec
        .conv_nets()
        .map(|c| 2.0 * batch * (c.total_activation_elements * act) as f64)
        .sum();
    stacks + convs
}

/// The cost of one step of `workload` at `batch` × `seq` (tokens per sequence, or KV context for decode).
pub fn step_cost(
    spec: &ModelSpec,
    precision: Precision,
    workload: Workload,
    batch: u32,
    seq: u32,
) -> Result<StepCost, CoreError> {
    let mixed = PerfRequest::new(precision, workload, batch, seq).trains_mixed();
    step_cost_with(spec, precision, workload, batch, seq, Dispatch::Kernels, mixed)
}

fn step_cost_with(
    spec: &ModelSpec,
    precision: Precision,
    workload: Workload,
    batch: u32,
    seq: u32,
    dispatch: Dispatch,
    mixed: bool,
) -> Result<StepCost, CoreError> {
    let b = u64::from(batch);
    let streamed = |workload| working_set_traffic(spec, precision, workload, b, seq, dispatch);
    // What the matrix products read; embedding tables are gathered row by row and the experts
    // no token reaches are not read.
    let weights = spec.matmul_weight_bytes(precision, false, b, seq);
    let forward_flops = b as f64 * spec.flops_per_item(seq) as f64;
    Ok(match workload {
        Workload::Forward => StepCost {
            flops: forward_flops,
            bytes: weights + streamed(Workload::Forward),
            weight_bytes: weights,
            items: b as f64,
            passes: 1,
        },
        Workload::Prefill => {
            require_generative(spec, workload)?;
            StepCost {
                flops: b as f64 * spec.prefill_flops_per_item(seq) as f64,
                bytes: weights + streamed(Workload::Prefill),
                weight_bytes: weights,
                items: (b * u64::from(seq)) as f64,
                passes: 1,
            }
        }
        Workload::Decode => {
            let per_token = spec
                .flops_per_generated_token(seq)
                .ok_or_else(|| not_generative(spec, workload))?;
            let kv = b * spec.kv_cache_bytes(u64::from(seq), precision.activation_bytes());
            let read = spec.matmul_weight_bytes(precision, true, b, seq);
            let cache_passes = match dispatch {
                Dispatch::Kernels => 1.0,
                Dispatch::Eager => 1.0 + eager_traffic::DECODE_CACHE_COPIES,
            };
            StepCost {
                flops: (b * per_token) as f64,
                bytes: read + cache_passes * kv as f64 + streamed(Workload::Decode),
                weight_bytes: read,
                items: b as f64,
                passes: 1,
            }
        }
        Workload::TrainStep => {
            // The products write the gradients at the compute precision; the optimizer's state
            // is the master weights' width.
            let gradients = spec.weight_bytes(precision);
            let (state, casts) = if mixed {
                (
                    spec.weight_bytes(Precision::Fp32),
                    mixed_precision_bytes(spec, precision),
                )
            } else {
                (gradients, 0.0)
            };
            let optimizer = ADAMW_FOREACH_PASSES * state;
            // Eager autocast keeps the residual stream in fp32 and casts each projection's input.
            let autocast = if mixed && dispatch == Dispatch::Eager {
                eager_traffic::autocast_extra_bytes(spec, precision, b, seq)
            } else {
                0.0
            };
            StepCost {
                flops: 3.0 * forward_flops,
                bytes: 2.0 * weights + gradients + casts + optimizer + 2.0 * (streamed(Workload::Forward) + autocast),
                weight_bytes: 2.0 * weights,
                items: b as f64,
                passes: 1,
            }
        }
    })
}

impl StepCost {
    /// The prefill `self` describes (one pass over `batch` × `seq` tokens) as a runtime runs it
    /// when it feeds the prompt `chunk` tokens per forward pass: the FLOPs and the other traffic
    /// stay, the weights are read by every pass ([`ModelSpec::prompt_in_chunks`]), and
    /// `passes` counts the passes (each pays the runtime's per-pass overhead). A prompt no longer
    /// than a chunk is one pass, unchanged.
    #[must_use]
    pub fn in_prompt_chunks(self, spec: &ModelSpec, precision: Precision, batch: u32, seq: u32, chunk: u32) -> Self {
        let chunks = spec.prompt_in_chunks(precision, u64::from(batch), seq, chunk);
        Self {
            bytes: self.bytes - self.weight_bytes + chunks.weight_bytes,
            weight_bytes: chunks.weight_bytes,
            passes: u32::try_from(chunks.passes).unwrap_or(u32::MAX),
            ..self
        }
    }
}

/// The cost of one step of `req` as `runtime` runs it: [`step_cost`], with the bytes eager
/// PyTorch's separate calls stream ([`eager_traffic`]) and a prefill split into the request's
/// prompt chunk, else the runtime's ([`Runtime::prompt_chunk_tokens`]).
pub fn runtime_step_cost(spec: &ModelSpec, req: &PerfRequest, runtime: Runtime) -> Result<StepCost, CoreError> {
    let cost = step_cost_with(
        spec,
        req.precision,
        req.workload,
        req.batch_size,
        req.seq_length,
        Dispatch::of(runtime),
        req.trains_mixed(),
    )?;
    Ok(match req.prompt_chunk_on(runtime) {
        Some(chunk) => cost.in_prompt_chunks(spec, req.precision, req.batch_size, req.seq_length, chunk),
        None => cost,
    })
}

fn require_generative(spec: &ModelSpec, workload: Workload) -> Result<(), CoreError> {
    if spec.is_generative() {
        Ok(())
    } else {
        Err(not_generative(spec, workload))
    }
}

fn not_generative(spec: &ModelSpec, workload: Workload) -> CoreError {
    CoreError::WorkloadMismatch {
        workload: workload.as_str(),
        model: spec.name.clone(),
    }
}
