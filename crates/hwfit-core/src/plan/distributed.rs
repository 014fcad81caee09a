//! Distributed-training configuration: strategy (DDP, ZeRO-1/2, FSDP/ZeRO-3), micro-batch, gradient
//! accumulation, mixed precision and activation checkpointing chosen so that the per-GPU memory fits,
//! from stated arithmetic, with ready-to-run `torchrun` and DeepSpeed configurations.
//!
//! Memory per GPU with P parameters over N GPUs, mixed-precision Adam (ZeRO paper, §3): 16-bit
//! weights 2P, 16-bit gradients 2P, fp32 master weights and two moments 12P —
//! DDP 16P; ZeRO-1 4P + 12P/N; ZeRO-2 2P + 14P/N; ZeRO-3/FSDP 16P/N — plus activations (Korthikanti
//! et al. 2022; with checkpointing, each layer's input 2·h bytes per token plus one layer's full set)
//! and the CUDA runtime allowance. The search prefers, in order: no checkpointing, the full
//! micro-batch, then the least sharding that fits.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::spec::ModelSpec;
use crate::{CoreError, Device, HardwareType};

const GIB: f64 = 1_073_741_824.0;
/// Most GPUs accepted.
pub const MAX_GPUS: u32 = 65_536;

string_enum! {
    /// How state is spread over the GPUs.
    pub enum Strategy: "distributed strategy" {
        /// Every GPU holds everything (PyTorch DistributedDataParallel).
        Ddp => "DDP",
        /// Optimizer state sharded (DeepSpeed ZeRO stage 1).
        Zero1 => "ZeRO-1",
        /// Optimizer state and gradients sharded (DeepSpeed ZeRO stage 2).
        Zero2 => "ZeRO-2",
        /// Everything sharded (PyTorch FSDP full shard, DeepSpeed ZeRO stage 3).
        Fsdp => "FSDP",
    }
}

impl Strategy {
    const fn zero_stage(self) -> u8 {
        match self {
            Self::Ddp => 0,
            Self::Zero1 => 1,
            Self::Zero2 => 2,
            Self::Fsdp => 3,
        }
    }

    /// Bytes of weights, gradients and optimizer state per GPU.
    fn state_bytes(self, p: f64, n: f64) -> (f64, f64, f64) {
        match self {
            Self::Ddp => (2.0 * p, 2.0 * p, 12.0 * p),
            Self::Zero1 => (2.0 * p, 2.0 * p, 12.0 * p / n),
            Self::Zero2 => (2.0 * p, 2.0 * p / n, 12.0 * p / n),
            Self::Fsdp => (2.0 * p / n, 2.0 * p / n, 12.0 * p / n),
        }
    }
}

/// The distributed planner's input (the `distributed` question's request is
/// [`crate::api::DistributedPlanRequest`], which the core turns into this).
#[derive(Debug, Clone, PartialEq)]
pub struct DistributedInput {
    /// GPUs.
    pub gpu_count: u32,
    /// Per-GPU batch the user wants.
    pub batch_size: u32,
    /// Tokens per sequence.
    pub seq_length: u32,
    /// Memory per GPU, GB (default: the device's).
    pub max_memory_gb: Option<f64>,
    /// The GPU model, if known.
    pub device: Option<Device>,
}

/// Memory per GPU and in total, GB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstimatedMemory {
    /// 16-bit weights (all GPUs together).
    pub parameters_gb: f64,
    /// 16-bit gradients (all together).
    pub gradients_gb: f64,
    /// fp32 master weights and Adam moments (all together).
    pub optimizer_gb: f64,
    /// Activations of one GPU's micro-batch.
    pub activations_gb: f64,
    /// Weights + gradients + optimizer + activations, unsharded.
    pub total_gb: f64,
    /// What one GPU holds under the chosen strategy, runtime allowance included.
    pub per_gpu_gb: f64,
}

