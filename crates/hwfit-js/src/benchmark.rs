//! `benchmark()`'s options and report: the benchmark module writes the report, the questions'
//! module reads it back as a calibration (`predict(request, {calibration})`).

use hwfit_core::Measurement;
use serde::{Deserialize, Serialize};

/// Options of `benchmark()`.
#[derive(Debug, Clone, Deserialize, Default)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default, rename_all = "camelCase")]
pub struct BenchmarkOptions {
    /// Skip the GPU part.
    pub no_gpu: bool,
    /// Skip the CPU part.
    pub no_cpu: bool,
    /// `high-performance` (default) or `low-power`.
    pub power_preference: Option<String>,
}

/// `benchmark()`'s answer; read back as a calibration (`predict(request, {calibration})`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields, rename_all = "camelCase")]
pub struct BenchmarkReport {
    /// The WGSL microbenchmark on the WebGPU adapter (absent when it could not run: see `gpuError`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<Measurement>,
    /// Why there is no GPU figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_error: Option<String>,
    /// The CPU kernel compiled to wasm (one thread; absent with `noCpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Measurement>,
}
