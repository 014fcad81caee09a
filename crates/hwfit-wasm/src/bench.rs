//! `benchmark()`: the package's benchmark module (`bench/hwfit_bench.js`, crate `hwfit-wasm-bench`:
//! the WGSL microbenchmark through wgpu's WebGPU back-end and the CPU kernel compiled to wasm),
//! imported on first use so this module stays small. The `linked-benchmark` feature links it in
//! instead (the browser tests, which have no package around them, use it).

use hwfit_js::{from_js, to_js, BenchmarkReport};
use wasm_bindgen::prelude::*;

#[cfg(not(feature = "linked-benchmark"))]
#[wasm_bindgen(inline_js = "let loading;
function load() {
  loading ??= (async () => {
    const module = await import(new URL('../../bench/hwfit_bench.js', import.meta.url).href);
    const wasm = new URL('../../bench/hwfit_bench_bg.wasm', import.meta.url);
    if (wasm.protocol === 'file:') {
      const fs = 'node:fs/promises';
      const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
      await module.default({ module_or_path: await readFile(wasm) });
    } else {
      await module.default({ module_or_path: wasm });
    }
    return module;
  })();
  loading.catch(() => { loading = undefined; });
  return loading;
}
export async function runBenchmark(options) {
  let module;
  try {
    module = await load();
  } catch (e) {
    throw new Error(`benchmark: the benchmark module (bench/hwfit_bench.js beside hwfit.js) could not be loaded: ${e && e.message || e}`);
  }
  return module.runBenchmark(options);
}")]
extern "C" {
    /// The benchmark module's `runBenchmark(options)`, the module imported and instantiated once
    /// (in node from the file beside this one). Its errors (a `TypeError` for a wrong option, a
    /// `RangeError` for a wrong `powerPreference`) come through as they are.
    #[wasm_bindgen(catch, js_name = runBenchmark)]
    async fn run_benchmark(options: JsValue) -> Result<JsValue, JsValue>;
}

/// The benchmark module's report.
#[cfg(not(feature = "linked-benchmark"))]
pub(crate) async fn run(options: JsValue) -> Result<BenchmarkReport, JsValue> {
    from_js(run_benchmark(options).await?, "benchmark")
}

/// The benchmark, linked in.
#[cfg(feature = "linked-benchmark")]
pub(crate) async fn run(options: JsValue) -> Result<BenchmarkReport, JsValue> {
    let options = if options.is_undefined() || options.is_null() {
        hwfit_js::BenchmarkOptions::default()
    } else {
        from_js(options, "benchmark")?
    };
    hwfit_wasm_bench::run(&options).await
}

/// Runs the microbenchmarks: `{noGpu?, noCpu?, powerPreference?}` → `{gpu, gpuError?, cpu}`. The
/// benchmark module (≈ 60 KB gzip) is imported on the first call.
#[wasm_bindgen(unchecked_return_type = "BenchmarkReport")]
pub async fn benchmark(
    #[wasm_bindgen(unchecked_param_type = "BenchmarkOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    to_js(&run(options.unwrap_or(JsValue::UNDEFINED)).await?)
}
