//! The core's questions for JS, one export each (named as the core's list names them, in camelCase),
//! with the core's request and answer types (camelCase field names in this build). Every export is
//! one line: [`answer_here`] for the questions that may run on local devices (asynchronous: they
//! may probe), [`answer_now`] for the others. With no hardware named they run on the probed
//! browser's devices, as the CLI and the server run on the detected ones.

use std::cell::RefCell;
use std::rc::Rc;

use hwfit_core::api::{
    AnalyzeRequest, BatchSelectRequest, ClassifyModelRequest, CompatibilityRequest, CompatibleRequest, DevicesRequest,
    DistributedPlanRequest, MapRequest, MatrixRequest, ModelRequest, ModelsRequest, PredictRequest, Question,
    QuestionInfo, RecommendRequest, ResourcePoolRequest, ResourcesRequest, SelectRequest, TemplateRequest,
};
use hwfit_core::browser::{browser_candidates, calibrated_candidates, BrowserCapabilities};
use hwfit_core::{Candidate, CoreError, Hwfit, SelectionConfig};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use hwfit_js::{core_error, from_js, to_js, BenchmarkReport};

type JsResult = Result<JsValue, JsValue>;

thread_local! {
    /// hwfit's knowledge, parsed on first use (catalogs, classifier, fitted model, selection config).
    static HWFIT: RefCell<Option<Rc<Hwfit>>> = const { RefCell::new(None) };
    /// The latest `probe()`'s capabilities and the candidates they give.
    static LOCAL: RefCell<Option<(BrowserCapabilities, Rc<Vec<Candidate>>)>> = const { RefCell::new(None) };
    /// Whether the device database was loaded, or why it could not be.
    static DATABASE: RefCell<Option<Result<(), String>>> = const { RefCell::new(None) };
    /// The detection report `configure({detection})` gave: questions naming no hardware run on its
    /// devices instead of this browser's.
    static DETECTION: RefCell<Option<Rc<hwfit_core::detect::DetectionReport>>> = const { RefCell::new(None) };
    /// The benchmark `{calibrate: true}` ran (once per page).
    static CALIBRATION: RefCell<Option<Rc<BenchmarkReport>>> = const { RefCell::new(None) };
}

/// Options of `predict`, `select`, `batchSelect` and `analyze` (the CLI's `--calibrate`).
#[derive(Deserialize, Default)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct AnswerOptions {
    /// A `benchmark()` report: this browser's devices are predicted on its measured rates.
    calibration: Option<BenchmarkReport>,
    /// Run `benchmark()` first (once per page; later calls reuse it) and predict on its rates.
    calibrate: bool,
}

/// The benchmark of `{calibrate: true}`: run once, then reused.
async fn page_calibration() -> Result<Rc<BenchmarkReport>, JsValue> {
    if let Some(report) = CALIBRATION.with_borrow(Clone::clone) {
        return Ok(report);
    }
    let report = Rc::new(crate::bench::run(JsValue::UNDEFINED).await?);
    CALIBRATION.with_borrow_mut(|slot| *slot = Some(Rc::clone(&report)));
    Ok(report)
}

/// This browser's candidates, on measured rates when the options ask for it.
async fn local_for(options: &AnswerOptions) -> Result<Rc<Vec<Candidate>>, JsValue> {
    let found = local().await?;
    let report = match (&options.calibration, options.calibrate) {
        (Some(report), _) => Rc::new(report.clone()),
        (None, true) => page_calibration().await?,
        (None, false) => return Ok(found),
    };
    let caps = LOCAL.with_borrow(|slot| slot.as_ref().map(|(caps, _)| caps.clone()));
    let caps = caps.ok_or_else(|| JsValue::from(js_sys::Error::new("probe() found no devices")))?;
    Ok(Rc::new(calibrated_candidates(
        &caps,
        hwfit()?.devices_catalog(),
        report.gpu.as_ref(),
        report.cpu.as_ref(),
    )))
}

#[wasm_bindgen(inline_js = "export function importDeviceDatabase() {
  return import(new URL('../../devices.js', import.meta.url).href).then((m) => m.default);
}")]
extern "C" {
    /// The package's `devices.js` (the device database's text), imported on first use. The snippet
    /// lives in `snippets/<crate>-<hash>/`, two levels below the package root.
    #[wasm_bindgen(catch, js_name = importDeviceDatabase)]
    fn import_device_database() -> Result<js_sys::Promise, JsValue>;
}