/// The plan (IPFS Accelerate's `/training/distributed` answer plus engine configs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DistributedConfig {
    /// Family.
    pub model_family: crate::Family,
    /// Model.
    pub model_name: String,
    /// Strategy.
    pub distributed_strategy: Strategy,
    /// DeepSpeed ZeRO stage equivalent (0 for DDP).
    pub zero_stage: u8,
    /// GPUs.
    pub gpu_count: u32,
    /// Micro-batch per GPU per step.
    pub per_gpu_batch_size: u32,
    /// Micro-batches accumulated per optimizer step.
    pub gradient_accumulation_steps: u32,
    /// Samples per optimizer step over all GPUs.
    pub global_batch_size: u64,
    /// Whether 16-bit mixed precision is used (always, with Adam).
    pub mixed_precision: bool,
    /// `bf16` where the GPU supports it, else `fp16`.
    pub mixed_precision_dtype: String,
    /// Whether activations are recomputed in the backward pass.
    pub activation_checkpointing: bool,
    /// Memory budget per GPU, GB.
    pub max_memory_gb: f64,
    /// The memory estimate.
    pub estimated_memory: EstimatedMemory,
    /// A `torchrun` command line for a Hugging Face `Trainer` script `train.py`.
    pub torchrun_command: String,
    /// A DeepSpeed configuration (`ds_config.json`).
    pub deepspeed_config: serde_json::Value,
    /// How the plan was reached.
    pub explanation: String,
}

fn activation_bytes(spec: &ModelSpec, micro: u32, seq: u32, checkpointing: bool) -> f64 {
    let b = u64::from(micro);
    let mut total = 0u64;
    for s in spec.stacks() {
        let tokens = s.tokens_per_item(seq);
        let per_layer = s.training_activation_bytes_per_token_per_layer(2);
        total += if checkpointing {
            b * tokens * (u64::from(s.layers) * 2 * u64::from(s.hidden_size) + per_layer)
        } else {
            b * tokens * u64::from(s.layers) * per_layer
        };
        if s.generates() {
            total += b * tokens * u64::from(s.vocab_size) * 4;
        }
    }
    for c in spec.conv_nets() {
        total += b * if checkpointing {
            c.peak_activation_elements * 4
        } else {
            c.total_activation_elements * 2
        };
    }
    total as f64
}

fn round2(x: f64) -> f64 {
    libm::round(x * 100.0) / 100.0
}

/// Plans distributed training of `spec`.
pub fn plan_distributed(spec: &ModelSpec, req: &DistributedInput) -> Result<DistributedConfig, CoreError> {
    if req.gpu_count == 0 || req.gpu_count > MAX_GPUS {
        return Err(CoreError::InvalidNumber {
            field: "gpu_count",
            value: format!("{}", req.gpu_count),
            reason: "must be between 1 and 65536",
        });
    }
    crate::resources::validate_request(
        spec,
        crate::Precision::Bf16,
        crate::Mode::Training,
        req.batch_size,
        req.seq_length,
    )?;
    let max_memory_gb = match (req.max_memory_gb, &req.device) {
        (Some(m), _) if !(m.is_finite() && m > 0.0) => {
            return Err(CoreError::InvalidNumber {
                field: "max_memory_gb",
                value: format!("{m}"),
                reason: "must be a positive number",
            })
        }
        (Some(m), _) => m,
        (None, Some(d)) => d.memory_gb,
        (None, None) => 80.0,
    };
    let params = spec.parameters() as f64;
    let gpus = f64::from(req.gpu_count);
    let overhead = HardwareType::Cuda.runtime_overhead_mb() as f64 * 1_048_576.0;
    let budget = max_memory_gb * GIB;
    let strategies: &[Strategy] = if req.gpu_count == 1 {
        &[Strategy::Ddp]
    } else {
        Strategy::ALL
    };
    let mut micro_options = Vec::new();
    let mut m = req.batch_size;
    while m >= 1 {
        micro_options.push(m);
        if m == 1 {
            break;
        }
        m = m.div_ceil(2);
    }
    let mut smallest: Option<f64> = None;
    for checkpointing in [false, true] {
        for &micro in &micro_options {
            for &strategy in strategies {
                let (w, g, o) = strategy.state_bytes(params, gpus);
                let act = activation_bytes(spec, micro, req.seq_length, checkpointing);
                let per_gpu = w + g + o + act + overhead;
                smallest = Some(smallest.map_or(per_gpu, |s: f64| s.min(per_gpu)));
                if per_gpu <= budget {
                    return Ok(build(
                        spec,
                        req,
                        strategy,
                        micro,
                        checkpointing,
                        max_memory_gb,
                        act,
                        per_gpu,
                    ));
                }
            }
        }
    }
    Err(CoreError::DoesNotFit {
        what: format!("{} on {} GPU(s) with {max_memory_gb} GB each", spec.name, req.gpu_count),
        needed_gb: round2(smallest.unwrap_or(0.0) / GIB),
    })
}

