//! # hwfit-learn
//!
//! hwfit's learned predictor. The analytic model's errors are systematic (llama.cpp prefill on
//! data-centre GPUs, pooled coefficients for CPUs); a small MLP learns ln(measured / analytic
//! throughput) from device-independent features defined in `hwfit_core::perf::learned`, and is
//! used only where leave-devices-out cross-validation shows it better.
//!
//! - [`predictor`]: the trained model run by tract — its ONNX file through tract-onnx natively, its
//!   NNEF form through tract-nnef in the npm package's `learn/` module;
//! - [`reference`](mod@reference): the Rust-side reference answers of the default model, for tests on both targets;
//! - `onnx` (feature `onnx`): the ONNX writer the trainer and the runner share;
//! - `train` (feature `train`): the trainer and its cross-validation report;
//! - `runner` (feature `runner`): `hwfit bench`'s transformer and CNN graphs run through tract on
//!   N threads, and through ONNX Runtime with feature `onnxruntime`.

#[cfg(feature = "train")]
pub mod mlp;
#[cfg(feature = "onnx")]
pub mod onnx;
pub mod predictor;
#[cfg(feature = "train")]
pub mod records;
pub mod reference;
#[cfg(feature = "runner")]
pub mod runner;
#[cfg(feature = "train")]
pub mod train;

pub use predictor::TractPredictor;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// A model that cannot be used.
    #[error("learned model: {0}")]
    Model(String),
    /// Training data or settings that cannot be used.
    #[error("training: {0}")]
    Training(String),
    /// A benchmark that cannot run.
    #[error("benchmark: {0}")]
    Bench(String),
    /// The core refused a request.
    #[error(transparent)]
    Core(#[from] hwfit_core::CoreError),
}
