//! Resource requirements (the integration guide's `resource_requirements`): memory, CPU cores, disk
//! space and batch size for a model × hardware type × precision × mode, from stated arithmetic with
//! every memory term reported.
//!
//! Memory terms (MB are MiB, 2²⁰ bytes):
//! - weights: parameters × bits per weight / 8 (training: see below);
//! - KV cache (generative inference): batch × sequence × 2 · layers · kv_heads · head_dim × value bytes;
//! - activations: inference keeps one layer's working set per stack plus the last token's fp32
//!   logits; training keeps every layer's activations (Korthikanti et al. 2022) and, for every
//!   position, the logits at the activation width plus three fp32 tensors of them at the loss's
//!   backward pass ([`TRAINING_LOGIT_FP32_COPIES`]); convolutional nets use their feature-map
//!   sizes (training: two maps per layer);
//! - training (AdamW): mixed precision ([`Precision::mixed_precision`], the default at fp16/bf16)
//!   keeps fp32 weights, the 16-bit copies autocast makes of them for the products (cached through
//!   the forward pass, held for the backward), fp32 gradients and AdamW's two fp32 moments — 18
//!   bytes per parameter; pure training keeps the weights, gradients and both moments at the
//!   training precision (8 bytes per parameter at bf16, 16 at fp32);
//! - runtime overhead: the hardware type's allowance (see [`HardwareType::runtime_overhead_mb`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::spec::{ModelSpec, StackRole};
use crate::{compat, CoreError, HardwareType, Mode, Precision};

const MIB: f64 = 1_048_576.0;
/// Feature maps per convolutional layer a training step keeps for the backward pass (see
/// [`activation_bytes`]).
const CONV_TRAINING_MAPS_PER_LAYER: f64 = 2.0;
/// fp32 tensors of every logit a training step holds at once, besides the logits themselves: the
/// loss's log-softmax output (Hugging Face's loss upcasts the logits to fp32; cross-entropy saves
/// its log-softmax for the backward pass), and in the backward pass the gradient of that output and
/// the gradient of the logits.
pub const TRAINING_LOGIT_FP32_COPIES: f64 = 3.0;
/// Largest batch accepted: beyond this an estimate is meaningless.
pub const MAX_BATCH_SIZE: u32 = 65_536;
/// Longest sequence accepted.
pub const MAX_SEQ_LENGTH: u32 = 1_048_576;
/// Sustained fp32 GFLOP/s assumed per CPU core for the core count: half of an AVX2 core's peak
/// (2 FMA units × 8 lanes × 2 FLOPs × 3 GHz = 96 GFLOP/s).
pub const CPU_CORE_GFLOPS: f64 = 48.0;
/// Headroom of the recommended memory over the minimum, for allocator fragmentation and framework
/// workspaces (an assumption, not a measurement).
pub const RECOMMENDED_HEADROOM: f64 = 1.2;

/// The resource estimator's input (the `resources` question's request is
/// [`crate::api::ResourcesRequest`], which the core turns into this).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResourceInput {
    /// Where it runs.
    pub hardware: HardwareType,
    /// Weight precision.
    pub precision: Precision,
    /// Inference or training.
    pub mode: Mode,
    /// Items (sequences, images, clips) per step.
    pub batch_size: u32,
    /// Tokens per text sequence (prompt + generated for generative inference).
    pub seq_length: u32,
    /// Training: mixed precision or pure (default: [`Precision::mixed_precision`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_precision: Option<bool>,
}

impl ResourceInput {
    /// Whether this is training in mixed precision: the request's choice, else the default
    /// ([`Precision::mixed_precision`]); never for inference.
    #[must_use]
    pub const fn trains_mixed(&self) -> bool {
        matches!(self.mode, Mode::Training) && self.precision.mixed_precision(self.mixed_precision)
    }

    /// Checks the request against the model ([`validate_request`]) and that the hardware supports
    /// the precision.
    pub fn validate(&self, spec: &ModelSpec) -> Result<(), CoreError> {
        validate_request(spec, self.precision, self.mode, self.batch_size, self.seq_length)?;
        compat::check_precision(self.hardware, self.precision)?;
        Ok(())
    }
}

