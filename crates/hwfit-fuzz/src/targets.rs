//! The fuzz targets: each takes arbitrary bytes, feeds them to one of hwfit's inputs, and panics
//! when an invariant breaks — a panic inside hwfit, a 5xx for bad input, an error that is not the
//! API's JSON shape, a number that is not finite or not positive, a stored record that does not
//! read back. Anything else (a typed error) is the right answer to bad input.

#![allow(
    clippy::missing_panics_doc,
    reason = "a fuzz target panics on a broken invariant, by design"
)]

use std::sync::{Mutex, OnceLock};

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use hwfit_core::api::{HardwareList, ModelRequest, PredictRequest};
use hwfit_core::{
    select_hardware, DeviceSpec, HardwareType, Hwfit, Mode, Precision, Prediction, SelectionConfig, SelectionInput,
};
use serde_json::Value;
use tower::ServiceExt;

/// A fuzz target: a name (its corpus folder) and the function.
#[derive(Clone, Copy)]
pub struct Target {
    /// The corpus folder's name under `fuzz/corpus/`.
    pub name: &'static str,
    /// What it feeds.
    pub about: &'static str,
    /// Runs one input; panics on a broken invariant.
    pub run: fn(&[u8]),
}

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "http",
        about: "a request to any route of hwfit serve (first byte: the route; the rest: body or query)",
        run: http,
    },
    Target {
        name: "config_json",
        about: "a Hugging Face config.json, read and predicted on a CPU",
        run: config_json,
    },
    Target {
        name: "device_spec",
        about: "a device described by its numbers (--device-spec), predicted on",
        run: device_spec,
    },
    Target {
        name: "browser",
        about: "a browser described in words or as the probe's object (--browser), read back and predicted on",
        run: browser,
    },
    Target {
        name: "selection_config",
        about: "a selection configuration file (--config), used by a selection",
        run: selection_config,
    },
    Target {
        name: "import",
        about: "a measurement file for hwfit db import (CSV, JSON, JSON lines, llama-bench), stored in SQLite",
        run: import,
    },
    Target {
        name: "names",
        about: "a model name and a device name, resolved",
        run: names,
    },
];

/// The target named `name`.
#[must_use]
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}

fn hwfit() -> &'static Hwfit {
    static HWFIT: OnceLock<Hwfit> = OnceLock::new();
    HWFIT.get_or_init(|| Hwfit::builtin().expect("the built-in catalogs load"))
}

/// A prediction's numbers: finite, positive where they must be, not above the roofline.
fn check_prediction(p: &Prediction, what: &str) {
    assert!(
        p.throughput.is_finite() && p.throughput > 0.0,
        "{what}: throughput {}",
        p.throughput
    );
    assert!(
        p.latency.is_finite() && p.latency > 0.0,
        "{what}: latency {}",
        p.latency
    );
    assert!(
        p.memory_usage.is_finite() && p.memory_usage >= 0.0,
        "{what}: memory {}",
        p.memory_usage
    );
    assert!(
        p.throughput <= p.roofline_throughput * (1.0 + 1e-9),
        "{what}: throughput {} above the roofline {}",
        p.throughput,
        p.roofline_throughput
    );
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Every route as (method, path), from the served route table.
fn routes() -> &'static [(Method, String)] {
    static ROUTES: OnceLock<Vec<(Method, String)>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        let mut all: Vec<(Method, String)> = hwfit_server::routes::routes()
            .into_iter()
            .map(|r| {
                let method = match r.method {
                    hwfit_core::api::HttpMethod::Get => Method::GET,
                    hwfit_core::api::HttpMethod::Post => Method::POST,
                };
                (method, r.path.to_owned())
            })
            .collect();
        all.push((Method::GET, String::from("/openapi.json")));
        all.push((Method::DELETE, String::from("/hardware/select")));
        all
    })
}

struct Server {
    runtime: tokio::runtime::Runtime,
    app: Router,
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let state = hwfit_server::AppState::new(hwfit().clone(), hwfit_server::HostHardware::Off, None);
        let app = hwfit_server::router(state, &hwfit_server::ServerOptions::default()).expect("the router");
        Server { runtime, app }
    })
}

/// The answer's size bound: the largest answer a request within the caps can produce is a few MB.
const MAX_ANSWER_BYTES: usize = 64 << 20;