/// The cached knowledge, built on first use.
fn hwfit() -> Result<Rc<Hwfit>, JsValue> {
    if let Some(h) = HWFIT.with_borrow(Clone::clone) {
        return Ok(h);
    }
    let h = Rc::new(Hwfit::builtin().map_err(|e| core_error(&e))?);
    HWFIT.with_borrow_mut(|slot| *slot = Some(Rc::clone(&h)));
    Ok(h)
}

/// Replaces the knowledge every later question uses with `change(current)`.
pub(crate) fn update(change: impl FnOnce(Hwfit) -> Hwfit) -> Result<(), JsValue> {
    let knowledge = change(Hwfit::clone(&*hwfit()?));
    HWFIT.with_borrow_mut(|slot| *slot = Some(Rc::new(knowledge)));
    Ok(())
}

/// Finds this browser's candidates on `caps` again (the knowledge changed) and remembers them.
fn remember(caps: BrowserCapabilities) -> Result<(), JsValue> {
    let found = browser_candidates(&caps, hwfit()?.devices_catalog());
    keep(caps, found);
    Ok(())
}

/// Remembers this browser's capabilities and the candidates found on them.
fn keep(caps: BrowserCapabilities, found: Vec<Candidate>) {
    LOCAL.with_borrow_mut(|slot| *slot = Some((caps, Rc::new(found))));
}

/// Probes, identifying the GPU against the device database (loaded once, while the browser answers
/// the probe's calls).
pub(crate) async fn probe_here() -> Result<crate::probe::CapabilityReport, JsValue> {
    let probing = crate::probe::start_probe();
    let loaded = ensure_database().await;
    let (mut report, candidates) = crate::probe::finish_probe(probing, hwfit()?.devices_catalog()).await;
    if let Err(why) = loaded {
        report.gpu.evidence.push(format!(
            "device database not loaded ({why}): only the curated devices were searched"
        ));
    }
    keep(report.capabilities.clone(), candidates);
    Ok(report)
}

/// The browser's candidates: the latest probe's, probing once if nothing has probed yet.
async fn local() -> Result<Rc<Vec<Candidate>>, JsValue> {
    if let Some((_, found)) = LOCAL.with_borrow(Clone::clone) {
        return Ok(found);
    }
    probe_here().await?;
    LOCAL
        .with_borrow(Clone::clone)
        .map(|(_, found)| found)
        .ok_or_else(|| JsValue::from(js_sys::Error::new("probe() found no devices")))
}

/// Adds the device database (the text of `device_db.csv`) to the knowledge, and re-identifies the
/// probed GPU against it.
fn add_database(text: &str) -> Result<usize, JsValue> {
    let knowledge = Hwfit::clone(&*hwfit()?)
        .with_device_database(text)
        .map_err(|e| core_error(&e))?;
    let count = knowledge.devices_catalog().devices().len();
    update(|_| knowledge)?;
    DATABASE.with_borrow_mut(|slot| *slot = Some(Ok(())));
    if let Some((caps, _)) = LOCAL.with_borrow(Clone::clone) {
        remember(caps)?;
    }
    Ok(count)
}

/// The database's text from the package's `devices.js`.
async fn import_database_text() -> Result<String, String> {
    let promise = import_device_database().map_err(|e| js_message(&e))?;
    let text = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| js_message(&e))?;
    text.as_string()
        .ok_or_else(|| String::from("devices.js did not export the database's text"))
}

/// An exception's message.
pub(crate) fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}

/// Loads the device database once, on first use; remembers why when it cannot.
async fn ensure_database() -> Result<(), String> {
    if let Some(done) = DATABASE.with_borrow(Clone::clone) {
        return done;
    }
    let outcome = match import_database_text().await {
        Ok(text) => add_database(&text).map(|_| ()).map_err(|e| js_message(&e)),
        Err(why) => Err(why),
    };
    if let Err(why) = &outcome {
        DATABASE.with_borrow_mut(|slot| *slot = Some(Err(why.clone())));
    }
    outcome
}

