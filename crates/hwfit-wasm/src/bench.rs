//! `benchmark()`: the package's benchmark module (`bench/hwfit_microbench.js`, crate `hwfit-wasm-microbench`:
//! the WGSL microbenchmark through wgpu's WebGPU back-end and the CPU kernel compiled to wasm),
//! imported on first use (see `modules.rs`).

use hwfit_js::{from_js, to_js, BenchmarkReport};
use wasm_bindgen::prelude::*;

/// The benchmark module's report.
#[cfg(not(feature = "linked-modules"))]
pub(crate) async fn run(options: JsValue) -> Result<BenchmarkReport, JsValue> {
    from_js(
        crate::modules::call_module("bench", "runBenchmark", options).await?,
        "benchmark",
    )
}

/// The benchmark, linked in.
#[cfg(feature = "linked-modules")]
pub(crate) async fn run(options: JsValue) -> Result<BenchmarkReport, JsValue> {
    let options = if options.is_undefined() || options.is_null() {
        hwfit_js::BenchmarkOptions::default()
    } else {
        from_js(options, "benchmark")?
    };
    hwfit_wasm_microbench::run(&options).await
}

/// Runs the microbenchmarks: `{noGpu?, noCpu?, powerPreference?}` → `{gpu, gpuError?, cpu}`. The
/// benchmark module (≈ 60 KB gzip) is imported on the first call.
#[wasm_bindgen(unchecked_return_type = "BenchmarkReport")]
pub async fn benchmark(
    #[wasm_bindgen(unchecked_param_type = "BenchmarkOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    to_js(&run(options.unwrap_or(JsValue::UNDEFINED)).await?)
}
