//! Every default of every question, defined once. The faces (CLI flags, JS objects, HTTP bodies)
//! leave a field out and get these.

use crate::{HardwareType, Mode, Precision};

/// Items per step.
pub const BATCH_SIZE: u32 = 1;
/// Tokens per sequence (the KV context for decode).
pub const SEQUENCE_LENGTH: u32 = 128;
/// Weight precision of predictions, selection and resource estimates.
pub const PRECISION: Precision = Precision::Fp32;
/// Inference or training.
pub const MODE: Mode = Mode::Inference;
/// Hardware type of a resource estimate.
pub const RESOURCES_HARDWARE: HardwareType = HardwareType::Cpu;
/// Batch sizes of the prediction matrix and the model analysis (the predictor guide's 1, 8, 32).
pub const BATCH_SIZES: &[u32] = &[1, 8, 32];
/// Models of the prediction matrix (the predictor guide's example set).
pub const MATRIX_MODELS: &[&str] = &["bert-base-uncased", "t5-small", "gpt2", "vit-base-patch16-224"];
/// Batch sizes of the selection map (the selection guide's).
pub const MAP_BATCH_SIZES: &[u32] = &[1, 4, 16, 32, 64];
/// Tokens per sequence of a distributed-training plan.
pub const DISTRIBUTED_SEQUENCE_LENGTH: u32 = 512;
/// Weight precision of a resource-pool plan and of model recommendations.
pub const POOL_PRECISION: Precision = Precision::Fp16;

/// The longest model or device name read, bytes: every real name is far shorter, and resolving a
/// name costs time in proportion to its length.
pub const MAX_NAME_BYTES: usize = 256;
/// The most cells (models × targets × batch sizes × precisions) one prediction matrix answers.
pub const MAX_MATRIX_CELLS: usize = 10_000;
