//! The Rust-side reference of the default model: feature vectors of real training steps, the
//! correction the trainer's own network (`mlp.rs`, f32 arithmetic in Rust) computes for each, and
//! the correction tract computes from the model in f64 natively — committed as
//! `data/default.reference.json`. Tests on both targets check that tract, reading the committed
//! ONNX (natively) or its NNEF form (natively and in wasm), computes the network's answer within
//! 1e-5 and tract's native f64 answer within 1e-12: every face corrects a prediction by the same
//! factor, so no face rounds it differently from another.

use serde::{Deserialize, Serialize};

use crate::LearnError;

/// The committed reference.
pub const DEFAULT_REFERENCE: &str = include_str!("../data/default.reference.json");

/// The largest difference allowed between tract's answer and the Rust network's (f32) answer.
pub const TOLERANCE: f64 = 1e-5;

/// The largest difference allowed between tract's answer on any target and its native f64 answer.
pub const TRACT_TOLERANCE: f64 = 1e-12;

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
    /// The same as tract computes it from the model, in f64, natively.
    pub tract: f64,
}

/// The committed cases.
pub fn cases() -> Result<Vec<Case>, LearnError> {
    serde_json::from_str(DEFAULT_REFERENCE).map_err(|e| LearnError::Model(format!("default.reference.json: {e}")))
}
