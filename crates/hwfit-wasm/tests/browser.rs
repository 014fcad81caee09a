//! Real-browser tests in headless Chromium (wasm-bindgen-test-runner + chromedriver).
//!
//! `scripts/test-browser` runs them twice: with `webdriver/webgpu.json` (`--enable-unsafe-webgpu`
//! and WebNN enabled; `HWFIT_EXPECT_WEBGPU=1` at build time) and with `webdriver/plain.json` (no
//! WebGPU adapter, no `navigator.ml`). Each run asserts what that browser really offers.
#![cfg(target_arch = "wasm32")]

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const EXPECT_WEBGPU: bool = option_env!("HWFIT_EXPECT_WEBGPU").is_some();

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |acc, key| {
        Reflect::get(&acc, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    })
}

fn array(v: &JsValue) -> Vec<JsValue> {
    js_sys::Array::from(v).iter().collect()
}

#[wasm_bindgen_test]
async fn probe_reports_what_this_browser_offers() {
    let report = hwfit_wasm::probe().await.expect("probe never throws");
    assert_eq!(get(&report, "wasm.available"), JsValue::TRUE);
    assert_eq!(
        get(&report, "wasm.simd"),
        JsValue::TRUE,
        "Chromium validates the SIMD module"
    );
    assert_eq!(get(&report, "hardware.wasm"), JsValue::TRUE);
    assert!(get(&report, "navigator.hardwareConcurrency").as_f64().unwrap() >= 1.0);
    assert_eq!(get(&report, "navigator.scope").as_string().unwrap(), "Window");
    // WebGL's renderer is SwiftShader's (through ANGLE on Vulkan) with or without WebGPU: the GPU is
    // identified as a software rasterizer, never as a device.
    assert_eq!(get(&report, "webgl.available"), JsValue::TRUE);
    let renderer = get(&report, "webgl.unmaskedRenderer").as_string().unwrap();
    assert!(renderer.contains("SwiftShader"), "{renderer}");
    assert_eq!(get(&report, "gpu.confidence").as_string().unwrap(), "software");
    assert!(get(&report, "gpu.deviceId").is_null());
    assert!(!array(&get(&report, "gpu.evidence")).is_empty());
    let adapters = array(&get(&report, "webgpu.adapters"));
    if EXPECT_WEBGPU {
        assert_eq!(get(&report, "webgpu.available"), JsValue::TRUE);
        let first = adapters
            .iter()
            .find(|a| get(a, "available") == JsValue::TRUE)
            .expect("an adapter");
        assert_eq!(
            get(first, "isFallbackAdapter"),
            JsValue::TRUE,
            "SwiftShader is a fallback adapter"
        );
        assert!(get(first, "limits.maxStorageBufferBindingSize").as_f64().unwrap() > 0.0);
        assert_eq!(get(&report, "hardware.webgpu"), JsValue::TRUE);
        assert_eq!(
            get(&report, "deviceClasses.webgpu").as_string().unwrap(),
            "webgpu-fallback"
        );
        assert_eq!(get(&report, "devices.webgpu").as_string().unwrap(), "webgpu-fallback");
        // WebNN: navigator.ml exists, createContext throws NotSupportedError on Linux — reported per device type.
        assert_eq!(get(&report, "webnn.available"), JsValue::FALSE);
        let contexts = array(&get(&report, "webnn.contexts"));
        assert_eq!(contexts.len(), 3);
        for c in &contexts {
            assert_eq!(get(c, "available"), JsValue::FALSE);
            let error = get(c, "error").as_string().unwrap();
            assert!(error.contains("NotSupportedError"), "{error}");
        }
    } else {
        assert_eq!(get(&report, "webgpu.available"), JsValue::FALSE);
        let reason = get(&report, "webgpu.reason").as_string().unwrap();
        assert!(
            reason.contains("requestAdapter() returned null") || reason.contains("navigator.gpu is absent"),
            "{reason}"
        );
        assert_eq!(get(&report, "hardware.webgpu"), JsValue::FALSE);
        assert_eq!(get(&report, "webnn.available"), JsValue::FALSE);
        assert!(get(&report, "webnn.reason")
            .as_string()
            .unwrap()
            .contains("navigator.ml is absent"));
    }
}

