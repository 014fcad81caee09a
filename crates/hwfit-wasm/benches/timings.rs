//! Per-call timings of the npm package's questions in headless Chromium, once warm (a repeated
//! `select()`, `predict()`, the learned predictor) — a benchmark, not a test: it prints figures and
//! asserts only that the calls succeed. `scripts/bench-browser` runs it (`cargo bench --bench timings`) with the
//! WebGPU flags (SwiftShader) and the modules linked in, and prints the figures the README records.
//! The start-up (init, database, probe, first recommendation) is timed on the package as it ships, by
//! `webdriver/tests/startup.rs`: this test build links the learned predictor (tract) and the test
//! harness into one module many times the core's size.
// Run by wasm-bindgen-test-runner, which calls the exported tests; natively there is nothing to time.
fn main() {}

#[cfg(target_arch = "wasm32")]
mod in_browser {

    use wasm_bindgen::prelude::*;
    use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

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

    /// Milliseconds per call of `ask`: 20 warm-up calls, then the median of 15 batches of 20 (the
    /// JIT tiers up during the first calls; a median ignores a garbage-collection pause).
    async fn per_call<F: std::future::Future<Output = ()>>(mut ask: impl FnMut() -> F) -> f64 {
        const BATCH: u32 = 20;
        for _ in 0..BATCH {
            ask().await;
        }
        let mut batches = Vec::new();
        for _ in 0..15 {
            let t = now();
            for _ in 0..BATCH {
                ask().await;
            }
            batches.push((now() - t) / f64::from(BATCH));
        }
        batches.sort_by(f64::total_cmp);
        batches[batches.len() / 2]
    }

    #[wasm_bindgen_test]
    async fn time_the_questions() {
        let rows = hwfit_wasm::load_device_database(JsValue::from_str(DEVICE_DATABASE))
            .await
            .expect("database");
        hwfit_wasm::probe().await.expect("probe");
        let select = || async {
            let request = request(r#"{"modelName": "bert-base-uncased"}"#);
            hwfit_wasm::select(request, JsValue::UNDEFINED).await.expect("select");
        };
        let repeated_select = per_call(select).await;
        let predict = || async {
            let request = request(r#"{"modelName": "bert-base-uncased", "hardware": ["wasm"]}"#);
            hwfit_wasm::predict(request, JsValue::UNDEFINED).await.expect("predict");
        };
        let predict = per_call(predict).await;
        let on_device = || async {
            let request = request(r#"{"modelName": "bert-base-uncased", "devices": ["rtx 3080 ti"]}"#);
            hwfit_wasm::predict(request, JsValue::UNDEFINED).await.expect("predict");
        };
        let on_device = per_call(on_device).await;
        // The learned predictor (linked in here; the package imports its learn/ module): one learned
        // prediction, then the same request on the analytic model alone.
        let t4 = now();
        hwfit_wasm::load_predictor(JsValue::UNDEFINED)
            .await
            .expect("the learned model");
        let load_learned = now() - t4;
        let llama = || async {
            let request = request(r#"{"modelName": "Llama 3 8B", "precision": "q4_k_m", "devices": ["rtx 4090"]}"#);
            hwfit_wasm::predict(request, JsValue::UNDEFINED).await.expect("predict");
        };
        let learned = per_call(llama).await;
        hwfit_wasm::unload_predictor().expect("unload");
        let analytic = per_call(llama).await;
        console_log!("the device database: {rows} devices");
        console_log!(
        "timings (ms): load the learned model {load_learned:.1}; learned predict {learned:.3}; analytic predict {analytic:.3}"
    );
        console_log!(
        "timings (ms): repeated select {repeated_select:.3}; predict on a hardware type {predict:.3}; predict on a database device {on_device:.3}"
    );
    }
}
