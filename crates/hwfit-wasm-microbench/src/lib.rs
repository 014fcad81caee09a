//! hwfit's benchmark module for the web (`bench/hwfit_bench_bg.wasm` in the npm package, loaded by
//! `benchmark()` and `{calibrate: true}` on first use so the questions' module stays small): the
//! same WGSL module as the native side (hwfit-microbench's `shaders/microbench.wgsl`) through wgpu's
//! WebGPU back-end, and the CPU kernel compiled to wasm, with the browser's sampling
//! (`BenchConfig::browser`: ≥ 5 ms per sample, median of 3, 16 MiB copies) to stay near a second
//! even on a software adapter. Nothing here panics across the boundary.

use hwfit_core::Measurement;
use hwfit_js::{from_js, range_error, to_js, BenchmarkOptions, BenchmarkReport};
use hwfit_microbench::{cpu, gpu, BenchConfig};
use wasm_bindgen::prelude::*;

/// Which adapter to ask for.
#[derive(Clone, Copy)]
enum Power {
    High,
    Low,
}

async fn gpu_measurement(power: Power, config: &BenchConfig) -> Result<Measurement, String> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    let gpu = js_sys::Reflect::get(&navigator, &"gpu".into()).unwrap_or(JsValue::UNDEFINED);
    if gpu.is_undefined() || gpu.is_null() {
        return Err(String::from(
            "navigator.gpu is absent (WebGPU not supported or not enabled here)",
        ));
    }
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::BROWSER_WEBGPU;
    let instance = wgpu::Instance::new(desc);
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: match power {
                Power::High => wgpu::PowerPreference::HighPerformance,
                Power::Low => wgpu::PowerPreference::LowPower,
            },
            ..Default::default()
        })
        .await
        .map_err(|e| format!("no WebGPU adapter: {e}"))?;
    gpu::run(&adapter, config).await.map_err(|e| e.to_string())
}

/// Runs the microbenchmarks: `{noGpu?, noCpu?, powerPreference?}` → `{gpu, gpuError?, cpu}` (the
/// questions' module calls it as its `benchmark()`).
#[wasm_bindgen(js_name = runBenchmark)]
pub async fn run_benchmark(options: JsValue) -> Result<JsValue, JsValue> {
    console_error_panic_hook::set_once();
    let options: BenchmarkOptions = if options.is_undefined() || options.is_null() {
        BenchmarkOptions::default()
    } else {
        from_js(options, "benchmark")?
    };
    to_js(&run(&options).await?)
}

/// The microbenchmarks, as `benchmark()` and `{calibrate: true}` run them.
pub async fn run(options: &BenchmarkOptions) -> Result<BenchmarkReport, JsValue> {
    let power = match options.power_preference.as_deref() {
        None | Some("high-performance") => Power::High,
        Some("low-power") => Power::Low,
        Some(other) => {
            return Err(range_error(&format!(
                "benchmark: powerPreference must be 'high-performance' or 'low-power', not '{other}'"
            )))
        }
    };
    let config = BenchConfig::browser();
    let (gpu, gpu_error) = if options.no_gpu {
        (None, None)
    } else {
        match gpu_measurement(power, &config).await {
            Ok(m) => (Some(m), None),
            Err(e) => (None, Some(e)),
        }
    };
    let cpu = (!options.no_cpu).then(|| cpu::run(&config));
    Ok(BenchmarkReport { gpu, gpu_error, cpu })
}
