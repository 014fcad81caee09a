//! The CLI's questions for JS: `classify`, `resources`, `predict`, `select`, `matrix`, `devices`,
//! `models`. Plain camelCase objects in and out; `predict`/`select` use the probe's hardware when the
//! caller names none.

use std::collections::BTreeMap;

use hwfit_core::browser::browser_candidates;
use hwfit_core::plan::matrix::prediction_matrix;
use hwfit_core::{
    candidates_from, estimate_resources, select_hardware, Candidate, Catalog, Classifier, ClassifyRequest,
    DeviceCatalog, HardwareType, Mode, PerfModel, PerfRequest, Precision, ResourceRequest, SelectionConfig,
    SelectionRequest, TaskType, Workload,
};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::convert::{core_error, from_js, to_js};

type JsResult = Result<JsValue, JsValue>;

const DEFAULT_SEQ_LENGTH: u32 = 128;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClassifyInput {
    model_name: String,
    #[serde(default)]
    model_class: Option<String>,
    #[serde(default)]
    tasks: Vec<String>,
    #[serde(default)]
    methods: Vec<String>,
}

/// Classifies a model: `{modelName, modelClass?, tasks?, methods?}` → the classification.
#[wasm_bindgen(unchecked_return_type = "Classification")]
pub fn classify(#[wasm_bindgen(unchecked_param_type = "ClassifyInput")] input: JsValue) -> JsResult {
    let input: ClassifyInput = from_js(input, "classify")?;
    let request = ClassifyRequest {
        model_name: input.model_name,
        model_class: input.model_class,
        tasks: input.tasks,
        methods: input.methods,
        hw_compatibility: None,
    };
    to_js(&Classifier::builtin().classify(&request))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourcesInput {
    model: String,
    hardware: HardwareType,
    #[serde(default)]
    precision: Option<Precision>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    batch_size: Option<u32>,
    #[serde(default)]
    seq_length: Option<u32>,
}

fn resolve(model: &str) -> Result<hwfit_core::ResolvedModel, JsValue> {
    Catalog::builtin().resolve(model).map_err(|e| core_error(&e))
}

/// Resources a model needs on a hardware type.
#[wasm_bindgen(unchecked_return_type = "ResourceRequirements")]
pub fn resources(#[wasm_bindgen(unchecked_param_type = "ResourcesInput")] input: JsValue) -> JsResult {
    let input: ResourcesInput = from_js(input, "resources")?;
    let model = resolve(&input.model)?;
    let req = ResourceRequest {
        hardware: input.hardware,
        precision: input.precision.unwrap_or(Precision::Fp32),
        mode: input.mode.unwrap_or(Mode::Inference),
        batch_size: input.batch_size.unwrap_or(1),
        seq_length: input.seq_length.unwrap_or(DEFAULT_SEQ_LENGTH),
    };
    to_js(&estimate_resources(&model.spec, &req).map_err(|e| core_error(&e))?)
}

/// Candidates named by the caller, or the probed browser's.
async fn targets(hardware: &[HardwareType], devices: &[String]) -> Result<Vec<Candidate>, JsValue> {
    let catalog = DeviceCatalog::builtin();
    if hardware.is_empty() && devices.is_empty() {
        let report = crate::probe::probe().await;
        let found = browser_candidates(&report.capabilities(), &catalog);
        if found.is_empty() {
            return Err(crate::convert::error(
                "this browser offers neither WebGPU nor WebAssembly; name hardware or devices",
            ));
        }
        return Ok(found);
    }
    candidates_from(&catalog, hardware, devices).map_err(|e| core_error(&e))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PredictInput {
    model: String,
    #[serde(default)]
    hardware: Vec<HardwareType>,
    #[serde(default)]
    devices: Vec<String>,
    #[serde(default)]
    precision: Option<Precision>,
    #[serde(default)]
    workload: Option<Workload>,
    #[serde(default)]
    batch_size: Option<u32>,
    #[serde(default)]
    seq_length: Option<u32>,
}

#[derive(Serialize)]
struct Predicted {
    #[serde(flatten)]
    prediction: hwfit_core::Prediction,
    device: String,
}

#[derive(Serialize)]
struct PredictOutput {
    model_name: String,
    workload: Workload,
    predictions: BTreeMap<String, Predicted>,
}

/// Predicts throughput, latency and memory on the hardware named, or on the probed browser's.
#[wasm_bindgen(unchecked_return_type = "PredictOutput")]
pub async fn predict(#[wasm_bindgen(unchecked_param_type = "PredictInput")] input: JsValue) -> JsResult {
    let input: PredictInput = from_js(input, "predict")?;
    let model = resolve(&input.model)?;
    let workload = input.workload.unwrap_or(if model.spec.is_generative() {
        Workload::Decode
    } else {
        Workload::Forward
    });
    let req = PerfRequest {
        precision: input.precision.unwrap_or(Precision::Fp32),
        workload,
        batch_size: input.batch_size.unwrap_or(1),
        seq_length: input.seq_length.unwrap_or(DEFAULT_SEQ_LENGTH),
    };
    let perf = PerfModel::builtin().map_err(|e| core_error(&e))?;
    let mut predictions = BTreeMap::new();
    for c in targets(&input.hardware, &input.devices).await? {
        let prediction = perf.predict(&model.spec, &c.device, &req).map_err(|e| core_error(&e))?;
        predictions.insert(
            c.key,
            Predicted {
                prediction,
                device: c.device.name,
            },
        );
    }
    to_js(&PredictOutput {
        model_name: model.spec.name,
        workload,
        predictions,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SelectInput {
    model: String,
    #[serde(default)]
    hardware: Vec<HardwareType>,
    #[serde(default)]
    devices: Vec<String>,
    #[serde(default)]
    precision: Option<Precision>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    batch_size: Option<u32>,
    #[serde(default)]
    seq_length: Option<u32>,
    #[serde(default)]
    task_type: Option<TaskType>,
    /// IPFS Accelerate's selection config (snake_case keys inside, as in its JSON files).
    #[serde(default)]
    config: Option<serde_json::Value>,
}

/// Selects the hardware to run a model on, ranked by predicted performance.
#[wasm_bindgen(unchecked_return_type = "Selection")]
pub async fn select(#[wasm_bindgen(unchecked_param_type = "SelectInput")] input: JsValue) -> JsResult {
    let input: SelectInput = from_js(input, "select")?;
    let model = resolve(&input.model)?;
    let config = match &input.config {
        Some(v) => SelectionConfig::from_json(&v.to_string()).map_err(|e| core_error(&e))?,
        None => SelectionConfig::default(),
    };
    let req = SelectionRequest {
        batch_size: input.batch_size.unwrap_or(1),
        seq_length: input.seq_length.unwrap_or(DEFAULT_SEQ_LENGTH),
        mode: input.mode.unwrap_or(Mode::Inference),
        precision: input.precision.unwrap_or(Precision::Fp32),
        task_type: input.task_type,
        candidates: targets(&input.hardware, &input.devices).await?,
    };
    let perf = PerfModel::builtin().map_err(|e| core_error(&e))?;
    to_js(&select_hardware(&model.spec, &req, &perf, &config).map_err(|e| core_error(&e))?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatrixInput {
    models: Vec<String>,
    #[serde(default)]
    hardware: Vec<HardwareType>,
    #[serde(default)]
    devices: Vec<String>,
    #[serde(default)]
    batch_sizes: Option<Vec<u32>>,
    #[serde(default)]
    precisions: Option<Vec<Precision>>,
    #[serde(default)]
    mode: Option<Mode>,
    #[serde(default)]
    seq_length: Option<u32>,
}

/// Predictions for models × hardware × batch sizes × precisions.
#[wasm_bindgen(unchecked_return_type = "PredictionMatrix")]
pub async fn matrix(#[wasm_bindgen(unchecked_param_type = "MatrixInput")] input: JsValue) -> JsResult {
    let input: MatrixInput = from_js(input, "matrix")?;
    let specs = input
        .models
        .iter()
        .map(|m| resolve(m).map(|r| r.spec))
        .collect::<Result<Vec<_>, _>>()?;
    let targets = targets(&input.hardware, &input.devices).await?;
    let perf = PerfModel::builtin().map_err(|e| core_error(&e))?;
    let m = prediction_matrix(
        &specs,
        &targets,
        &input.batch_sizes.unwrap_or_else(|| vec![1, 8, 32]),
        &input.precisions.unwrap_or_else(|| vec![Precision::Fp32]),
        input.mode.unwrap_or(Mode::Inference),
        input.seq_length.unwrap_or(DEFAULT_SEQ_LENGTH),
        &perf,
    )
    .map_err(|e| core_error(&e))?;
    to_js(&m)
}

/// The device catalog with its sourced specs.
#[wasm_bindgen(unchecked_return_type = "Device[]")]
pub fn devices() -> JsResult {
    to_js(&DeviceCatalog::builtin().devices())
}

/// The model catalog.
#[wasm_bindgen(unchecked_return_type = "ModelSummary[]")]
pub fn models() -> JsResult {
    let catalog = Catalog::builtin();
    let rows: Vec<_> = catalog
        .entries()
        .iter()
        .map(hwfit_core::catalog::CatalogEntry::summary)
        .collect();
    to_js(&rows)
}