/// Loads the device database (~2,000 GPUs and SoCs): from `text` (the package's `devices.js`
/// default export, or a `device_db.csv` of your own), or by importing the package's `devices.js`.
/// `probe()`, `predict()`, `select()`, `batchSelect()` and `analyze()` load it themselves on first
/// use; the synchronous questions see it once loaded. Returns the number of devices known.
#[wasm_bindgen(js_name = loadDeviceDatabase)]
pub async fn load_device_database(
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] text: JsValue,
) -> Result<u32, JsValue> {
    let text = match text.as_string() {
        Some(t) => t,
        None if text.is_undefined() || text.is_null() => import_database_text()
            .await
            .map_err(|why| js_sys::Error::new(&format!("loadDeviceDatabase: {why}")))?,
        None => return Err(js_sys::TypeError::new("loadDeviceDatabase: the text must be a string").into()),
    };
    let count = add_database(&text)?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

/// Asks the core one question from JS: the request read from a JS object, the answer written as
/// one (or the core's error thrown). A question that may run on local devices and names none runs
/// on this browser's devices (probed once), or on the detection report `configure()` was given.
async fn answer_here<Q: Question>(request: JsValue, options: JsValue) -> JsResult {
    let what = QuestionInfo::of::<Q>().js;
    let request: Q = from_js(request, &what)?;
    let options: AnswerOptions = from_js(or_empty(options), &what)?;
    let local = prepare(&request, &options).await?;
    let h = hwfit()?;
    reply(h.ask(&request, &local))
}

/// Asks the core a question that never runs on local devices: synchronously.
fn answer_now<Q: Question>(request: JsValue) -> JsResult {
    let request: Q = from_js(request, &QuestionInfo::of::<Q>().js)?;
    let h = hwfit()?;
    reply(h.ask(&request, &[]))
}

/// Loads what an asynchronous question needs, once: the device database, the learned predictor (for
/// requests that name hardware or devices; the browser's own devices are outside the default
/// model's domain) and the local candidates (for requests that name none).
async fn prepare(request: &impl Question, options: &AnswerOptions) -> Result<Rc<Vec<Candidate>>, JsValue> {
    // Without the database the curated devices still answer; `loadDeviceDatabase()` says why.
    let _ = ensure_database().await;
    if request.needs_local() {
        if let Some(report) = DETECTION.with_borrow(Clone::clone) {
            // A machine's detected devices, as the CLI and the server predict on them.
            crate::learn::ensure_predictor().await;
            let found = hwfit_core::detect::candidates(&report, hwfit()?.devices_catalog(), false);
            return Ok(Rc::new(found.candidates));
        }
        local_for(options).await
    } else {
        // Without the learn module the analytic model answers, and `source` says so.
        crate::learn::ensure_predictor().await;
        Ok(Rc::new(Vec::new()))
    }
}

/// The core's answer as a JS object, or its error as a JS error.
fn reply<T: Serialize>(answer: Result<T, CoreError>) -> JsResult {
    to_js(&answer.map_err(|e| core_error(&e))?)
}

/// Options of [`configure`]; a field left out keeps its setting.
#[derive(Deserialize, Default)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ConfigureOptions {
    /// IPFS Accelerate's selection config (snake_case keys inside, as in its JSON files); `null`
    /// restores the default.
    #[serde(deserialize_with = "setting")]
    #[cfg_attr(feature = "typegen", schemars(with = "Option<serde_json::Value>"))]
    selection_config: Setting,
    /// A detection report (`hwfit detect --json`, snake_case keys as printed): questions that name
    /// no hardware run on its devices instead of this browser's (the CLI's and the server's
    /// `--detection`); `null` returns to this browser's devices.
    #[serde(deserialize_with = "setting")]
    #[cfg_attr(feature = "typegen", schemars(with = "Option<serde_json::Value>"))]
    detection: Setting,
}

/// A `configure()` field: left out (keep the setting), `null` (back to the default) or a value.
#[derive(Default)]
enum Setting {
    #[default]
    Keep,
    Reset,
    Set(serde_json::Value),
}

fn setting<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Setting, D::Error> {
    Ok(Option::<serde_json::Value>::deserialize(d)?.map_or(Setting::Reset, Setting::Set))
}

/// Sets the selection config and the local devices every later question uses (the CLI's and the
/// server's `--config` and `--detection`).
#[wasm_bindgen]
pub fn configure(#[wasm_bindgen(unchecked_param_type = "ConfigureOptions")] options: JsValue) -> Result<(), JsValue> {
    let options: ConfigureOptions = from_js(options, "configure")?;
    match options.detection {
        Setting::Keep => {}
        Setting::Reset => DETECTION.with_borrow_mut(|slot| *slot = None),
        Setting::Set(value) => {
            let report: hwfit_core::detect::DetectionReport = serde_json::from_value(value).map_err(|e| {
                js_sys::TypeError::new(&format!("configure: detection is not a hwfit detection report: {e}"))
            })?;
            DETECTION.with_borrow_mut(|slot| *slot = Some(Rc::new(report)));
        }
    }
    let config = match options.selection_config {
        Setting::Keep => return Ok(()),
        Setting::Reset => SelectionConfig::default(),
        Setting::Set(value) => SelectionConfig::from_json(&value.to_string()).map_err(|e| core_error(&e))?,
    };
    update(|h| h.with_selection_config(config))
}

