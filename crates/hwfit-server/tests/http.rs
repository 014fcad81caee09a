//! The server over real HTTP on 127.0.0.1 (a random free port): every route, every error class,
//! auth, CORS and graceful shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use hwfit_core::Hwfit;
use hwfit_server::{HostHardware, ServerOptions};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Server {
    base: String,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

async fn start(options: ServerOptions) -> Server {
    start_with(options, None).await
}

async fn start_with(options: ServerOptions, database: Option<Box<dyn hwfit_db::Store + Send>>) -> Server {
    start_on(options, database, HostHardware::Off).await
}

async fn start_on(
    options: ServerOptions,
    database: Option<Box<dyn hwfit_db::Store + Send>>,
    host: HostHardware,
) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let app = hwfit_server::router(
        hwfit_server::AppState::new(Hwfit::builtin().unwrap(), host, database),
        &options,
    )
    .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let limits = options.connections;
    let task = tokio::spawn(async move {
        hwfit_server::serve_with_limits(listener, app, limits, async {
            let _ = stopped.await;
        })
        .await;
    });
    Server {
        base: format!("http://{addr}"),
        stop,
        task,
    }
}

async fn post(base: &str, path: &str, body: &str) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

async fn get(base: &str, path: &str) -> (u16, Value) {
    let r = reqwest::get(format!("{base}{path}")).await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

#[tokio::test]
async fn every_route_answers_with_the_guides_fields() {
    let s = start(ServerOptions::default()).await;
    let b = &s.base;
    let (status, health) = get(b, "/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["status"], "healthy");
    assert!(health["available_components"]["hardware_selection"].as_bool().unwrap());

    let (status, sel) = post(b, "/hardware/select", r#"{"model_name": "bert-base-uncased", "model_family": "embedding", "batch_size": 16, "sequence_length": 128, "mode": "inference", "precision": "fp32", "available_hardware": ["cpu", "cuda"], "task_type": null, "distributed": false, "gpu_count": 1}"#).await;
    assert_eq!(status, 200, "{sel}");
    for field in [
        "model_family",
        "model_name",
        "model_size",
        "model_size_category",
        "batch_size",
        "sequence_length",
        "precision",
        "mode",
        "primary_recommendation",
        "fallback_options",
        "compatible_hardware",
        "explanation",
        "prediction_source",
    ] {
        assert!(sel.get(field).is_some(), "select lacks {field}: {sel}");
    }
    assert_eq!(sel["primary_recommendation"], "cuda");
    assert_eq!(sel["fallback_options"], json!(["cpu"]));

    let (status, batch) = post(b, "/hardware/batch", r#"{"models": [{"name": "bert-base-uncased", "family": "embedding"}, {"name": "gpt2", "family": "text_generation"}, {"name": "t5-small", "family": "text_generation"}], "batch_size": 1, "mode": "inference", "hardware": "cpu,cuda"}"#).await;
    assert_eq!(status, 200, "{batch}");
    for m in ["bert-base-uncased", "gpt2", "t5-small"] {
        assert!(
            batch[m]["primary"].is_string() && batch[m]["fallbacks"].is_array(),
            "{batch}"
        );
    }

    let (status, map) = post(b, "/hardware/map", r#"{"model_families": ["embedding", "vision"], "batch_sizes": [1, 8], "hardware_platforms": ["cpu", "cuda", "mps"]}"#).await;
    assert_eq!(status, 200, "{map}");
    let families = map["model_families"].as_object().unwrap();
    assert_eq!(families.keys().collect::<Vec<_>>(), ["embedding", "vision"]);
    assert!(map["model_families"]["embedding"]["inference"]["batch_sizes"]["8"]["primary"].is_string());

    let (status, pred) = post(b, "/performance/predict", r#"{"model_name": "bert-base-uncased", "model_family": "embedding", "hardware": ["cuda", "cpu"], "batch_size": 16, "sequence_length": 128, "mode": "inference", "precision": "fp32"}"#).await;
    assert_eq!(status, 200, "{pred}");
    for hw in ["cuda", "cpu"] {
        let p = &pred["predictions"][hw];
        for field in ["throughput", "latency", "memory_usage"] {
            assert!(p[field].as_f64().unwrap() > 0.0, "{hw} {field}: {p}");
        }
        assert!(p["source"].is_string());
    }

    let (status, dist) = post(b, "/training/distributed", r#"{"model_name": "gpt2", "model_family": "text_generation", "gpu_count": 8, "batch_size": 16, "max_memory_gb": 16}"#).await;
    assert_eq!(status, 200, "{dist}");
    let per = dist["per_gpu_batch_size"].as_u64().unwrap() * dist["gradient_accumulation_steps"].as_u64().unwrap() * 8;
    assert_eq!(dist["global_batch_size"].as_u64().unwrap(), per);
    assert!(dist["estimated_memory"]["per_gpu_gb"].as_f64().unwrap() > 0.0);

    let (status, analysis) = post(b, "/analysis/model", r#"{"model_name": "bert-base-uncased", "model_family": "embedding", "batch_sizes": [1, 8, 32], "hardware_platforms": ["cpu", "cuda"]}"#).await;
    assert_eq!(status, 200, "{analysis}");
    assert!(
        analysis["inference"]["performance"]["1"]["cpu"]["throughput"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert!(analysis["training"]["recommendations"]["32"]["primary"].is_string());

    let (status, c) = post(
        b,
        "/models/classify",
        r#"{"model_name": "openai/whisper-small", "tasks": ["automatic-speech-recognition"]}"#,
    )
    .await;
    assert_eq!((status, c["family"].as_str()), (200, Some("audio")));
    let (status, models) = get(b, "/models?family=vision").await;
    assert_eq!(status, 200);
    assert!(models.as_array().unwrap().iter().all(|m| m["family"] == "vision"));
    let (status, detail) = post(b, "/models/detail", r#"{"model_name": "gpt2"}"#).await;
    assert_eq!(
        (status, detail["parameters"].as_u64().map(|p| p / 1_000_000)),
        (200, Some(124))
    );
    let (status, rec) = post(
        b,
        "/models/recommend",
        r#"{"task": "text-generation", "hardware": ["cuda"]}"#,
    )
    .await;
    assert_eq!(status, 200, "{rec}");
    assert!(!rec["recommendations"].as_array().unwrap().is_empty());
    let (status, comp) = post(
        b,
        "/models/compatible",
        r#"{"models": ["gpt2", "meta-llama/Meta-Llama-3-8B"], "device": "rtx 4090"}"#,
    )
    .await;
    assert_eq!(status, 200, "{comp}");
    assert!(comp["compatible"]
        .as_array()
        .unwrap()
        .contains(&json!("openai-community/gpt2")));
    let (status, res) = post(
        b,
        "/resources",
        r#"{"model_name": "gpt2", "hardware": "cuda", "precision": "fp16"}"#,
    )
    .await;
    assert_eq!(status, 200, "{res}");
    assert!(res["resource_requirements"]["min_memory_mb"].as_u64().unwrap() > 0);
    let (status, pool) = post(
        b,
        "/resources/pool",
        r#"{"models": ["gpt2", "bert-base-uncased"], "hardware": ["cuda", "cpu"]}"#,
    )
    .await;
    assert_eq!(status, 200, "{pool}");
    assert!(pool["resource_pool_config"]["recommended_timeout_mins"].is_number());
    let (status, matrix) = post(
        b,
        "/performance/matrix",
        r#"{"models": ["gpt2"], "hardware": ["cpu"], "batch_sizes": [1, 4]}"#,
    )
    .await;
    assert_eq!(status, 200, "{matrix}");
    assert!(matrix["models"].as_object().unwrap().len() == 1);
    let (status, compat) = get(b, "/compat").await;
    assert_eq!(status, 200);
    assert!(compat["model_families"]["vision"].is_object());
    let (status, devices) = get(b, "/devices?hardware=mps").await;
    assert_eq!(status, 200);
    assert!(devices.as_array().unwrap().iter().all(|d| d["hardware_type"] == "mps"));
    let (status, t) = post(
        b,
        "/templates",
        r#"{"model_name": "bert-base-uncased", "runtime": "transformers.js"}"#,
    )
    .await;
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["template"], "transformers.js/starter.mjs.j2");
    let (status, _) = get(b, "/hardware/detect").await;
    assert_eq!(status, 404, "detection is off in this server");
    let _ = s.stop.send(());
    s.task.await.unwrap();
}

#[tokio::test]
async fn errors_have_the_guides_shape_and_status() {
    let s = start(ServerOptions {
        max_body_bytes: 4096,
        ..ServerOptions::default()
    })
    .await;
    let b = &s.base;
    let cases: &[(&str, &str, u16, &str)] = &[
        (
            "/hardware/select",
            r#"{"model_name": "bert-base-uncased""#,
            400,
            "line 1",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "no-such-model-xyz"}"#,
            404,
            "unknown model",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "bertt-uncased"}"#,
            404,
            "did you mean",
        ),
        (
            "/performance/predict",
            r#"{"model_name": "gpt2", "device_spec": {"hardware_type": "cuda", "memory_gb": 0, "memory_bandwidth_gbs": 900, "dense_tflops": {"fp32": 30}}}"#,
            422,
            "device_spec.memory_gb",
        ),
        (
            "/performance/predict",
            r#"{"model_name": "gpt2", "devices": ["not a gpu 9000"]}"#,
            404,
            "unknown device",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "gpt2", "batch_sise": 3}"#,
            422,
            "batch_sise",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "gpt2", "batch_size": "sixteen"}"#,
            422,
            "invalid type",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "gpt2", "batch_size": 0}"#,
            422,
            "batch_size",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "gpt2", "precision": "fp7"}"#,
            422,
            "precision",
        ),
        (
            "/hardware/select",
            r#"{"model_name": "gpt2", "model_family": "vision"}"#,
            422,
            "model_family",
        ),
        ("/hardware/select", "{}", 422, "model_name is required"),
        (
            "/resources",
            r#"{"model_name": "gpt2", "sequence_length": 5000}"#,
            422,
            "sequence_length",
        ),
    ];
    for (path, body, status, needle) in cases {
        let (got, v) = post(b, path, body).await;
        assert_eq!(got, *status, "{path} {body}: {v}");
        assert_eq!(v["status"], "error", "{v}");
        let message = v["message"].as_str().unwrap();
        assert!(message.contains(needle), "{path} {body}: '{message}' lacks '{needle}'");
    }
    let big = format!(r#"{{"model_name": "{}"}}"#, "x".repeat(10_000));
    let (status, v) = post(b, "/hardware/select", &big).await;
    assert_eq!((status, v["status"].as_str()), (413, Some("error")));
    let (status, v) = get(b, "/no/such/route").await;
    assert_eq!((status, v["status"].as_str()), (404, Some("error")));
    let r = reqwest::Client::new()
        .delete(format!("{b}/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "error");
    let (status, v) = get(b, "/models?family=robots").await;
    assert_eq!((status, v["status"].as_str()), (422, Some("error")));
    let _ = s.stop.send(());
}

#[tokio::test]
async fn an_api_key_guards_every_route_but_health() {
    let s = start(ServerOptions {
        api_key: Some("s3cret".into()),
        cors_origins: vec!["https://app.example".into()],
        ..ServerOptions::default()
    })
    .await;
    let client = reqwest::Client::new();
    let b = &s.base;
    assert_eq!(
        client
            .get(format!("{b}/health"))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        200
    );
    let r = client.get(format!("{b}/compat")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "error");
    let wrong = client
        .get(format!("{b}/compat"))
        .bearer_auth("s3cres")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 401);
    let ok = client
        .get(format!("{b}/compat"))
        .bearer_auth("s3cret")
        .header("origin", "https://app.example")
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
    assert_eq!(
        ok.headers().get("access-control-allow-origin").unwrap(),
        "https://app.example"
    );
    let _ = s.stop.send(());
}

#[tokio::test]
async fn the_openapi_document_lists_exactly_the_served_routes() {
    let s = start(ServerOptions::default()).await;
    let (status, doc) = get(&s.base, "/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    let routes = hwfit_server::routes::routes();
    let documented: usize = paths.values().map(|ops| ops.as_object().unwrap().len()).sum();
    assert_eq!(documented, routes.len());
    // Every question of the core's list is routed, its operation named as in JS.
    for q in hwfit_core::api::questions() {
        let op = &paths[q.path][q.method.as_str().to_ascii_lowercase()];
        assert_eq!(op["operationId"], q.js.as_str(), "{} {}", q.method.as_str(), q.path);
        assert_eq!(op["summary"], q.summary);
    }
    let (status, listed) = get(&s.base, "/questions").await;
    assert_eq!(status, 200);
    assert_eq!(listed, serde_json::to_value(hwfit_core::api::questions()).unwrap());
    let client = reqwest::Client::new();
    for (path, ops) in paths {
        for (method, op) in ops.as_object().unwrap() {
            let r = match method.as_str() {
                "get" => client.get(format!("{}{path}", s.base)).send().await.unwrap(),
                "post" => client
                    .post(format!("{}{path}", s.base))
                    .body("{}")
                    .send()
                    .await
                    .unwrap(),
                other => panic!("unexpected method {other}"),
            };
            let body: Value = r.json().await.unwrap();
            let status = body.get("message").and_then(Value::as_str).unwrap_or_default();
            assert!(
                !status.starts_with("no such route") && !status.starts_with("method not allowed"),
                "{method} {path} is documented but not served: {body}"
            );
            let schema = &op["responses"]["200"]["content"]["application/json"]["schema"];
            assert!(
                schema.is_object() || schema.is_boolean(),
                "{method} {path} has no answer schema"
            );
        }
    }
    // Every $ref resolves to a component.
    let text = doc.to_string();
    let components = doc["components"]["schemas"].as_object().unwrap();
    for r in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = &r[..r.find('"').unwrap()];
        assert!(components.contains_key(name), "dangling $ref {name}");
    }
    assert!(components.contains_key("SelectRequest") && components.contains_key("Selection"));
    let _ = s.stop.send(());
}

#[tokio::test]
async fn shutdown_lets_in_flight_requests_finish() {
    let s = start(ServerOptions::default()).await;
    let base = s.base.clone();
    let in_flight = tokio::spawn(async move { post(&base, "/hardware/map", "{}").await });
    tokio::time::sleep(Duration::from_millis(20)).await;
    let _ = s.stop.send(());
    let (status, map) = in_flight.await.unwrap();
    assert_eq!(status, 200, "{map}");
    tokio::time::timeout(Duration::from_secs(30), s.task)
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn the_devices_query_is_percent_decoded_and_typed() {
    let s = start(ServerOptions::default()).await;
    let (status, v) = get(&s.base, "/devices?query=rtx%204090&hardware=cuda&all=true").await;
    assert_eq!(status, 200, "{v}");
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"nvidia-rtx-4090") && ids.iter().all(|id| id.contains("4090")),
        "{ids:?}"
    );
    let (_, plus) = get(&s.base, "/devices?query=rtx+4090").await;
    assert_eq!(plus, v);
    let (status, e) = get(&s.base, "/devices?all=maybe").await;
    assert_eq!(status, 422, "{e}");
    assert!(e["message"].as_str().unwrap().contains("invalid query"), "{e}");
    let _ = s.stop.send(());
    s.task.await.unwrap();
}

/// The server reads the benchmark database `hwfit db import` / `hwfit bench` write: filtered
/// listings, counts, `/health` says it is connected; without one, 503 with the guide's error shape.
#[tokio::test]
async fn the_benchmark_database_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("bench.sqlite").display().to_string();
    let mut store = hwfit_db::open(&url).unwrap();
    let mut llama = hwfit_db::BenchmarkRecord::new("Llama 3 8B", "RTX 4090", "llama.cpp", "test");
    llama.hardware_type = Some("cuda".into());
    llama.throughput = Some(128.0);
    let mut bert = hwfit_db::BenchmarkRecord::new("bert-base-uncased", "AMD EPYC", "tract", "measured here");
    bert.hardware_type = Some("cpu".into());
    bert.latency_p50_ms = Some(12.6);
    store.insert(&[llama, bert], "test").unwrap();
    let s = start_with(ServerOptions::default(), Some(store)).await;
    let (status, health) = get(&s.base, "/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["database_connected"], true);
    let (status, all) = get(&s.base, "/benchmarks").await;
    assert_eq!(status, 200);
    assert_eq!(all.as_array().unwrap().len(), 2);
    let (_, cuda) = get(&s.base, "/benchmarks?hardware=cuda&limit=5").await;
    assert_eq!(cuda.as_array().unwrap().len(), 1);
    assert_eq!(cuda[0]["model_name"], "Llama 3 8B");
    assert_eq!(cuda[0]["throughput"], 128.0);
    let (_, tract) = get(&s.base, "/benchmarks?runtime=tract&model=BERT").await;
    assert_eq!(tract[0]["device_name"], "AMD EPYC");
    let (status, counts) = get(&s.base, "/benchmarks/stats").await;
    assert_eq!(status, 200);
    assert_eq!(counts["records"], 2);
    assert_eq!(counts["by_hardware_type"]["cuda"], 1);
    let (status, err) = get(&s.base, "/benchmarks?limit=many").await;
    assert_eq!(status, 422, "{err}");
    let _ = s.stop.send(());
    let plain = start(ServerOptions::default()).await;
    let (status, err) = get(&plain.base, "/benchmarks").await;
    assert_eq!(status, 503);
    assert!(err["message"].as_str().unwrap().contains("--database"), "{err}");
    let (_, health) = get(&plain.base, "/health").await;
    assert_eq!(health["database_connected"], false);
    let _ = plain.stop.send(());
}

/// The local-device rule over HTTP: a question naming no hardware runs on the host's devices (here a
/// recorded detection report: one measured CPU), and with none on every hardware type.
#[tokio::test]
async fn questions_naming_no_hardware_run_on_the_hosts_devices() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../hwfit-cli/tests/fixtures/detection_ci_2core_llvmpipe.json"
    ))
    .unwrap();
    let report: hwfit_core::detect::DetectionReport = serde_json::from_str(&text).unwrap();
    let empty = hwfit_core::detect::DetectionReport {
        devices: Vec::new(),
        ..report.clone()
    };
    let local = start_on(ServerOptions::default(), None, HostHardware::Report(Box::new(report))).await;
    let none = start_on(ServerOptions::default(), None, HostHardware::Report(Box::new(empty))).await;
    for (path, body) in [
        ("/hardware/select", r#"{"model_name": "gpt2"}"#),
        ("/performance/matrix", r#"{"models": ["gpt2"], "batch_sizes": [1]}"#),
        ("/resources/pool", r#"{"models": ["gpt2"]}"#),
    ] {
        let (status, on_host) = post(&local.base, path, body).await;
        assert_eq!(status, 200, "{on_host}");
        let (status, everywhere) = post(&none.base, path, body).await;
        assert_eq!(status, 200, "{everywhere}");
        let (on_host, everywhere) = (on_host.to_string(), everywhere.to_string());
        let gpu = |text: &str| ["\"cuda\"", "\"rocm\"", "\"mps\""].iter().any(|hw| text.contains(hw));
        assert!(!gpu(&on_host), "{path}: only the host's CPU: {on_host}");
        assert!(
            gpu(&everywhere),
            "{path}: every hardware type, GPUs among them: {everywhere}"
        );
    }
    let _ = local.stop.send(());
    let _ = none.stop.send(());
}

/// Work per request is bounded where it happens: a 30,000-character name and a 20,000-batch-size
/// matrix are refused at once with the documented JSON error, naming the cap.
#[tokio::test]
async fn oversized_names_and_matrices_are_refused_at_once() {
    let s = start(ServerOptions::default()).await;
    let name = "x".repeat(30_000);
    let body = json!({ "model_name": "gpt2", "devices": [name] }).to_string();
    let (status, answer) = post(&s.base, "/performance/predict", &body).await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["status"], "error");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("device name is too large: 30000 (at most 256)"),
        "{answer}"
    );
    let batch_sizes: Vec<u32> = (1..=20_000).collect();
    let body = json!({ "models": ["gpt2"], "hardware": "all", "batch_sizes": batch_sizes }).to_string();
    let (status, answer) = post(&s.base, "/performance/matrix", &body).await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("prediction matrix"),
        "{answer}"
    );
    let _ = s.stop.send(());
}

/// A JSON array is not a request; a body declared over the limit is refused before it is read.
#[tokio::test]
async fn arrays_and_declared_oversize_bodies_are_refused_at_once() {
    let s = start(ServerOptions {
        max_body_bytes: 1024,
        ..ServerOptions::default()
    })
    .await;
    let (status, answer) = post(&s.base, "/hardware/select", r#"["gpt2"]"#).await;
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("must be a JSON object"),
        "{answer}"
    );
    // Declare 10 MB, send nothing more: the answer comes at once, not after the timeout.
    let addr = s.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /hardware/select HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut reply = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut reply))
        .await
        .expect("answered before the body was sent")
        .unwrap();
    let reply = String::from_utf8_lossy(&reply[..n]);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(
        reply.contains("larger than the server's limit of 1024 bytes"),
        "{reply}"
    );
    let _ = s.stop.send(());
}

