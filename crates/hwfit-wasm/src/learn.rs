//! The learned predictor in the browser: the package's `learn/` module (crate `hwfit-wasm-learn`:
//! tract-nnef and the trained model of the analytic model's error), imported on first use — by
//! `loadPredictor()`, or by the first `predict`/`select`/`batchSelect`/`analyze`/`matrix`/`charts`
//! that names hardware or devices. Once loaded, predictions call it synchronously through the core's
//! `ResidualModel`, exactly as the CLI calls tract natively.

use std::cell::RefCell;
use std::sync::Arc;

use hwfit_core::perf::learned::feature_names;
use hwfit_core::perf::ResidualModel;
#[cfg(not(feature = "linked-modules"))]
use hwfit_core::{perf::WorkloadClass, HardwareType};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use hwfit_js::{to_js, type_error};

thread_local! {
    /// Whether a learned model was loaded (or unloaded), or why it could not be; `None`: not tried.
    static STATE: RefCell<Option<Result<Loaded, String>>> = const { RefCell::new(None) };
}

/// A loaded model: the core's handle, and what `loadPredictor()` reports of it.
#[derive(Clone)]
struct Loaded {
    model: Arc<dyn ResidualModel>,
    /// The domain as the model's metadata writes it (JSON): passed through, not parsed here, so
    /// this module carries no code for it.
    domain: String,
}

/// `loadPredictor()`'s answer: what was loaded.
#[derive(Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct PredictorInfo {
    /// What the model was trained on and how (its `hwfit.trained_on` metadata).
    description: String,
    /// Where it is used: hardware type × workload class cells and the trained feature ranges.
    #[cfg_attr(feature = "typegen", schemars(with = "hwfit_core::perf::learned::LearnedDomain"))]
    domain: serde_json::Value,
    /// Its input features, in order.
    features: Vec<String>,
}

/// The learn module's model behind the core's trait: the JS object lives in a thread-local (the
/// browser's main thread), so this handle is plain data. The domain check runs in the learn module.
#[cfg(not(feature = "linked-modules"))]
#[derive(Debug)]
struct ModulePredictor {
    description: String,
}

#[cfg(not(feature = "linked-modules"))]
thread_local! {
    /// The learn module's `LearnedPredictor` object.
    static MODEL: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// Calls `model[name](...args)` on the learn module's object.
#[cfg(not(feature = "linked-modules"))]
fn call(name: &str, args: &js_sys::Array) -> Result<JsValue, String> {
    MODEL.with_borrow(|model| {
        let model = model.as_ref().ok_or("the learned model is not loaded")?;
        let method = js_sys::Reflect::get(model, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .ok_or_else(|| format!("the learn module's model has no {name}()"))?;
        method.apply(model, args).map_err(|e| crate::api::js_message(&e))
    })
}

#[cfg(not(feature = "linked-modules"))]
impl ResidualModel for ModulePredictor {
    fn log_correction(&self, features: &[f32]) -> Result<f64, String> {
        let input = js_sys::Float32Array::from(features);
        call("evaluate", &js_sys::Array::of1(&input))?
            .as_f64()
            .ok_or_else(|| String::from("evaluate() returned no number"))
    }

    fn admits(&self, hardware: HardwareType, class: WorkloadClass, features: &[f32]) -> bool {
        let args = js_sys::Array::of3(
            &JsValue::from_str(hardware.as_str()),
            &JsValue::from_str(class.as_str()),
            &js_sys::Float32Array::from(features),
        );
        call("admits", &args).is_ok_and(|v| v.is_truthy())
    }

    fn describe(&self) -> &str {
        &self.description
    }
}

/// Loads a model through the learn module: its default, or `bytes`.
#[cfg(not(feature = "linked-modules"))]
async fn load(bytes: JsValue) -> Result<Loaded, String> {
    let model = crate::modules::call_module("learn", "loadModel", bytes)
        .await
        .map_err(|e| crate::api::js_message(&e))?;
    let text = |name: &str| {
        js_sys::Reflect::get(&model, &JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
            .ok_or_else(|| format!("the learn module's model has no {name}"))
    };
    let (domain, description) = (text("domain")?, text("description")?);
    MODEL.with_borrow_mut(|slot| *slot = Some(model));
    Ok(Loaded {
        model: Arc::new(ModulePredictor { description }),
        domain,
    })
}

/// Loads a model with the learn module linked in (the browser tests).
#[cfg(feature = "linked-modules")]
#[allow(clippy::unused_async)]
async fn load(bytes: JsValue) -> Result<Loaded, String> {
    let bytes = if bytes.is_undefined() || bytes.is_null() {
        None
    } else {
        Some(js_sys::Uint8Array::new(&bytes).to_vec())
    };
    let model = hwfit_wasm_learn::load(bytes.as_deref())?;
    let domain = model.domain_json().map_err(|e| e.to_string())?;
    Ok(Loaded {
        model: Arc::new(model),
        domain,
    })
}

/// Installs (or removes) the learned model in the knowledge every question uses.
fn install(outcome: Result<Option<Loaded>, String>) -> Result<Option<Loaded>, String> {
    if let Ok(loaded) = &outcome {
        let model = loaded.as_ref().map(|l| Arc::clone(&l.model));
        crate::api::update(|h| h.with_learned(model)).map_err(|e| crate::api::js_message(&e))?;
    }
    STATE.with_borrow_mut(|slot| {
        *slot = Some(match &outcome {
            Ok(Some(loaded)) => Ok(loaded.clone()),
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
    let failed = |why: &str| JsValue::from(js_sys::Error::new(&format!("loadPredictor: {why}")));
    let loaded = install(load(bytes).await.map(Some))
        .map_err(|why| failed(&why))?
        .ok_or_else(|| failed("nothing loaded"))?;
    to_js(&PredictorInfo {
        description: loaded.model.describe().to_owned(),
        domain: serde_json::from_str(&loaded.domain).map_err(|e| failed(&e.to_string()))?,
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