/// Classifies a model into a family and subfamily, with the analyses behind it.
#[wasm_bindgen(unchecked_return_type = "Classification")]
pub fn classify(#[wasm_bindgen(unchecked_param_type = "ClassifyModelRequest")] request: JsValue) -> JsResult {
    answer_now::<ClassifyModelRequest>(request)
}

/// A `config.json`'s text parsed as hwfit reads it everywhere: Python's `NaN`, `Infinity` and
/// `-Infinity` (which transformers writes, e.g. Nemotron-H's `time_step_limit`) outside strings read
/// as `null`; text that is no JSON throws an `Error`.
#[wasm_bindgen(js_name = parseConfig, unchecked_return_type = "Record<string, unknown>")]
pub fn parse_config(text: &str) -> JsResult {
    reply(hwfit_core::parse_config_text(text))
}

/// The model catalog, optionally one family's part.
#[wasm_bindgen(unchecked_return_type = "CatalogSummary[]")]
pub fn models(#[wasm_bindgen(unchecked_param_type = "ModelsRequest | undefined")] request: JsValue) -> JsResult {
    answer_now::<ModelsRequest>(or_empty(request))
}

/// One model's architecture and derived figures.
#[wasm_bindgen(unchecked_return_type = "ModelDetail")]
pub fn model(#[wasm_bindgen(unchecked_param_type = "ModelRequest")] request: JsValue) -> JsResult {
    answer_now::<ModelRequest>(request)
}

/// Memory, CPU cores and disk a model needs on a hardware type.
#[wasm_bindgen(unchecked_return_type = "ResourcesAnswer")]
pub fn resources(#[wasm_bindgen(unchecked_param_type = "ResourcesRequest")] request: JsValue) -> JsResult {
    answer_now::<ResourcesRequest>(request)
}

/// Which hardware types run which families and precisions.
#[wasm_bindgen(unchecked_return_type = "CompatibilityMatrix")]
pub fn compatibility(
    #[wasm_bindgen(unchecked_param_type = "CompatibilityRequest | undefined")] request: JsValue,
) -> JsResult {
    answer_now::<CompatibilityRequest>(or_empty(request))
}

/// Alias of `compatibility()` (its former name).
#[wasm_bindgen(unchecked_return_type = "CompatibilityMatrix")]
pub fn compat() -> JsResult {
    answer_now::<CompatibilityRequest>(or_empty(JsValue::UNDEFINED))
}

/// The device catalog, optionally one hardware type's part.
#[wasm_bindgen(unchecked_return_type = "Device[]")]
pub fn devices(#[wasm_bindgen(unchecked_param_type = "DevicesRequest | undefined")] request: JsValue) -> JsResult {
    answer_now::<DevicesRequest>(or_empty(request))
}

/// Predicts throughput, latency and memory on the targets named, or on this browser's devices.
#[wasm_bindgen(unchecked_return_type = "PredictAnswer")]
pub async fn predict(
    #[wasm_bindgen(unchecked_param_type = "PredictRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<PredictRequest>(request, options).await
}

/// Selects the hardware to run a model on, ranked by predicted performance.
#[wasm_bindgen(unchecked_return_type = "Selection")]
pub async fn select(
    #[wasm_bindgen(unchecked_param_type = "SelectRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<SelectRequest>(request, options).await
}

/// Selects hardware for several models.
#[wasm_bindgen(js_name = batchSelect, unchecked_return_type = "Record<string, BatchEntry>")]
pub async fn batch_select(
    #[wasm_bindgen(unchecked_param_type = "BatchSelectRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<BatchSelectRequest>(request, options).await
}

/// A model across hardware and batch sizes, for inference and training.
#[wasm_bindgen(unchecked_return_type = "ModelAnalysis")]
pub async fn analyze(
    #[wasm_bindgen(unchecked_param_type = "AnalyzeRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<AnalyzeRequest>(request, options).await
}

/// Predictions for models × hardware × batch sizes × precisions, on the targets named or on this
/// browser's devices.
#[wasm_bindgen(unchecked_return_type = "PredictionMatrix")]
pub async fn matrix(
    #[wasm_bindgen(unchecked_param_type = "MatrixRequest | undefined")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<MatrixRequest>(or_empty(request), options).await
}

