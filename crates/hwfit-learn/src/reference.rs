//! The Rust-side reference of the default model: feature vectors of real training steps and the
//! correction the trainer's own network (`mlp.rs`, f32 arithmetic in Rust) computes for each,
//! committed as `data/default.reference.json`. Tests on both targets check that tract, reading the
//! committed ONNX (natively) or its NNEF form (natively and in wasm), computes the same within 1e-5.

use serde::{Deserialize, Serialize};

use crate::LearnError;

/// The committed reference.
pub const DEFAULT_REFERENCE: &str = include_str!("../data/default.reference.json");

/// The largest difference allowed between tract's answer and the reference.
pub const TOLERANCE: f64 = 1e-5;

/// One reference case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The step (model, device, workload) the features describe.
    pub step: String,
    /// The feature vector, in the core's order.
    pub features: Vec<f32>,
    /// ln(measured / analytic throughput) as the Rust network computes it.
    pub correction: f32,
}

/// The committed cases.
pub fn cases() -> Result<Vec<Case>, LearnError> {
    serde_json::from_str(DEFAULT_REFERENCE).map_err(|e| LearnError::Model(format!("default.reference.json: {e}")))
}