/// Checks what does not depend on the hardware: positive, bounded sizes; a sequence the model
/// accepts; for training, a precision that can be trained.
pub fn validate_request(
    spec: &ModelSpec,
    precision: Precision,
    mode: Mode,
    batch_size: u32,
    seq_length: u32,
) -> Result<(), CoreError> {
    check_range("batch_size", batch_size, MAX_BATCH_SIZE)?;
    check_range("sequence_length", seq_length, MAX_SEQ_LENGTH)?;
    if spec.reads_text() && spec.max_positions > 0 && seq_length > spec.max_positions {
        return Err(CoreError::SequenceTooLong {
            seq_length,
            max_positions: spec.max_positions,
            model: spec.name.clone(),
        });
    }
    if mode == Mode::Training && !precision.is_trainable() {
        return Err(CoreError::UntrainablePrecision {
            precision: precision.as_str(),
        });
    }
    Ok(())
}

/// Checks that `value` is at least 1 and at most `max`, naming `field` otherwise.
pub(crate) fn check_range(field: &'static str, value: u32, max: u32) -> Result<(), CoreError> {
    if value == 0 {
        return Err(CoreError::InvalidNumber {
            field,
            value: format!("{value}"),
            reason: "must be at least 1",
        });
    }
    if value > max {
        return Err(CoreError::InvalidNumber {
            field,
            value: format!("{value}"),
            reason: "absurdly large",
        });
    }
    Ok(())
}

/// Memory terms, in MB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryBreakdown {
    /// Model weights (mixed-precision training: the fp32 weights and autocast's 16-bit copies).
    pub weights_mb: f64,
    /// Activations.
    pub activations_mb: f64,
    /// KV cache.
    pub kv_cache_mb: f64,
    /// Gradients.
    pub gradients_mb: f64,
    /// Optimizer state (AdamW's two moments).
    pub optimizer_state_mb: f64,
    /// Runtime allowance.
    pub runtime_overhead_mb: f64,
}

impl MemoryBreakdown {
    /// Sum of the terms.
    #[must_use]
    pub fn total_mb(&self) -> f64 {
        self.weights_mb
            + self.activations_mb
            + self.kv_cache_mb
            + self.gradients_mb
            + self.optimizer_state_mb
            + self.runtime_overhead_mb
    }
}

/// The estimate (IPFS Accelerate's `resource_requirements`, plus the request echoed and the breakdown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResourceRequirements {
    /// The model.
    pub model_name: String,
    /// Parameters of the model.
    pub parameters: u64,
    /// Hardware type.
    pub hardware: HardwareType,
    /// Precision.
    pub precision: Precision,
    /// Mode.
    pub mode: Mode,
    /// Training: whether the estimate is for mixed precision (fp32 weights, gradients and AdamW
    /// state) or pure; absent for inference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_precision: Option<bool>,
    /// Tokens per sequence assumed.
    pub seq_length: u32,
    /// Memory to run the request at all (sum of the breakdown), MB.
    pub min_memory_mb: u64,
    /// Memory with headroom, MB.
    pub recommended_memory_mb: u64,
    /// CPU cores.
    pub cpu_cores: u32,
    /// Disk space for the weights (training: a full checkpoint), MB.
    pub disk_space_mb: u64,
    /// Batch size the estimate is for.
    pub batch_size: u32,
    /// Memory terms.
    pub breakdown: MemoryBreakdown,
    /// How the numbers were obtained.
    pub source: String,
    /// The formulas and assumptions behind them.
    pub notes: Vec<String>,
}

