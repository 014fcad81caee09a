//! Timings of the npm package's questions in headless Chromium — a benchmark, not a test: it prints
//! figures and asserts only that the calls succeed. `scripts/bench-browser` runs it on a release
//! build with the WebGPU flags (SwiftShader) and prints the figures the README records.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const DEVICE_DATABASE: &str = include_str!("../../hwfit-core/data/device_db.csv");

fn now() -> f64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into()).unwrap();
    let now = js_sys::Reflect::get(&performance, &"now".into()).unwrap();
    js_sys::Function::from(now)
        .call0(&performance)
        .unwrap()
        .as_f64()
        .unwrap()
}

fn request(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

#[wasm_bindgen_test]
async fn time_the_questions() {
    const REPEAT: u32 = 50;
    let t0 = now();
    let rows = hwfit_wasm::load_device_database(JsValue::from_str(DEVICE_DATABASE))
        .await
        .expect("database");
    let t1 = now();
    hwfit_wasm::probe().await.expect("probe");
    let t2 = now();
    let select = || request(r#"{"modelName": "bert-base-uncased"}"#);
    hwfit_wasm::select(select(), JsValue::UNDEFINED).await.expect("select");
    let t3 = now();
    for _ in 0..REPEAT {
        hwfit_wasm::select(select(), JsValue::UNDEFINED).await.expect("select");
    }
    let t4 = now();
    let predict = || request(r#"{"modelName": "bert-base-uncased", "hardware": ["wasm"]}"#);
    for _ in 0..REPEAT {
        hwfit_wasm::predict(predict(), JsValue::UNDEFINED)
            .await
            .expect("predict");
    }
    let t5 = now();
    let on_device = || request(r#"{"modelName": "bert-base-uncased", "devices": ["rtx 3080 ti"]}"#);
    for _ in 0..REPEAT {
        hwfit_wasm::predict(on_device(), JsValue::UNDEFINED)
            .await
            .expect("predict");
    }
    let t6 = now();
    console_log!(
        "timings (ms): load the {rows}-row device database {:.1}; probe {:.1}; first select {:.2} (probe → first recommendation {:.1}); repeated select {:.3}; predict on a hardware type {:.3}; predict on a database device {:.3}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        t3 - t1,
        (t4 - t3) / f64::from(REPEAT),
        (t5 - t4) / f64::from(REPEAT),
        (t6 - t5) / f64::from(REPEAT)
    );
}