#[tokio::test]
async fn slow_clients_hold_their_share_of_connections_for_the_header_timeout_only() {
    let s = start(ServerOptions {
        connections: hwfit_server::ConnectionLimits {
            max_connections: 64,
            max_connections_per_client: 4,
            header_timeout: Duration::from_secs(1),
        },
        ..ServerOptions::default()
    })
    .await;
    let addr = s.base.trim_start_matches("http://").to_owned();
    // Four connections send one header line and stop (slowloris).
    let mut slow = Vec::new();
    for _ in 0..4 {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        stream.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A fifth from the same client is over its share: a JSON 503 at once.
    let mut fifth = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let mut reply = String::new();
    tokio::time::timeout(Duration::from_secs(5), fifth.read_to_string(&mut reply))
        .await
        .expect("refused at once")
        .unwrap();
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(
        reply.contains(r#""status":"error""#) && reply.contains("per client"),
        "{reply}"
    );
    // The slow ones are closed by the header timeout, and their places come back.
    for mut stream in slow {
        let mut rest = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut rest))
            .await
            .expect("closed by the header timeout")
            .ok();
    }
    let started = std::time::Instant::now();
    let (status, health) = get(&s.base, "/health").await;
    assert_eq!(status, 200, "{health}");
    assert!(started.elapsed() < Duration::from_secs(1));
    let _ = s.stop.send(());
}

