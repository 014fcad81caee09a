//! The learned predictor: an ONNX model of ln(measured / analytic throughput) run by tract, with
//! its training domain and feature list read from the model's metadata and checked against the
//! core's. Natively and in the npm package's `learn/` module alike.

use std::sync::Arc;

use hwfit_core::perf::learned::{feature_names, LearnedDomain, FEATURE_COUNT};
use hwfit_core::perf::ResidualModel;
use tract_onnx::pb::ModelProto;
use tract_onnx::prelude::*;

use crate::LearnError;

/// The default trained model (see `data/README.md` in this crate for how it was produced).
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../data/default.onnx");

/// Metadata keys the trainer writes.
pub mod keys {
    /// Comma-separated feature names, in input order.
    pub const FEATURES: &str = "hwfit.features";
    /// The [`hwfit_core::perf::LearnedDomain`] as JSON.
    pub const DOMAIN: &str = "hwfit.domain";
    /// What the model was trained on and how.
    pub const TRAINED_ON: &str = "hwfit.trained_on";
}

/// A trained residual model, ready to run.
#[derive(Debug, Clone)]
pub struct TractPredictor {
    plan: Arc<TypedRunnableModel>,
    domain: LearnedDomain,
    description: String,
}

fn metadata<'a>(proto: &'a ModelProto, key: &str) -> Result<&'a str, LearnError> {
    proto
        .metadata_props
        .iter()
        .find(|p| p.key == key)
        .map(|p| p.value.as_str())
        .ok_or_else(|| LearnError::Model(format!("metadata '{key}' is missing (not a model `hwfit train` wrote)")))
}

impl TractPredictor {
    /// Loads a model from ONNX bytes: checks its features against the core's, reads its domain and
    /// optimizes it for one feature vector.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LearnError> {
        let onnx = tract_onnx::onnx();
        let proto = onnx
            .proto_model_for_read(&mut &*bytes)
            .map_err(|e| LearnError::Model(format!("not an ONNX model: {e}")))?;
        let features = metadata(&proto, keys::FEATURES)?;
        let expected = feature_names().join(",");
        if features != expected {
            return Err(LearnError::Model(format!(
                "the model's features ({features}) are not this hwfit's ({expected}); retrain it with `hwfit train`"
            )));
        }
        let domain: LearnedDomain = serde_json::from_str(metadata(&proto, keys::DOMAIN)?)
            .map_err(|e| LearnError::Model(format!("metadata '{}': {e}", keys::DOMAIN)))?;
        let description = metadata(&proto, keys::TRAINED_ON)?.to_string();
        let plan = onnx
            .model_for_proto_model(&proto)
            .and_then(|m| m.with_input_fact(0, f32::fact([1, FEATURE_COUNT]).into()))
            .and_then(InferenceModelExt::into_optimized)
            .and_then(IntoRunnable::into_runnable)
            .map_err(|e| LearnError::Model(format!("tract cannot run the model: {e:#}")))?;
        Ok(Self {
            plan,
            domain,
            description,
        })
    }

    /// The default trained model.
    pub fn default_model() -> Result<Self, LearnError> {
        Self::from_bytes(DEFAULT_MODEL)
    }

    /// Runs the model on one feature vector.
    pub fn evaluate(&self, features: &[f32]) -> Result<f32, LearnError> {
        if features.len() != FEATURE_COUNT {
            return Err(LearnError::Model(format!(
                "{} features given, the model takes {FEATURE_COUNT}",
                features.len()
            )));
        }
        let input = tract_ndarray::Array2::from_shape_vec((1, FEATURE_COUNT), features.to_vec())
            .map_err(|e| LearnError::Model(e.to_string()))?;
        let outputs = self
            .plan
            .run(tvec!(Tensor::from(input).into()))
            .map_err(|e| LearnError::Model(format!("tract: {e:#}")))?;
        let view = outputs[0]
            .to_plain_array_view::<f32>()
            .map_err(|e| LearnError::Model(format!("tract: {e:#}")))?;
        view.iter()
            .next()
            .copied()
            .ok_or_else(|| LearnError::Model(String::from("the model returned nothing")))
    }
}

impl ResidualModel for TractPredictor {
    fn log_correction(&self, features: &[f32]) -> Result<f64, String> {
        self.evaluate(features).map(f64::from).map_err(|e| e.to_string())
    }

    fn domain(&self) -> &LearnedDomain {
        &self.domain
    }

    fn describe(&self) -> &str {
        &self.description
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_bytes_are_a_typed_error() {
        let err = TractPredictor::from_bytes(b"not onnx").unwrap_err();
        assert!(err.to_string().contains("not an ONNX model"), "{err}");
        let p = TractPredictor::default_model().unwrap();
        assert!(p
            .evaluate(&[0.0; 3])
            .unwrap_err()
            .to_string()
            .contains("features given"));
    }
}
