//! The learned predictor: a trained model of ln(measured / analytic throughput) run by tract, with
//! its training domain and feature list read from the model's metadata and checked against the
//! core's. Two forms of one model: the ONNX file `hwfit train` writes (read by tract-onnx, natively)
//! and tract's NNEF form of it (read by tract-nnef: the npm package's `learn/` module, where
//! tract-onnx would not fit the size budget), which `hwfit train` writes beside it.

use std::sync::Arc;

use hwfit_core::perf::learned::{feature_names, LearnedDomain, FEATURE_COUNT};
use hwfit_core::perf::{ResidualModel, WorkloadClass};
use hwfit_core::HardwareType;
use tract_nnef::internal::translator::Translate as _;
use tract_nnef::prelude::*;
use tract_nnef::tract_core::floats::FloatPrecisionTranslator;

use crate::LearnError;

/// The default trained model (see `data/README.md` in this crate for how it was produced).
#[cfg(feature = "onnx")]
pub const DEFAULT_MODEL: &[u8] = include_bytes!("../data/default.onnx");

/// The default model in tract's NNEF form (`hwfit train` converts `default.onnx`; a test checks
/// the conversion byte for byte).
pub const DEFAULT_MODEL_NNEF: &[u8] = include_bytes!("../data/default.nnef.tar");

/// Metadata keys the trainer writes (ONNX `metadata_props`; NNEF graph properties).
pub mod keys {
    /// Comma-separated feature names, in input order.
    pub const FEATURES: &str = "hwfit.features";
    /// The [`hwfit_core::perf::LearnedDomain`] as JSON.
    pub const DOMAIN: &str = "hwfit.domain";
    /// What the model was trained on and how.
    pub const TRAINED_ON: &str = "hwfit.trained_on";
    /// Every key, in the order they are written.
    pub const ALL: [&str; 3] = [FEATURES, DOMAIN, TRAINED_ON];
}

/// A trained residual model, ready to run.
#[derive(Debug, Clone)]
pub struct TractPredictor {
    plan: Arc<TypedRunnableModel>,
    domain: LearnedDomain,
    description: String,
}

/// Whether `bytes` are a tar archive (tract's NNEF form) rather than ONNX protobuf.
fn is_tar(bytes: &[u8]) -> bool {
    bytes.get(257..262) == Some(b"ustar".as_slice())
}

fn missing(key: &str) -> LearnError {
    LearnError::Model(format!("metadata '{key}' is missing (not a model `hwfit train` wrote)"))
}

impl TractPredictor {
    /// Loads a model from the bytes of a `.onnx` or a `.nnef.tar` written by `hwfit train`: checks
    /// its features against the core's, reads its domain and optimizes it for one feature vector.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LearnError> {
        if is_tar(bytes) {
            return Self::from_nnef(bytes);
        }
        #[cfg(feature = "onnx")]
        return Self::from_onnx(bytes);
        #[cfg(not(feature = "onnx"))]
        Err(LearnError::Model(String::from(
            "not a tract NNEF archive: here the model is read in tract's NNEF form, the .nnef.tar \
             `hwfit train --output FILE.onnx` writes beside FILE.onnx",
        )))
    }

    /// Loads an ONNX model written by `hwfit train`.
    #[cfg(feature = "onnx")]
    pub fn from_onnx(bytes: &[u8]) -> Result<Self, LearnError> {
        let (model, metadata) = onnx_model(bytes)?;
        let metadata: Vec<_> = metadata.into_iter().map(|(k, v)| (k, Some(v))).collect();
        Self::ready(&model, &metadata)
    }

    /// Loads tract's NNEF form of a model (`.nnef.tar`).
    pub fn from_nnef(bytes: &[u8]) -> Result<Self, LearnError> {
        let model = tract_nnef::nnef()
            .model_for_read(&mut &*bytes)
            .map_err(|e| LearnError::Model(format!("not a tract NNEF model: {e:#}")))?;
        let property = |key: &str| {
            model
                .properties
                .get(key)
                .and_then(|t| t.to_plain_array_view::<String>().ok()?.iter().next().cloned())
        };
        let metadata: Vec<_> = keys::ALL.iter().map(|k| ((*k).to_owned(), property(k))).collect();
        Self::ready(&model, &metadata)
    }

    /// Checks the metadata (key → value) and optimizes the model into a plan.
    fn ready(model: &TypedModel, metadata: &[(String, Option<String>)]) -> Result<Self, LearnError> {
        let get = |key: &str| {
            metadata
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| v.clone())
                .ok_or_else(|| missing(key))
        };
        let features = get(keys::FEATURES)?;
        let expected = feature_names().join(",");
        if features != expected {
            return Err(LearnError::Model(format!(
                "the model's features ({features}) are not this hwfit's ({expected}); retrain it with `hwfit train`"
            )));
        }
        let domain: LearnedDomain = serde_json::from_str(&get(keys::DOMAIN)?)
            .map_err(|e| LearnError::Model(format!("metadata '{}': {e}", keys::DOMAIN)))?;
        // Run in f64: tract's f32 kernels differ in the last bits between native (FMA, SIMD) and
        // wasm, and a correction rounded for printing must come out alike in every face.
        let plan = FloatPrecisionTranslator::new(f32::datum_type(), f64::datum_type())
            .translate_model(model)
            .and_then(TypedModel::into_optimized)
            .and_then(IntoRunnable::into_runnable)
            .map_err(|e| LearnError::Model(format!("tract cannot run the model: {e:#}")))?;
        Ok(Self {
            plan,
            domain,
            description: get(keys::TRAINED_ON)?,
        })
    }

    /// The default trained model: ONNX where tract-onnx is built in, else its NNEF form.
    pub fn default_model() -> Result<Self, LearnError> {
        #[cfg(feature = "onnx")]
        return Self::from_onnx(DEFAULT_MODEL);
        #[cfg(not(feature = "onnx"))]
        Self::from_nnef(DEFAULT_MODEL_NNEF)
    }

    /// Where the model is used.
    #[must_use]
    pub fn domain(&self) -> &LearnedDomain {
        &self.domain
    }

    /// Whether a step, named as strings (`cuda`, `generate`), is inside the domain: the npm
    /// package's questions module asks this across the module boundary.
    #[must_use]
    pub fn admits_named(&self, hardware: &str, class: &str, features: &[f32]) -> bool {
        let class = match class {
            "generate" => WorkloadClass::Generate,
            "forward" => WorkloadClass::Forward,
            _ => return false,
        };
        hardware
            .parse::<HardwareType>()
            .is_ok_and(|hw| self.domain.admits(hw, class, features).is_ok())
    }

    /// The training domain as JSON (the model's `hwfit.domain` metadata).
    pub fn domain_json(&self) -> Result<String, LearnError> {
        serde_json::to_string(&self.domain).map_err(|e| LearnError::Model(e.to_string()))
    }

    /// What the model was trained on and how (the `hwfit.trained_on` metadata).
    #[must_use]
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Runs the model on one feature vector.
    pub fn evaluate(&self, features: &[f32]) -> Result<f64, LearnError> {
        if features.len() != FEATURE_COUNT {
            return Err(LearnError::Model(format!(
                "{} features given, the model takes {FEATURE_COUNT}",
                features.len()
            )));
        }
        let input = tract_ndarray::Array2::from_shape_vec(
            (1, FEATURE_COUNT),
            features.iter().copied().map(f64::from).collect(),
        )
        .map_err(|e| LearnError::Model(e.to_string()))?;
        let outputs = self
            .plan
            .run(tvec!(Tensor::from(input).into()))
            .map_err(|e| LearnError::Model(format!("tract: {e:#}")))?;
        let first = outputs
            .first()
            .ok_or_else(|| LearnError::Model(String::from("the model has no output")))?;
        let view = first
            .to_plain_array_view::<f64>()
            .map_err(|e| LearnError::Model(format!("tract: {e:#}")))?;
        view.iter()
            .next()
            .copied()
            .ok_or_else(|| LearnError::Model(String::from("the model returned nothing")))
    }
}