/// A request to any route: never a 5xx (but 503 for the benchmark routes of a server without a
/// database), always a JSON answer, errors in the API's shape. The input's first line names the
/// route (a served path; another path is asked as is; anything else picks a route by its hash);
/// the rest is the body of a POST or the query of a GET.
pub fn http(data: &[u8]) {
    let _ = http_status(data);
}

/// [`http`], returning the answer's status (`None`: bytes no client could send as that request).
#[must_use]
pub fn http_status(data: &[u8]) -> Option<StatusCode> {
    let (head, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &data[data.len()..]),
    };
    let routes = routes();
    let (method, path) = match routes.iter().find(|(_, p)| p.as_bytes() == head) {
        Some((method, path)) => (method.clone(), path.clone()),
        None => match text(head) {
            Some(path) if path.starts_with('/') => (Method::GET, path.to_owned()),
            _ => routes[(fnv1a(head) % routes.len() as u64) as usize].clone(),
        },
    };
    let request = if method == Method::GET {
        let query = text(rest)?;
        let uri = if query.is_empty() {
            path.clone()
        } else {
            format!("{path}?{query}")
        };
        // Bytes no client can put in a URI are refused before the router: nothing to test.
        Request::builder()
            .method(Method::GET)
            .uri(uri)
            .body(Body::empty())
            .ok()?
    } else {
        Request::builder()
            .method(method.clone())
            .uri(path.as_str())
            .header("content-type", "application/json")
            .body(Body::from(rest.to_vec()))
            .expect("a request with a served path")
    };
    let s = server();
    let (status, body) = s.runtime.block_on(async {
        let response = s.app.clone().oneshot(request).await.expect("the router is infallible");
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), MAX_ANSWER_BYTES)
            .await
            .expect("an answer within the size bound");
        (status, body)
    });
    let benchmarks = path.starts_with("/benchmarks");
    assert!(
        !status.is_server_error() || (benchmarks && status == StatusCode::SERVICE_UNAVAILABLE),
        "{method} {path}: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let answer: Value =
        serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{method} {path}: {status} answer is not JSON ({e})"));
    if status.is_client_error() || status.is_server_error() {
        assert_eq!(answer["status"], "error", "{method} {path}: {status} {answer}");
        assert!(answer["message"].is_string(), "{method} {path}: {status} {answer}");
    }
    Some(status)
}

/// A config.json: read or refused by name; what is read has a positive size and predicts finite
/// numbers under the roofline.
pub fn config_json(data: &[u8]) {
    let Ok(config) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let detail = hwfit().model(&ModelRequest {
        model_name: String::new(),
        model_config: Some(config.clone()),
    });
    let Ok(detail) = detail else { return };
    assert!(detail.parameters > 0, "a read model has parameters: {detail:?}");
    assert!(
        detail.active_parameters <= detail.parameters,
        "active parameters {} of {}",
        detail.active_parameters,
        detail.parameters
    );
    let request = PredictRequest {
        model_config: Some(config),
        hardware: HardwareList::of(&[HardwareType::Cpu, HardwareType::Cuda]),
        ..PredictRequest::default()
    };
    if let Ok(answer) = hwfit().predict(&request, &[]) {
        for (key, entry) in &answer.predictions {
            check_prediction(&entry.prediction, key);
        }
    }
}

/// A device spec: refused with a typed error, or predicted on with finite numbers.
pub fn device_spec(data: &[u8]) {
    let Ok(spec) = serde_json::from_slice::<DeviceSpec>(data) else {
        return;
    };
    for model in ["gpt2", "bert-base-uncased"] {
        let request = PredictRequest {
            device_spec: Some(spec.clone()),
            ..PredictRequest::model(model)
        };
        if let Ok(answer) = hwfit().predict(&request, &[]) {
            for (key, entry) in &answer.predictions {
                check_prediction(&entry.prediction, key);
            }
        }
    }
}

/// A browser (the facts in words, or the probe's object as JSON): refused with a typed error, or
/// written back in words that read to the same candidates, and predicted on with finite numbers.
pub fn browser(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let json =
        serde_json::from_str::<serde_json::Value>(text).unwrap_or_else(|_| serde_json::Value::String(text.into()));
    let Ok(Some(caps)) = hwfit_core::browser::describe::deserialize_browser(json) else {
        return;
    };
    let catalog = hwfit().devices_catalog();
    let words = caps.words();
    let read = hwfit_core::browser::BrowserCapabilities::describe(&words)
        .unwrap_or_else(|e| panic!("the words {words:?} of {caps:?} do not read back: {e}"));
    let ids = |c: &hwfit_core::browser::BrowserCapabilities| -> Vec<String> {
        hwfit_core::browser::browser_candidates(c, catalog)
            .into_iter()
            .map(|c| c.device.id)
            .collect()
    };
    assert_eq!(ids(&caps), ids(&read), "{words:?} reads back to other candidates");
    let request = PredictRequest {
        browser: Some(caps),
        ..PredictRequest::model("bert-base-uncased")
    };
    if let Ok(answer) = hwfit().predict(&request, &[]) {
        for (key, entry) in &answer.predictions {
            check_prediction(&entry.prediction, key);
        }
    }
}