/// Activation bytes a step keeps, in floating point: the largest batch and context times the
/// widest plausible model is beyond `u64`.
fn activation_bytes(spec: &ModelSpec, req: &ResourceInput) -> f64 {
    let act = req.precision.activation_bytes();
    let batch = f64::from(req.batch_size);
    let training = req.mode == Mode::Training;
    let mut total = 0.0;
    for stack in spec.stacks() {
        let tokens = stack.tokens_per_item(req.seq_length) as f64;
        total += if training {
            f64::from(stack.layers) * batch * tokens * stack.training_activation_bytes_per_token_per_layer(act) as f64
        } else {
            batch * tokens * stack.inference_activation_bytes_per_token(act) as f64
        };
        if stack.generates() {
            // Training: every position's logits and the loss's fp32 tensors of them; generating:
            // the last token's fp32 logits.
            let per_logit = if training {
                act as f64 + TRAINING_LOGIT_FP32_COPIES * 4.0
            } else {
                4.0
            };
            let positions = if training { tokens } else { 1.0 };
            total += batch * positions * f64::from(stack.vocab_size) * per_logit;
        }
    }
    for conv in spec.conv_nets() {
        total += if training {
            // Two maps per layer stay for the backward pass: the convolution's output (saved by
            // its batch norm) and the normalised, activated one (saved by the in-place ReLU and
            // the next convolution).
            CONV_TRAINING_MAPS_PER_LAYER * batch * (conv.total_activation_elements * act) as f64
        } else {
            batch * (2 * conv.peak_activation_elements * act) as f64
        };
    }
    total
}

fn cpu_cores(spec: &ModelSpec, req: &ResourceInput) -> u32 {
    let runs_on_host_cpu = matches!(
        req.hardware,
        HardwareType::Cpu | HardwareType::Openvino | HardwareType::Wasm
    );
    if !runs_on_host_cpu {
        // Host cores feeding an accelerator: tokenization/decoding and data-loading workers.
        return if req.mode == Mode::Training { 4 } else { 2 };
    }
    let passes = if req.mode == Mode::Training { 3.0 } else { 1.0 }; // backward ≈ 2 × forward
    let gflop = spec.flops_per_item(req.seq_length) as f64 * f64::from(req.batch_size) * passes / 1e9;
    libm::ceil(gflop / CPU_CORE_GFLOPS).clamp(1.0, 64.0) as u32
}

/// The memory terms of `req` for `spec`, without validation or notes (the performance model's fast path).
#[must_use]
pub fn memory_breakdown(spec: &ModelSpec, req: &ResourceInput) -> MemoryBreakdown {
    let training = req.mode == Mode::Training;
    let act_bytes = req.precision.activation_bytes();
    let weights = spec.weight_bytes(req.precision);
    let (weights, gradients, optimizer) = match training {
        false => (weights, 0.0, 0.0),
        true if req.trains_mixed() => {
            let fp32 = spec.weight_bytes(Precision::Fp32);
            (fp32 + weights, fp32, 2.0 * fp32)
        }
        true => (weights, weights, 2.0 * weights),
    };
    let kv_cache = if training {
        0.0
    } else {
        (u64::from(req.batch_size) * spec.kv_cache_bytes(u64::from(req.seq_length), act_bytes)) as f64
    };
    MemoryBreakdown {
        weights_mb: round2(weights / MIB),
        activations_mb: round2(activation_bytes(spec, req) / MIB),
        kv_cache_mb: round2(kv_cache / MIB),
        gradients_mb: round2(gradients / MIB),
        optimizer_state_mb: round2(optimizer / MIB),
        runtime_overhead_mb: req.hardware.runtime_overhead_mb() as f64,
    }
}