/// `charts()`'s answer: the matrix and its five charts.
#[derive(Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChartsAnswer {
    /// The prediction matrix the charts draw.
    matrix: hwfit_core::plan::matrix::PredictionMatrix,
    /// Hardware comparison, batch-size scaling, efficiency, memory, precision impact.
    charts: Vec<hwfit_js::ChartSvg>,
}

/// The predictor guide's five charts (SVG, the same drawing as `hwfit matrix --visualize`) of the
/// matrix `matrix(request)` answers, with that matrix. The charts module (≈ 30 KB gzip) is imported
/// on the first call.
#[wasm_bindgen(unchecked_return_type = "ChartsAnswer")]
pub async fn charts(
    #[wasm_bindgen(unchecked_param_type = "MatrixRequest | undefined")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    let request: MatrixRequest = from_js(or_empty(request), "charts")?;
    let options: AnswerOptions = from_js(or_empty(options), "charts")?;
    let local = prepare(&request, &options).await?;
    let matrix = hwfit()?.ask(&request, &local).map_err(|e| core_error(&e))?;
    let charts = draw(&matrix).await?;
    to_js(&ChartsAnswer { matrix, charts })
}

/// The charts module's drawing of `matrix`.
#[cfg(not(feature = "linked-modules"))]
async fn draw(matrix: &hwfit_core::plan::matrix::PredictionMatrix) -> Result<Vec<hwfit_js::ChartSvg>, JsValue> {
    let drawn = crate::modules::call_module("charts", "drawCharts", to_js(matrix)?).await?;
    from_js(drawn, "charts")
}

/// The charts, linked in.
#[cfg(feature = "linked-modules")]
#[allow(clippy::unused_async)]
async fn draw(matrix: &hwfit_core::plan::matrix::PredictionMatrix) -> Result<Vec<hwfit_js::ChartSvg>, JsValue> {
    Ok(hwfit_wasm_charts::draw(matrix))
}

/// The selection map: families × size categories × batch sizes × modes, on the targets named or
/// on this browser's devices.
#[wasm_bindgen(unchecked_return_type = "SelectionMap")]
pub async fn map(
    #[wasm_bindgen(unchecked_param_type = "MapRequest | undefined")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<MapRequest>(or_empty(request), options).await
}

/// Plans distributed training.
#[wasm_bindgen(unchecked_return_type = "DistributedConfig")]
pub fn distributed(#[wasm_bindgen(unchecked_param_type = "DistributedPlanRequest")] request: JsValue) -> JsResult {
    answer_now::<DistributedPlanRequest>(request)
}

/// A resource-pool configuration for several models, on the targets named or on this browser's
/// devices.
#[wasm_bindgen(js_name = resourcePool, unchecked_return_type = "ResourcePoolConfig")]
pub async fn resource_pool(
    #[wasm_bindgen(unchecked_param_type = "ResourcePoolRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<ResourcePoolRequest>(request, options).await
}

/// Catalog models for a task that run on the hardware allowed, or on this browser's devices.
#[wasm_bindgen(unchecked_return_type = "TaskRecommendations")]
pub async fn recommend(
    #[wasm_bindgen(unchecked_param_type = "RecommendRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<RecommendRequest>(request, options).await
}

/// Which of the given models run on one hardware type or device.
#[wasm_bindgen(js_name = compatibleModels, unchecked_return_type = "CompatibleModels")]
pub fn compatible_models(#[wasm_bindgen(unchecked_param_type = "CompatibleRequest")] request: JsValue) -> JsResult {
    answer_now::<CompatibleRequest>(request)
}

/// Alias of `compatibleModels()` (its former name).
#[wasm_bindgen(unchecked_return_type = "CompatibleModels")]
pub fn compatible(#[wasm_bindgen(unchecked_param_type = "CompatibleRequest")] request: JsValue) -> JsResult {
    answer_now::<CompatibleRequest>(request)
}

/// The starter-file decision: template, device, precision and their reasons, on the targets named
/// or on this browser's devices.
#[wasm_bindgen(unchecked_return_type = "TemplateDecision")]
pub async fn template(
    #[wasm_bindgen(unchecked_param_type = "TemplateRequest")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerOptions | undefined")] options: JsValue,
) -> JsResult {
    answer_here::<TemplateRequest>(request, options).await
}

/// `undefined`/`null` as an empty request object (every field defaulted).
fn or_empty(request: JsValue) -> JsValue {
    if request.is_undefined() || request.is_null() {
        js_sys::Object::new().into()
    } else {
        request
    }
}
