//! The learned predictor in the browser: the package's `learn/` module (crate `hwfit-wasm-learn`:
//! tract-nnef and the trained model of the analytic model's error), imported on first use — by
//! `loadPredictor()`, or by the first `predict`/`select`/`batchSelect`/`analyze`/`matrix`/`charts`
//! that names hardware or devices. Once loaded, predictions call it synchronously through the core's
//! `ResidualModel`, exactly as the CLI calls tract natively.

use std::cell::RefCell;
use std::sync::Arc;

use hwfit_core::perf::learned::{feature_names, LearnedDomain};
use hwfit_core::perf::ResidualModel;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use hwfit_js::{to_js, type_error};

thread_local! {
    /// Whether a learned model was loaded (or unloaded), or why it could not be; `None`: not tried.
    static STATE: RefCell<Option<Result<Arc<dyn ResidualModel>, String>>> = const { RefCell::new(None) };
}

/// `loadPredictor()`'s answer: what was loaded.
#[derive(Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct PredictorInfo {
    /// What the model was trained on and how (its `hwfit.trained_on` metadata).
    description: String,
    /// Where it is used: hardware type × workload class cells and the trained feature ranges.
    domain: LearnedDomain,
    /// Its input features, in order.
    features: Vec<String>,
}

/// The learn module's model behind the core's trait: the JS object lives in a thread-local (the
/// browser's main thread), so this handle is plain data.
#[cfg(not(feature = "linked-modules"))]
#[derive(Debug)]
struct ModulePredictor {
    domain: LearnedDomain,
    description: String,
}

#[cfg(not(feature = "linked-modules"))]
thread_local! {
    /// The learn module's `LearnedPredictor` object.
    static MODEL: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

#[cfg(not(feature = "linked-modules"))]
impl ResidualModel for ModulePredictor {
    fn log_correction(&self, features: &[f32]) -> Result<f64, String> {
        MODEL.with_borrow(|model| {
            let model = model.as_ref().ok_or("the learned model is not loaded")?;
            let evaluate = js_sys::Reflect::get(model, &JsValue::from_str("evaluate"))
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .ok_or("the learn module's model has no evaluate()")?;
            let input = js_sys::Float32Array::from(features);
            let out = evaluate.call1(model, &input).map_err(|e| crate::api::js_message(&e))?;
            out.as_f64()
                .ok_or_else(|| String::from("evaluate() returned no number"))
        })
    }

    fn domain(&self) -> &LearnedDomain {
        &self.domain
    }

    fn describe(&self) -> &str {
        &self.description
    }
}

/// Loads a model through the learn module: its default, or `bytes`.
#[cfg(not(feature = "linked-modules"))]
async fn load(bytes: JsValue) -> Result<Arc<dyn ResidualModel>, String> {
    let model = crate::modules::call_module("learn", "loadModel", bytes)
        .await
        .map_err(|e| crate::api::js_message(&e))?;
    let text = |name: &str| {
        js_sys::Reflect::get(&model, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
            .ok_or_else(|| format!("the learn module's model has no {name}"))
    };
    let domain: LearnedDomain =
        serde_json::from_str(&text("domain")?).map_err(|e| format!("the model's domain: {e}"))?;
    let description = text("description")?;
    MODEL.with_borrow_mut(|slot| *slot = Some(model));
    Ok(Arc::new(ModulePredictor { domain, description }))
}

/// Loads a model with the learn module linked in (the browser tests).
#[cfg(feature = "linked-modules")]
#[allow(clippy::unused_async)]
async fn load(bytes: JsValue) -> Result<Arc<dyn ResidualModel>, String> {
    let bytes = if bytes.is_undefined() || bytes.is_null() {
        None
    } else {
        Some(js_sys::Uint8Array::new(&bytes).to_vec())
    };
    Ok(Arc::new(hwfit_wasm_learn::load(bytes.as_deref())?))
}

/// Installs (or removes) the learned model in the knowledge every question uses.
fn install(outcome: Result<Option<Arc<dyn ResidualModel>>, String>) -> Result<Option<Arc<dyn ResidualModel>>, String> {
    if let Ok(learned) = &outcome {
        crate::api::update(|h| h.with_learned(learned.clone())).map_err(|e| crate::api::js_message(&e))?;
    }
    STATE.with_borrow_mut(|slot| {
        *slot = Some(match &outcome {
            Ok(Some(model)) => Ok(Arc::clone(model)),
            Ok(None) => Err(String::from("unloaded by unloadPredictor()")),
            Err(why) => Err(why.clone()),
        });
    });
    outcome
}

/// Loads the default learned model once, on first use; remembers why when it cannot (the analytic
/// model then answers, and every prediction says so in `source`).
pub(crate) async fn ensure_predictor() {
    if STATE.with_borrow(Option::is_some) {
        return;
    }
    let _ = install(load(JsValue::UNDEFINED).await.map(Some));
}

/// Loads the learned predictor — the package's default model, or `bytes` (a `Uint8Array` or
/// `ArrayBuffer` of the `FILE.nnef.tar` that `hwfit train --output FILE.onnx` writes beside the ONNX
/// file the CLI's `--predictor` reads) — from the package's `learn/` module (tract-nnef, ≈ 1.4 MB
/// gzip, imported on the first call). Later predictions
/// use it inside its training domain (`source: "learned"`), the analytic model elsewhere.
/// `predict`, `select`, `batchSelect`, `analyze`, `matrix` and `charts` load the default themselves
/// when a request names hardware or devices; the synchronous questions see it once loaded.
#[wasm_bindgen(js_name = loadPredictor, unchecked_return_type = "PredictorInfo")]
pub async fn load_predictor(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | undefined")] bytes: JsValue,
) -> Result<JsValue, JsValue> {
    let bytes = if bytes.is_undefined() || bytes.is_null() {
        JsValue::UNDEFINED
    } else if let Some(buffer) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
        js_sys::Uint8Array::new(buffer).into()
    } else if bytes.is_instance_of::<js_sys::Uint8Array>() {
        bytes
    } else {
        return Err(type_error(
            "loadPredictor: the model must be a Uint8Array or an ArrayBuffer",
        ));
    };
    let model = install(load(bytes).await.map(Some))
        .map_err(|why| JsValue::from(js_sys::Error::new(&format!("loadPredictor: {why}"))))?
        .ok_or_else(|| JsValue::from(js_sys::Error::new("loadPredictor: nothing loaded")))?;
    to_js(&PredictorInfo {
        description: model.describe().to_owned(),
        domain: model.domain().clone(),
        features: feature_names(),
    })
}

/// Removes the learned predictor: predictions come from the analytic model (the CLI's
/// `--predictor none`) until `loadPredictor()` is called again.
#[wasm_bindgen(js_name = unloadPredictor)]
pub fn unload_predictor() -> Result<(), JsValue> {
    install(Ok(None))
        .map(|_| ())
        .map_err(|why| js_sys::Error::new(&why).into())
}