#[wasm_bindgen_test]
async fn benchmark_runs_the_wgsl_module_on_the_webgpu_adapter() {
    let r = hwfit_wasm::benchmark(None).await.expect("benchmark");
    let cpu = get(&r, "cpu.matmulF32Gflops").as_f64().unwrap();
    assert!(cpu > 0.0 && get(&r, "cpu.copyGbs").as_f64().unwrap() > 0.0);
    console_log!(
        "benchmark: WASM matmul {cpu:.2} GFLOP/s, copy {:.2} GB/s; WebGPU matmul {:?} GFLOP/s, copy {:?} GB/s ({:?})",
        get(&r, "cpu.copyGbs").as_f64().unwrap(),
        get(&r, "gpu.matmulF32Gflops").as_f64(),
        get(&r, "gpu.copyGbs").as_f64(),
        get(&r, "gpu.device").as_string()
    );
    if EXPECT_WEBGPU {
        let gflops = get(&r, "gpu.matmulF32Gflops").as_f64();
        assert!(
            gflops.is_some_and(|g| g > 0.0),
            "gpuError: {:?}",
            get(&r, "gpuError").as_string()
        );
        assert!(get(&r, "gpu.copyGbs").as_f64().unwrap() > 0.0);
        assert!(get(&r, "gpu.method").as_string().unwrap().contains("WGSL"));
    } else {
        assert!(get(&r, "gpu").is_undefined());
        assert!(get(&r, "gpuError").as_string().unwrap().contains("adapter"));
    }
}

