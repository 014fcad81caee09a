//! `benchmark()`: the same WGSL module as the native side (hwfit-bench's `shaders/microbench.wgsl`)
//! through wgpu's WebGPU back-end, and the CPU kernel compiled to wasm, with the browser's sampling
//! (`BenchConfig::browser`: ≥ 5 ms per sample, median of 3, 16 MiB copies) to stay near a second
//! even on a software adapter.

use hwfit_bench::{cpu, BenchConfig};
use hwfit_core::Measurement;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::convert::{from_js, to_js};

#[derive(Deserialize, Default)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default, rename_all = "camelCase")]
pub(crate) struct BenchmarkOptions {
    /// Skip the GPU part.
    no_gpu: bool,
    /// Skip the CPU part.
    no_cpu: bool,
    /// `high-performance` (default) or `low-power`.
    power_preference: Option<String>,
}

/// `benchmark()`'s answer; read back as a calibration (`predict(request, {calibration})`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct BenchmarkReport {
    /// The WGSL microbenchmark on the WebGPU adapter (absent when it could not run: see `gpuError`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) gpu: Option<Measurement>,
    /// Why there is no GPU figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) gpu_error: Option<String>,
    /// The CPU kernel compiled to wasm (one thread; absent with `noCpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cpu: Option<Measurement>,
}

/// Which adapter to ask for.
#[derive(Clone, Copy)]
enum Power {
    High,
    Low,
}

#[cfg(not(feature = "gpu-benchmark"))]
#[allow(clippy::unused_async)]
async fn gpu_measurement(_power: Power, _config: &BenchConfig) -> Result<Measurement, String> {
    Err(String::from(
        "this build of hwfit has no GPU benchmark (feature gpu-benchmark off)",
    ))
}

#[cfg(feature = "gpu-benchmark")]
async fn gpu_measurement(power: Power, config: &BenchConfig) -> Result<Measurement, String> {
    use hwfit_bench::gpu;
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

/// Runs the microbenchmarks: `{noGpu?, noCpu?, powerPreference?}` → `{gpu, gpuError?, cpu}`.
#[wasm_bindgen(unchecked_return_type = "BenchmarkReport")]
pub async fn benchmark(
    #[wasm_bindgen(unchecked_param_type = "BenchmarkOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options: BenchmarkOptions = match options {
        Some(o) if !o.is_undefined() && !o.is_null() => from_js(o, "benchmark")?,
        _ => BenchmarkOptions::default(),
    };
    to_js(&run(&options).await?)
}

/// The microbenchmarks, as `benchmark()` and `{calibrate: true}` run them.
pub(crate) async fn run(options: &BenchmarkOptions) -> Result<BenchmarkReport, JsValue> {
    let power = match options.power_preference.as_deref() {
        None | Some("high-performance") => Power::High,
        Some("low-power") => Power::Low,
        Some(other) => {
            return Err(crate::convert::range_error(&format!(
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