/// Estimates what `spec` needs for `req`.
pub fn estimate_resources(spec: &ModelSpec, req: &ResourceInput) -> Result<ResourceRequirements, CoreError> {
    req.validate(spec)?;
    let params = spec.parameters();
    let training = req.mode == Mode::Training;
    let act_bytes = req.precision.activation_bytes();
    let weights = spec.weight_bytes(req.precision);
    let breakdown = memory_breakdown(spec, req);
    let min = breakdown.total_mb();
    let disk = if training { params as f64 * 12.0 } else { weights };
    let mut notes = Vec::from([
        if (weights - req.precision.weight_bytes(params)).abs() < 1.0 {
            format!(
                "weights: {params} parameters × {} bits / 8",
                req.precision.bits_per_weight()
            )
        } else {
            format!(
                "weights: {params} parameters, the layers' weights at {:.3} bits, the embedding and output tables{} at 16 bits, as {} checkpoints keep them",
                req.precision.bits_per_weight(),
                if req.precision.quantizes_only_experts() { " and (mixture of experts) attention" } else { "" },
                req.precision
            )
        },
        format!(
            "runtime overhead: {} MB allowance for {} (assumed)",
            req.hardware.runtime_overhead_mb(),
            req.hardware
        ),
        format!("recommended = minimum × {RECOMMENDED_HEADROOM} headroom (assumed)"),
    ]);
    if training {
        notes.push(if req.trains_mixed() {
            format!("training in mixed precision: fp32 weights with autocast's {} copies, fp32 gradients and AdamW moments (18 bytes per parameter); activations per Korthikanti et al. 2022 with memory-efficient attention, logits with the loss's fp32 copies", req.precision)
        } else {
            format!("training: weights, gradients and AdamW moments at {} ({} bytes per parameter); activations per Korthikanti et al. 2022 with memory-efficient attention, logits with the loss's fp32 copies", req.precision, 4 * req.precision.activation_bytes())
        });
        notes.push(String::from(
            "disk: one checkpoint of fp32 weights and AdamW moments (12 bytes per parameter)",
        ));
    } else if spec.is_generative() {
        let per_token = spec.kv_cache_bytes_per_token(act_bytes);
        let per_sequence = spec.kv_cache_bytes(u64::from(req.seq_length), act_bytes);
        let state = spec.recurrent_state_bytes(act_bytes);
        notes.push(if state > 0 {
            format!(
                "KV cache: batch {} × {per_sequence} bytes per sequence of {} tokens, of which {state} bytes are the fixed state of the recurrent layers (the attention layers cache {per_token} bytes per token)",
                req.batch_size, req.seq_length
            )
        } else if per_sequence == u64::from(req.seq_length) * per_token {
            format!(
                "KV cache: {} tokens × batch {} × {per_token} bytes per token",
                req.seq_length, req.batch_size
            )
        } else {
            format!(
                "KV cache: batch {} × {per_sequence} bytes per sequence of {} tokens (local-attention layers keep only their window)",
                req.batch_size, req.seq_length
            )
        });
    }
    if spec
        .stacks()
        .any(|s| s.role != StackRole::Encoder && s.input != crate::Modality::Text)
    {
        notes.push(String::from(
            "a decoder over non-text frames is costed at its fixed frame count",
        ));
    }
    Ok(ResourceRequirements {
        model_name: spec.name.clone(),
        parameters: params,
        hardware: req.hardware,
        precision: req.precision,
        mode: req.mode,
        mixed_precision: training.then(|| req.trains_mixed()),
        seq_length: req.seq_length,
        min_memory_mb: libm::ceil(min) as u64,
        recommended_memory_mb: libm::ceil(min * RECOMMENDED_HEADROOM) as u64,
        cpu_cores: cpu_cores(spec, req),
        disk_space_mb: libm::ceil(disk / MIB) as u64,
        batch_size: req.batch_size,
        breakdown,
        source: String::from("formula"),
        notes,
    })
}