/// Sends `request` on a fresh connection and reads the whole reply (the server closes it).
async fn raw(addr: &str, request: &[u8]) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut reply = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut reply))
        .await
        .expect("answered and closed")
        .ok();
    String::from_utf8_lossy(&reply).into_owned()
}

/// The JSON error body of a raw reply, checked against its declared length.
fn json_body(reply: &str) -> Value {
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    assert!(head.contains("content-type: application/json"), "{reply}");
    let declared: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .expect("a content length")
        .parse()
        .unwrap();
    assert_eq!(declared, body.len(), "{reply}");
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["status"], "error", "{reply}");
    body
}

/// Requests hyper refuses before the router sees them still get the API's JSON error shape.
#[tokio::test]
async fn protocol_errors_have_the_json_error_shape() {
    let s = start(ServerOptions {
        connections: hwfit_server::ConnectionLimits {
            header_timeout: Duration::from_millis(500),
            ..hwfit_server::ConnectionLimits::default()
        },
        ..ServerOptions::default()
    })
    .await;
    let addr = s.base.trim_start_matches("http://").to_owned();

    let reply = raw(&addr, b"GET /health HTTP/1.1\r\nHost x\r\n\r\n").await;
    assert!(reply.starts_with("HTTP/1.1 400 "), "{reply}");
    assert!(json_body(&reply)["message"]
        .as_str()
        .unwrap()
        .contains("malformed HTTP request"));

    let reply = raw(&addr, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 garbage\r\n\r\n").await;
    assert!(reply.starts_with("HTTP/1.1 400 "), "{reply}");
    json_body(&reply);

    let headers = "x-h: v\r\n".repeat(hwfit_server::protocol_errors::MAX_HEADERS + 1);
    let many = format!("GET /health HTTP/1.1\r\nHost: x\r\n{headers}\r\n");
    let reply = raw(&addr, many.as_bytes()).await;
    assert!(reply.starts_with("HTTP/1.1 431 "), "{reply}");
    assert!(json_body(&reply)["message"].as_str().unwrap().contains("header fields"));

    let long = format!(
        "GET /models?{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(hwfit_server::protocol_errors::MAX_HEAD_BYTES)
    );
    let reply = raw(&addr, long.as_bytes()).await;
    assert!(
        reply.starts_with("HTTP/1.1 431 ") || reply.starts_with("HTTP/1.1 414 "),
        "{reply}"
    );
    json_body(&reply);

    // Half a request, then silence: 408 when the header timeout ends it.
    let started = std::time::Instant::now();
    let reply = raw(&addr, b"GET /health HTTP/1.1\r\nHost: x\r\n").await;
    assert!(reply.starts_with("HTTP/1.1 408 "), "{reply}");
    assert!(json_body(&reply)["message"].as_str().unwrap().contains("500 ms"));
    assert!(started.elapsed() < Duration::from_secs(3));

    // The server still answers well-formed requests, on the same kind of raw connection too.
    let reply = raw(&addr, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
    let _ = s.stop.send(());
}