#[allow(clippy::too_many_arguments)]
fn build(
    spec: &ModelSpec,
    req: &DistributedInput,
    strategy: Strategy,
    micro: u32,
    checkpointing: bool,
    max_memory_gb: f64,
    act: f64,
    per_gpu: f64,
) -> DistributedConfig {
    let p = spec.parameters() as f64;
    let accumulation = req.batch_size.div_ceil(micro);
    let global = u64::from(micro) * u64::from(accumulation) * u64::from(req.gpu_count);
    let bf16 = req.device.as_ref().is_none_or(|d| d.dense_tflops.bf16.is_some());
    let dtype = if bf16 { "bf16" } else { "fp16" };
    let nodes = req.gpu_count.div_ceil(8);
    let per_node = req.gpu_count.div_ceil(nodes);
    let launcher = if nodes == 1 {
        format!("torchrun --standalone --nproc_per_node={per_node}")
    } else {
        format!("torchrun --nnodes={nodes} --nproc_per_node={per_node} --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500")
    };
    let mut args = format!("train.py --model_name_or_path {} --per_device_train_batch_size {micro} --gradient_accumulation_steps {accumulation} --{dtype}", spec.name);
    if checkpointing {
        args.push_str(" --gradient_checkpointing");
    }
    match strategy {
        Strategy::Ddp => {}
        Strategy::Zero1 | Strategy::Zero2 => args.push_str(" --deepspeed ds_config.json"),
        Strategy::Fsdp => args.push_str(" --fsdp \"full_shard auto_wrap\""),
    }
    let deepspeed_config = serde_json::json!({
        "train_batch_size": global,
        "train_micro_batch_size_per_gpu": micro,
        "gradient_accumulation_steps": accumulation,
        "gradient_clipping": 1.0,
        "bf16": { "enabled": bf16 },
        "fp16": { "enabled": !bf16, "loss_scale": 0, "initial_scale_power": 16 },
        "zero_optimization": {
            "stage": strategy.zero_stage(),
            "overlap_comm": true,
            "contiguous_gradients": true,
            "reduce_bucket_size": 500_000_000u64,
        },
        "activation_checkpointing": { "partition_activations": checkpointing && strategy == Strategy::Fsdp },
    });
    let gb = |x: f64| round2(x / GIB);
    let explanation = format!(
        "{} GB per GPU under {strategy} at micro-batch {micro}{}{} fits the {max_memory_gb} GB budget; {} keeps the global batch at {global}.",
        gb(per_gpu),
        if checkpointing { " with activation checkpointing" } else { "" },
        if micro < req.batch_size { format!(" (the requested {} did not fit)", req.batch_size) } else { String::new() },
        if accumulation > 1 { format!("{accumulation} accumulation steps") } else { String::from("no accumulation") },
    );
    DistributedConfig {
        model_family: spec.family,
        model_name: spec.name.clone(),
        distributed_strategy: strategy,
        zero_stage: strategy.zero_stage(),
        gpu_count: req.gpu_count,
        per_gpu_batch_size: micro,
        gradient_accumulation_steps: accumulation,
        global_batch_size: global,
        mixed_precision: true,
        mixed_precision_dtype: String::from(dtype),
        activation_checkpointing: checkpointing,
        max_memory_gb,
        estimated_memory: EstimatedMemory {
            parameters_gb: gb(2.0 * p),
            gradients_gb: gb(2.0 * p),
            optimizer_gb: gb(12.0 * p),
            activations_gb: gb(act),
            total_gb: gb(16.0 * p + act),
            per_gpu_gb: gb(per_gpu),
        },
        torchrun_command: format!("{launcher} {args}"),
        deepspeed_config,
        explanation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalog, DeviceCatalog};
    use alloc::string::ToString;

    fn plan(
        model: &str,
        gpus: u32,
        batch: u32,
        gb: Option<f64>,
        device: Option<&str>,
    ) -> Result<DistributedConfig, CoreError> {
        let spec = Catalog::builtin().resolve(model).unwrap().spec;
        let device = device.map(|d| DeviceCatalog::builtin().resolve(d).unwrap().clone());
        plan_distributed(
            &spec,
            &DistributedInput {
                gpu_count: gpus,
                batch_size: batch,
                seq_length: 512,
                max_memory_gb: gb,
                device,
            },
        )
    }

    #[test]
    fn small_models_use_plain_ddp() {
        let c = plan("gpt2", 8, 16, Some(80.0), None).unwrap();
        assert_eq!(c.distributed_strategy, Strategy::Ddp);
        assert_eq!(c.global_batch_size, 128);
        assert_eq!(c.gradient_accumulation_steps, 1);
        assert!(c
            .torchrun_command
            .starts_with("torchrun --standalone --nproc_per_node=8 train.py"));
        assert_eq!(c.deepspeed_config["zero_optimization"]["stage"], 0);
    }

    #[test]
    fn a_7b_model_on_8_x_80_gb_needs_sharding_by_hand_arithmetic() {
        // 6.74 B params × 16 B = 108 GB > 80 GB, so DDP cannot fit; ZeRO-1: 4P + 12P/8 = 5.5 × 6.74e9 B = 34.5 GiB + activations.
        let c = plan("llama-2-7b", 8, 4, Some(80.0), Some("H100 SXM")).unwrap();
        assert_ne!(c.distributed_strategy, Strategy::Ddp);
        assert!(c.estimated_memory.per_gpu_gb <= 80.0);
        assert_eq!(c.mixed_precision_dtype, "bf16");
        assert!((c.estimated_memory.optimizer_gb - 6.738e9 * 12.0 / GIB).abs() < 0.1);
    }

    #[test]
    fn memory_pressure_turns_on_checkpointing_and_accumulation() {
        let c = plan("llama-2-7b", 8, 64, Some(24.0), Some("RTX 4090")).unwrap();
        assert!(c.activation_checkpointing || c.per_gpu_batch_size < 64);
        assert_eq!(
            u64::from(c.per_gpu_batch_size * c.gradient_accumulation_steps) * 8,
            c.global_batch_size
        );
        assert!(c.global_batch_size >= 64 * 8);
    }

    #[test]
    fn v100_gets_fp16_and_impossible_plans_say_what_is_needed() {
        let c = plan("gpt2", 2, 8, None, Some("V100 SXM2 32GB")).unwrap();
        assert_eq!(c.mixed_precision_dtype, "fp16");
        assert!((c.max_memory_gb - 32.0).abs() < f64::EPSILON);
        let err = plan("llama 3.1 405b", 2, 1, Some(24.0), None).unwrap_err().to_string();
        assert!(err.contains("does not fit") && err.contains("needs"), "{err}");
        assert!(plan("gpt2", 0, 1, None, None)
            .unwrap_err()
            .to_string()
            .contains(&*crate::error::field_name("gpu_count")));
        assert!(plan("gpt2", 2, 1, Some(f64::NAN), None)
            .unwrap_err()
            .to_string()
            .contains(&*crate::error::field_name("max_memory_gb")));
    }

    #[test]
    fn many_gpus_span_nodes() {
        let c = plan("llama-2-70b", 64, 1, Some(80.0), None).unwrap();
        assert!(
            c.torchrun_command.starts_with("torchrun --nnodes=8 --nproc_per_node=8"),
            "{}",
            c.torchrun_command
        );
    }
}