/// A selection configuration: refused naming what is wrong, or used by a selection that ranks
/// every candidate it names.
pub fn selection_config(data: &[u8]) {
    let Some(json) = text(data) else { return };
    let Ok(config) = SelectionConfig::from_json(json) else {
        return;
    };
    let hwfit = hwfit();
    let spec = hwfit
        .catalog()
        .resolve("bert-base-uncased")
        .expect("a catalog model")
        .spec;
    let hardware = HardwareList::of(&[HardwareType::Cpu, HardwareType::Cuda, HardwareType::Mps]);
    let targets = hwfit_core::api::Targets {
        hardware: &hardware,
        devices: &[],
        device_spec: None,
        browser: None,
    };
    let candidates =
        hwfit_core::api::resolve_candidates(hwfit.devices_catalog(), targets, &[]).expect("reference devices");
    let input = SelectionInput {
        batch_size: 8,
        seq_length: 128,
        mode: Mode::Inference,
        precision: Precision::Fp32,
        task_type: None,
        mixed_precision: None,
        candidates,
    };
    if let Ok(selection) = select_hardware(&spec, &input, hwfit.perf(), &config) {
        if let Some(primary) = &selection.primary_recommendation {
            assert!(selection.all_scores.contains_key(primary), "{selection:?}");
        }
        for score in selection.all_scores.values() {
            if let Some(p) = &score.predictions {
                check_prediction(p, "selection");
            }
        }
    }
}

/// One in-memory database for many `import` inputs (opening one runs every migration), renewed now
/// and then so that a long run's memory stays flat; each input is its own import.
static STORE: Mutex<Option<(Box<dyn hwfit_db::Store + Send>, u64)>> = Mutex::new(None);

/// A measurement file: read or refused; every record read is valid, is stored, and reads back;
/// rejected lines are lines of the file.
pub fn import(data: &[u8]) {
    let Some(body) = text(data) else { return };
    let Ok(read) = hwfit_db::read_text("fuzz-input", body) else {
        return;
    };
    let lines = body.lines().count().max(1);
    for rejected in &read.rejected {
        if let Some(line) = rejected.at.strip_prefix("line ") {
            let n: usize = line.parse().unwrap_or_else(|_| panic!("a line number: {rejected:?}"));
            assert!((1..=lines + 1).contains(&n), "{rejected:?} of {lines} lines");
        }
    }
    for record in &read.records {
        record
            .validate()
            .unwrap_or_else(|e| panic!("a record read is valid: {e}: {record:?}"));
    }
    if read.records.is_empty() {
        return;
    }
    let mut slot = STORE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if slot.as_ref().is_none_or(|(_, used)| *used >= 500) {
        *slot = Some((hwfit_db::open(":memory:").expect("an in-memory SQLite database"), 0));
    }
    let (store, used) = slot.as_mut().expect("opened above");
    *used += 1;
    let import = format!("fuzz-input-{used}");
    let before = store.stats().expect("stats").records;
    let inserted = store
        .insert(&read.records, &import)
        .unwrap_or_else(|e| panic!("valid records are stored: {e}"));
    let stats = store.stats().expect("stats");
    assert_eq!(stats.records, before + inserted.added, "the counts follow the import");
    assert_eq!(
        stats.by_import.get(&import).copied().unwrap_or(0),
        inserted.added,
        "what was stored is counted under its import"
    );
}

/// A model name and a device name: resolved, or refused with the closest names, never a panic.
pub fn names(data: &[u8]) {
    let Some(both) = text(data) else { return };
    let (model, device) = both.split_once('\n').unwrap_or((both, both));
    let request = PredictRequest {
        devices: vec![device.to_owned()],
        ..PredictRequest::model(model)
    };
    if let Ok(answer) = hwfit().predict(&request, &[]) {
        for (key, entry) in &answer.predictions {
            check_prediction(&entry.prediction, key);
        }
    }
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