fn round2(x: f64) -> f64 {
    libm::round(x * 100.0) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;
    use alloc::string::ToString;

    fn req(
        hardware: HardwareType,
        precision: Precision,
        mode: Mode,
        batch_size: u32,
        seq_length: u32,
    ) -> ResourceInput {
        ResourceInput {
            hardware,
            precision,
            mode,
            batch_size,
            seq_length,
            mixed_precision: None,
        }
    }

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec
    }

    #[test]
    fn llama_3_8b_fp16_inference_by_hand() {
        // weights: 8,030,261,248 params × 2 B = 15,316.2 MiB (the familiar "16 GB")
        // KV cache: 4096 tokens × 131,072 B = 512 MiB
        let r = estimate_resources(
            &spec("Meta-Llama-3-8B"),
            &req(HardwareType::Cuda, Precision::Fp16, Mode::Inference, 1, 4096),
        )
        .unwrap();
        assert!(
            (r.breakdown.weights_mb - 15_316.2).abs() < 1.0,
            "{}",
            r.breakdown.weights_mb
        );
        assert!((r.breakdown.kv_cache_mb - 512.0).abs() < 0.01);
        assert!(r.breakdown.runtime_overhead_mb > 0.0);
        assert_eq!(r.min_memory_mb, libm::ceil(r.breakdown.total_mb()) as u64);
        assert!(r.recommended_memory_mb > r.min_memory_mb);
    }

    #[test]
    fn training_keeps_18_bytes_per_parameter_mixed_8_pure_16_at_fp32() {
        let s = spec("bert-base-uncased");
        let p = s.parameters() as f64;
        let per_parameter = |precision, mixed_precision| {
            let input = ResourceInput {
                mixed_precision,
                ..req(HardwareType::Cuda, precision, Mode::Training, 8, 128)
            };
            let r = estimate_resources(&s, &input).unwrap();
            assert!(r.breakdown.activations_mb > 0.0);
            assert!(r.breakdown.kv_cache_mb.abs() < f64::EPSILON);
            assert_eq!(r.mixed_precision, Some(input.trains_mixed()));
            (r.breakdown.weights_mb + r.breakdown.gradients_mb + r.breakdown.optimizer_state_mb) * MIB / p
        };
        // Mixed precision (the default at bf16): fp32 weights, autocast's bf16 copies, fp32
        // gradients, two fp32 moments.
        assert!((per_parameter(Precision::Bf16, None) - 18.0).abs() < 0.01);
        assert!((per_parameter(Precision::Bf16, Some(false)) - 8.0).abs() < 0.01);
        assert!((per_parameter(Precision::Fp32, None) - 16.0).abs() < 0.01);
        assert!((per_parameter(Precision::Fp32, Some(true)) - 16.0).abs() < 0.01);
    }

    #[test]
    fn memory_grows_with_batch_and_sequence() {
        let s = spec("gpt2");
        let small = estimate_resources(&s, &req(HardwareType::Cpu, Precision::Fp32, Mode::Inference, 1, 128)).unwrap();
        let big = estimate_resources(&s, &req(HardwareType::Cpu, Precision::Fp32, Mode::Inference, 8, 1024)).unwrap();
        assert!(big.min_memory_mb > small.min_memory_mb);
        assert!(big.cpu_cores >= small.cpu_cores);
    }

    #[test]
    fn bad_requests_are_refused_with_the_field_named() {
        let s = spec("bert-base-uncased");
        let e = |r: ResourceInput| estimate_resources(&s, &r).unwrap_err().to_string();
        assert!(e(req(HardwareType::Cpu, Precision::Fp32, Mode::Inference, 0, 128))
            .contains(&*crate::error::field_name("batch_size")));
        assert!(
            e(req(HardwareType::Cpu, Precision::Fp32, Mode::Inference, 1, 4096)).contains(&format!(
                "{}: 4096 is longer than google-bert/bert-base-uncased's maximum of 512 positions",
                crate::error::field_name("sequence_length")
            ))
        );
        assert!(e(req(HardwareType::Cpu, Precision::Fp32, Mode::Inference, 1_000_000, 128)).contains("absurdly large"));
        assert!(e(req(HardwareType::Cpu, Precision::Fp8, Mode::Inference, 1, 128))
            .contains("cpu does not support precision fp8"));
        assert!(e(req(HardwareType::Cuda, Precision::Q4KM, Mode::Training, 1, 128)).contains("training at q4_k_m"));
    }

    #[test]
    fn cnn_activations_come_from_feature_maps() {
        let r = estimate_resources(
            &spec("resnet-50"),
            &req(HardwareType::Cuda, Precision::Fp16, Mode::Training, 32, 1),
        )
        .unwrap();
        // Two maps per layer: 2 × 32 × 11,314,688 × 2 B = 1,381.2 MiB
        assert!(
            (r.breakdown.activations_mb - 1_381.2).abs() < 0.1,
            "{}",
            r.breakdown.activations_mb
        );
    }
}