#[wasm_bindgen_test]
async fn select_without_hardware_uses_the_probe() {
    let input = js_sys::JSON::parse(r#"{"modelName": "bert-base-uncased", "batchSize": 4}"#).unwrap();
    let s = hwfit_wasm::select(input, JsValue::UNDEFINED).await.expect("select");
    let scores = get(&s, "allScores");
    assert!(!get(&scores, "wasm").is_undefined());
    assert_eq!(!get(&scores, "webgpu").is_undefined(), EXPECT_WEBGPU);
    // SwiftShader runs shaders on the CPU: it never ranks above WebAssembly.
    assert_eq!(get(&s, "primaryRecommendation").as_string().as_deref(), Some("wasm"));
    // The probe's facts in words describe this browser to every face: asked with them, the answer
    // is the one given on the probe.
    let report = hwfit_wasm::probe().await.expect("probe");
    assert_eq!(
        get(&report, "capabilities.engine").as_string().as_deref(),
        Some("chromium")
    );
    let words = get(&report, "browser").as_string().unwrap();
    assert!(words.starts_with("chromium"), "{words}");
    assert_eq!(words.contains("webgpu=fallback"), EXPECT_WEBGPU, "{words}");
    let described = js_sys::JSON::parse(r#"{"modelName": "bert-base-uncased", "batchSize": 4}"#).unwrap();
    Reflect::set(&described, &JsValue::from_str("browser"), &JsValue::from_str(&words)).unwrap();
    let same = hwfit_wasm::select(described, JsValue::UNDEFINED).await.expect("select");
    assert_eq!(
        js_sys::JSON::stringify(&same).unwrap(),
        js_sys::JSON::stringify(&s).unwrap(),
        "{words}"
    );
    if EXPECT_WEBGPU {
        let fixed = get(&scores, "webgpu.predictions.fixedCosts");
        assert!(get(&fixed, "kernels").as_f64().unwrap() > 0.0);
        assert!(get(&fixed, "firstRunMs").as_f64().unwrap() > 0.0);
    }
}

#[wasm_bindgen_test]
async fn errors_are_thrown_as_typed_js_errors() {
    let bad = js_sys::JSON::parse(r#"{"modelName": "gpt2", "batchSize": "eight"}"#).unwrap();
    let e = hwfit_wasm::predict(bad, JsValue::UNDEFINED).await.unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>());
    let range = js_sys::JSON::parse(r#"{"modelName": "gpt2", "hardware": ["wasm"], "batchSize": 0}"#).unwrap();
    let e = hwfit_wasm::predict(range, JsValue::UNDEFINED).await.unwrap_err();
    assert!(e.is_instance_of::<js_sys::RangeError>(), "{e:?}");
}

/// The device database, as the package's `devices.js` exports it.
const DEVICE_DATABASE: &str = include_str!("../../hwfit-core/data/device_db.csv");

#[wasm_bindgen_test]
async fn the_device_database_loads_from_text_and_answers_for_its_devices() {
    let e = hwfit_wasm::load_device_database(JsValue::from(5)).await.unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>(), "{e:?}");
    let e = hwfit_wasm::load_device_database(JsValue::from_str("id,name\nx"))
        .await
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>(), "{e:?}");
    let count = hwfit_wasm::load_device_database(JsValue::from_str(DEVICE_DATABASE))
        .await
        .expect("the bundled database parses");
    assert!(count >= 2000, "{count}");
    let input = js_sys::JSON::parse(r#"{"modelName": "bert-base-uncased", "devices": ["rtx 3080 ti"]}"#).unwrap();
    let answer = hwfit_wasm::predict(input, JsValue::UNDEFINED)
        .await
        .expect("a database device predicts");
    let entry = get(&answer, "predictions.nvidia-geforce-rtx-3080-ti");
    assert_eq!(get(&entry, "device").as_string().unwrap(), "NVIDIA GeForce RTX 3080 Ti");
    let found = hwfit_wasm::devices(js_sys::JSON::parse(r#"{"query": "m3 max"}"#).unwrap()).unwrap();
    assert!(array(&found).len() >= 2);
}

#[wasm_bindgen_test]
async fn calibration_predicts_on_the_rates_measured_here() {
    let request = || js_sys::JSON::parse(r#"{"modelName": "bert-base-uncased"}"#).unwrap();
    let started = js_sys::Date::now();
    let options = js_sys::JSON::parse(r#"{"calibrate": true}"#).unwrap();
    let p = hwfit_wasm::predict(request(), options)
        .await
        .expect("calibrated predict");
    console_log!(
        "benchmark + calibrated predict: {:.0} ms",
        js_sys::Date::now() - started
    );
    assert_eq!(
        get(&p, "predictions.wasm.source").as_string().unwrap(),
        "measured_profile"
    );
    assert!(get(&p, "predictions.wasm.device")
        .as_string()
        .unwrap()
        .contains("measured here"));
    if EXPECT_WEBGPU {
        assert_eq!(
            get(&p, "predictions.webgpu.source").as_string().unwrap(),
            "measured_profile"
        );
    }
    // benchmark()'s report handed back gives measured profiles too.
    let report = hwfit_wasm::benchmark(None).await.expect("benchmark");
    let options = js_sys::Object::new();
    Reflect::set(&options, &"calibration".into(), &report).unwrap();
    let p = hwfit_wasm::predict(request(), options.into())
        .await
        .expect("predict with a calibration");
    assert_eq!(
        get(&p, "predictions.wasm.source").as_string().unwrap(),
        "measured_profile"
    );
    // Without options: the catalog's classes.
    let p = hwfit_wasm::predict(request(), JsValue::UNDEFINED).await.unwrap();
    assert_ne!(
        get(&p, "predictions.wasm.source").as_string().unwrap(),
        "measured_profile"
    );
    let bad = js_sys::JSON::parse(r#"{"calibrate": "yes"}"#).unwrap();
    let e = hwfit_wasm::predict(request(), bad).await.unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>(), "{e:?}");
}

#[wasm_bindgen_test]
async fn charts_draw_the_matrix_on_this_browsers_devices() {
    let request = js_sys::JSON::parse(r#"{"models": ["bert-base-uncased"], "batchSizes": [1, 8, 64]}"#).unwrap();
    let answer = hwfit_wasm::charts(request, JsValue::UNDEFINED).await.expect("charts");
    let charts = array(&get(&answer, "charts"));
    let kinds: Vec<String> = charts.iter().map(|c| get(c, "kind").as_string().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "hardware_comparison",
            "batch_scaling",
            "efficiency",
            "memory",
            "precision_impact"
        ]
    );
    // No hardware named: the probed devices, as in select().
    let platforms = array(&get(&answer, "matrix.hardwarePlatforms"));
    let platforms: Vec<String> = platforms.iter().map(|p| p.as_string().unwrap()).collect();
    assert!(platforms.contains(&"wasm".to_owned()), "{platforms:?}");
    assert_eq!(platforms.contains(&"webgpu".to_owned()), EXPECT_WEBGPU, "{platforms:?}");
    let scaling = get(&charts[1], "svg").as_string().unwrap();
    assert!(scaling.starts_with("<svg") && scaling.contains(r#"data-series="wasm""#));
    assert_eq!(scaling.matches("<circle").count(), 3 * platforms.len());
    let bad = js_sys::JSON::parse(r#"{"models": ["bert-base-uncased"], "batchSizes": [0]}"#).unwrap();
    let e = hwfit_wasm::charts(bad, JsValue::UNDEFINED).await.unwrap_err();
    assert!(e.is_instance_of::<js_sys::RangeError>(), "{e:?}");
}

/// The default learned model runs through tract in wasm and computes what the Rust network computes
/// (the committed reference) within 1e-5 and what tract computes natively within 1e-12 (so the
/// package and the native faces correct a prediction by the same factor); through the package it
/// corrects predictions inside its domain, and `unloadPredictor()` turns it off.
#[cfg(feature = "linked-modules")]
#[wasm_bindgen_test]
async fn the_learned_model_runs_through_tract_and_matches_the_reference() {
    use hwfit_wasm_learn::reference::{cases, TOLERANCE, TRACT_TOLERANCE};
    let model = hwfit_wasm_learn::load(None).expect("the default model loads");
    let cases = cases().expect("the committed reference");
    assert!(cases.len() >= 50, "{}", cases.len());
    for case in &cases {
        let got = model.evaluate(&case.features).expect("tract runs");
        assert!(
            (got - f64::from(case.correction)).abs() <= TOLERANCE,
            "{}: tract in wasm {got} vs reference {}",
            case.step,
            case.correction
        );
        assert!(
            (got - case.tract).abs() <= TRACT_TOLERANCE,
            "{}: tract in wasm {got} vs natively {}",
            case.step,
            case.tract
        );
    }
    let e = hwfit_wasm::load_predictor(JsValue::from_str("model.onnx"))
        .await
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::TypeError>(), "{e:?}");
    let e = hwfit_wasm::load_predictor(js_sys::Uint8Array::from(&b"not a model"[..]).into())
        .await
        .unwrap_err();
    assert!(e.is_instance_of::<js_sys::Error>(), "{e:?}");
    let info = hwfit_wasm::load_predictor(JsValue::UNDEFINED)
        .await
        .expect("the default loads");
    assert!(!array(&get(&info, "domain.cells")).is_empty());
    assert_eq!(array(&get(&info, "features")).len(), cases[0].features.len());
    let request = || {
        js_sys::JSON::parse(r#"{"modelName": "Llama 3 8B", "precision": "q4_k_m", "devices": ["rtx 4090"]}"#).unwrap()
    };
    let answer = hwfit_wasm::predict(request(), JsValue::UNDEFINED)
        .await
        .expect("predict");
    let entry = get(&answer, "predictions.nvidia-rtx-4090");
    assert_eq!(get(&entry, "source").as_string().as_deref(), Some("learned"));
    assert_eq!(get(&entry, "runtime").as_string().as_deref(), Some("llama.cpp"));
    let analytic = get(&entry, "analyticThroughput").as_f64().expect("the analytic figure");
    hwfit_wasm::unload_predictor().expect("unload");
    let answer = hwfit_wasm::predict(request(), JsValue::UNDEFINED)
        .await
        .expect("predict");
    let entry = get(&answer, "predictions.nvidia-rtx-4090");
    assert_eq!(get(&entry, "source").as_string().as_deref(), Some("analytic_model"));
    assert_eq!(get(&entry, "throughput").as_f64(), Some(analytic));
}