/// An ONNX model as tract's typed model for one feature vector, and its metadata.
#[cfg(feature = "onnx")]
fn onnx_model(bytes: &[u8]) -> Result<(TypedModel, Vec<(String, String)>), LearnError> {
    use tract_onnx::prelude::{Framework as _, InferenceFact, InferenceModelExt};
    let onnx = tract_onnx::onnx();
    let proto = onnx
        .proto_model_for_read(&mut &*bytes)
        .map_err(|e| LearnError::Model(format!("not an ONNX model: {e}")))?;
    let metadata = proto
        .metadata_props
        .iter()
        .map(|p| (p.key.clone(), p.value.clone()))
        .collect();
    let model = onnx
        .model_for_proto_model(&proto)
        .and_then(|m| m.with_input_fact(0, InferenceFact::dt_shape(f32::datum_type(), [1, FEATURE_COUNT])))
        .and_then(InferenceModelExt::into_typed)
        .and_then(TypedModel::into_decluttered)
        .map_err(|e| LearnError::Model(format!("tract cannot read the model: {e:#}")))?;
    Ok((model, metadata))
}

/// Converts an ONNX model `hwfit train` wrote to tract's NNEF form (a deterministic tar), the
/// metadata carried over as graph properties: what the npm package's `learn/` module reads.
#[cfg(feature = "onnx")]
pub fn onnx_to_nnef(onnx: &[u8]) -> Result<Vec<u8>, LearnError> {
    let (mut model, metadata) = onnx_model(onnx)?;
    for key in keys::ALL {
        let value = metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| missing(key))?;
        model.properties.insert(key.to_owned(), rctensor0(value));
    }
    tract_nnef::nnef()
        .write_to_tar_with_config(&model, Vec::new(), false, true)
        .map_err(|e| LearnError::Model(format!("writing NNEF: {e:#}")))
}

impl ResidualModel for TractPredictor {
    fn log_correction(&self, features: &[f32]) -> Result<f64, String> {
        self.evaluate(features).map_err(|e| e.to_string())
    }

    fn admits(&self, hardware: HardwareType, class: WorkloadClass, features: &[f32]) -> bool {
        self.domain.admits(hardware, class, features).is_ok()
    }

    fn describe(&self) -> &str {
        &self.description
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two committed forms of the default model are one model: the NNEF archive is the
    /// conversion of the ONNX file, byte for byte, and both compute the same.
    #[cfg(feature = "onnx")]
    #[test]
    fn the_nnef_form_is_the_onnx_model_converted() {
        assert!(
            onnx_to_nnef(DEFAULT_MODEL).unwrap() == DEFAULT_MODEL_NNEF,
            "data/default.nnef.tar is stale: regenerate with scripts/train-default"
        );
        let (onnx, nnef) = (
            TractPredictor::from_onnx(DEFAULT_MODEL).unwrap(),
            TractPredictor::from_nnef(DEFAULT_MODEL_NNEF).unwrap(),
        );
        assert_eq!(onnx.domain, nnef.domain);
        assert_eq!(onnx.description, nnef.description);
        for case in crate::reference::cases().unwrap() {
            let (a, b) = (
                onnx.evaluate(&case.features).unwrap(),
                nnef.evaluate(&case.features).unwrap(),
            );
            assert!((a - b).abs() <= 1e-12, "onnx {a} vs nnef {b}");
        }
    }

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
