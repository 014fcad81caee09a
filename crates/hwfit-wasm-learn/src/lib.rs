//! hwfit's learned-predictor module for the web (`learn/hwfit_learn_bg.wasm` in the npm package,
//! loaded by `loadPredictor()` — or by the first `predict`/`select` that names hardware — so pages
//! that never ask about other devices never download tract): the trained model of the analytic
//! model's error (`hwfit-learn`'s default, or a user's `.nnef.tar` from `hwfit train --output`) in
//! tract's NNEF form, run by tract-nnef — tract-onnx does not fit the module's 1.5 MB gzip budget;
//! `hwfit train` converts its ONNX with tract and a test checks the two forms agree. Nothing here
//! panics across the boundary.

pub use hwfit_learn::{reference, TractPredictor};
use wasm_bindgen::prelude::*;

/// Loads a trained model: `bytes` (a `.nnef.tar` from `hwfit train --output`) or the default one.
pub fn load(bytes: Option<&[u8]>) -> Result<TractPredictor, String> {
    match bytes {
        Some(b) => TractPredictor::from_bytes(b),
        None => TractPredictor::default_model(),
    }
    .map_err(|e| e.to_string())
}

/// A loaded learned model, for the questions' module.
#[wasm_bindgen]
pub struct LearnedPredictor {
    inner: TractPredictor,
}

#[wasm_bindgen]
impl LearnedPredictor {
    /// ln(measured / analytic throughput) for one feature vector (the core's feature order).
    pub fn evaluate(&self, features: &[f32]) -> Result<f64, JsError> {
        self.inner.evaluate(features).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Whether a step (hardware type and workload class as written: `cuda`, `generate`) with these
    /// features is inside the model's training domain.
    #[must_use]
    pub fn admits(&self, hardware: &str, class: &str, features: &[f32]) -> bool {
        self.inner.admits_named(hardware, class, features)
    }

    /// Where the model may be used (the core's `LearnedDomain` as JSON).
    #[wasm_bindgen(getter)]
    pub fn domain(&self) -> Result<String, JsError> {
        self.inner.domain_json().map_err(|e| JsError::new(&e.to_string()))
    }

    /// What the model was trained on and how.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn description(&self) -> String {
        self.inner.description().to_owned()
    }
}

/// `loadModel(bytes?)` (the questions' module's `loadPredictor` calls it): loads the default trained model, or the one in `bytes` (a `Uint8Array` of the `.nnef.tar`
/// `hwfit train --output FILE.onnx` writes beside FILE.onnx).
#[wasm_bindgen(js_name = loadModel)]
pub fn load_model(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | undefined")] bytes: &JsValue,
) -> Result<LearnedPredictor, JsError> {
    console_error_panic_hook::set_once();
    let bytes = if bytes.is_undefined() || bytes.is_null() {
        None
    } else if let Some(array) = bytes.dyn_ref::<js_sys::Uint8Array>() {
        Some(array.to_vec())
    } else if let Some(buffer) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
        Some(js_sys::Uint8Array::new(buffer).to_vec())
    } else {
        return Err(JsError::new(
            "loadPredictor: the model must be a Uint8Array or an ArrayBuffer",
        ));
    };
    load(bytes.as_deref())
        .map(|inner| LearnedPredictor { inner })
        .map_err(|e| JsError::new(&format!("loadPredictor: {e}")))
}
