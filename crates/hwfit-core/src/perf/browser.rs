//! The browser step model: what a step costs on WebGPU, WebAssembly and WebNN besides the roofline.
//!
//! - **WebGPU** dispatches one compute pass per operator: a step costs `kernels × dispatch_us` however
//!   small the batch, plus one `sync_ms` per step (input upload, submit, `mapAsync` readback of the
//!   output). Dynamically quantized int8 operators have no WebGPU kernels in ONNX Runtime Web (the
//!   runtime transformers.js uses): each quantized operator is a CPU round trip, another `sync_ms`.
//!   The first call also compiles every distinct pipeline (`first_run_ms`, reported apart).
//! - **WebAssembly** runs the kernels on the CPU: no dispatch or readback cost; its peak is the
//!   threads it may use (one unless the page is cross-origin isolated) × 128-bit SIMD.
//! - **WebNN** compiles the whole graph once: one dispatch and one readback per step.
//!
//! The coefficients are fitted to the public browser measurements in `data/measured/` (see
//! [`super::fitting`]).

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::operators;
use crate::browser::BrowserEngine;
use crate::spec::ModelSpec;
use crate::{HardwareType, Precision, Workload};

/// Fitted constants of the browser step model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserCoefficients {
    /// WebGPU: time per kernel dispatch (encode, bind, dispatch, barrier), µs.
    pub dispatch_us: f64,
    /// WebGPU/WebNN: time per step to upload inputs, submit and read the output back, ms; also the
    /// cost of each CPU round trip of a quantized operator.
    pub sync_ms: f64,
    /// WebGPU: achieved share of the shader cores' peak.
    pub webgpu_compute: f64,
    /// WebGPU: achieved share of the memory bandwidth.
    pub webgpu_memory: f64,
    /// WebAssembly: achieved share of the threads' 128-bit SIMD peak.
    pub wasm_compute: f64,
    /// WebGPU: compile time per distinct pipeline on the first call, ms.
    pub compile_ms: f64,
    /// What a round trip costs in each engine beyond Chromium's `sync_ms` (the other constants
    /// are Chromium's), fitted on steps timed in both (`data/measured/browser_engines.csv`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<EngineCosts>,
    /// llama.cpp's WebAssembly build: each kernel's share of the threads' SIMD peak (in place of
    /// `wasm_compute`, ONNX Runtime Web's), fitted on `data/measured/llamacpp_wasm.csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llama_cpp_wasm: Option<super::wasm_kernels::WasmKernelShares>,
    /// What the constants were fitted on.
    pub fitted_on: String,
}

/// A browser engine's WebGPU round trip beside Chromium's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct EngineCosts {
    /// The engine.
    pub engine: BrowserEngine,
    /// Added to each CPU round trip of a WebGPU step, ms.
    pub extra_round_trip_ms: f64,
    /// Pairs (the same step in this engine and in Chromium) it was fitted on.
    pub pairs: usize,
    /// Their sources.
    pub sources: usize,
}

/// The fixed costs of one browser step, next to its compute (IPFS Accelerate has no such breakdown).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FixedCosts {
    /// Kernels the step dispatches (WebGPU: one per operator; WebNN: the compiled graph, 1).
    pub kernels: u32,
    /// `kernels × dispatch_us`, ms.
    pub dispatch_ms: f64,
    /// CPU round trips: the step's readback plus one per quantized operator without a GPU kernel.
    pub round_trips: u32,
    /// `round_trips × sync_ms`, ms.
    pub sync_ms: f64,
    /// The roofline part (FLOPs or bytes at the achieved rate), ms.
    pub compute_ms: f64,
    /// Pipeline compilation on the first call, ms; not part of `latency`.
    pub first_run_ms: f64,
}

/// The fixed costs of a step on a browser back-end, given the roofline part (`compute_ms`), in
/// `engine` (Chromium's costs where it is `None` or has no fit of its own).
#[must_use]
pub fn fixed_costs(
    coefficients: &BrowserCoefficients,
    hardware: HardwareType,
    spec: &ModelSpec,
    workload: Workload,
    precision: Precision,
    compute_ms: f64,
    engine: Option<BrowserEngine>,
) -> FixedCosts {
    match hardware {
        HardwareType::Webgpu => {
            let kernels = operators::per_step(spec, workload);
            let quantized = if precision == Precision::Int8 {
                operators::with_weights(spec, workload)
            } else {
                0
            };
            let round_trips = 1 + quantized;
            FixedCosts {
                kernels,
                dispatch_ms: f64::from(kernels) * coefficients.dispatch_us / 1e3,
                round_trips,
                sync_ms: f64::from(round_trips) * coefficients.round_trip_ms(engine),
                compute_ms,
                first_run_ms: f64::from(operators::distinct(spec, workload)) * coefficients.compile_ms,
            }
        }
        HardwareType::Webnn => FixedCosts {
            kernels: 1,
            dispatch_ms: coefficients.dispatch_us / 1e3,
            round_trips: 1,
            sync_ms: coefficients.sync_ms,
            compute_ms,
            first_run_ms: 0.0,
        },
        _ => FixedCosts {
            kernels: 0,
            dispatch_ms: 0.0,
            round_trips: 0,
            sync_ms: 0.0,
            compute_ms,
            first_run_ms: 0.0,
        },
    }
}

impl BrowserCoefficients {
    /// A WebGPU round trip in `engine`, ms: Chromium's `sync_ms` plus the engine's fitted extra.
    #[must_use]
    pub fn round_trip_ms(&self, engine: Option<BrowserEngine>) -> f64 {
        let extra = engine
            .and_then(|e| self.engines.iter().find(|c| c.engine == e))
            .map_or(0.0, |c| c.extra_round_trip_ms);
        self.sync_ms + extra
    }

    /// The achieved shares of peak for a browser back-end (WebNN as WebGPU); overheads come from
    /// [`fixed_costs`].
    #[must_use]
    pub fn efficiency(&self, hardware: HardwareType) -> super::Efficiency {
        self.efficiency_of(hardware, None, Precision::Fp32)
    }

    /// [`Self::efficiency`] for `runtime` at `precision`: llama.cpp's WebAssembly build computes at
    /// its kernel's fitted share (see [`super::wasm_kernels`]), other runtimes at ONNX Runtime Web's.
    #[must_use]
    pub fn efficiency_of(
        &self,
        hardware: HardwareType,
        runtime: Option<super::Runtime>,
        precision: Precision,
    ) -> super::Efficiency {
        let llama_cpp = self
            .llama_cpp_wasm
            .as_ref()
            .filter(|_| hardware == HardwareType::Wasm && runtime == Some(super::Runtime::LlamaCpp))
            .and_then(|k| k.share(precision));
        let (compute, memory) = match hardware {
            HardwareType::Wasm => (llama_cpp.unwrap_or(self.wasm_compute), 1.0),
            _ => (self.webgpu_compute, self.webgpu_memory),
        };
        super::Efficiency {
            compute,
            memory,
            overhead_ms: 0.0,
        }
    }
}

impl FixedCosts {
    /// Dispatch and round-trip time per step, ms.
    #[must_use]
    pub fn overhead_ms(&self) -> f64 {
        self.dispatch_ms + self.sync_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    fn spec(name: &str) -> ModelSpec {
        Catalog::builtin().resolve(name).unwrap().spec
    }

    #[test]
    fn only_webgpu_int8_pays_round_trips() {
        let bert = spec("bert-base-uncased");
        let c = BrowserCoefficients {
            dispatch_us: 20.0,
            sync_ms: 1.0,
            webgpu_compute: 0.5,
            webgpu_memory: 0.5,
            wasm_compute: 0.5,
            compile_ms: 10.0,
            engines: alloc::vec![EngineCosts {
                engine: BrowserEngine::Firefox,
                extra_round_trip_ms: 100.0,
                pairs: 1,
                sources: 1,
            }],
            llama_cpp_wasm: None,
            fitted_on: String::new(),
        };
        let step =
            |hardware, precision, engine| fixed_costs(&c, hardware, &bert, Workload::Forward, precision, 1.0, engine);
        let fp32 = step(HardwareType::Webgpu, Precision::Fp32, None);
        let int8 = step(HardwareType::Webgpu, Precision::Int8, None);
        assert_eq!(fp32.round_trips, 1);
        assert_eq!(int8.round_trips, 1 + 12 * 6 + 1);
        assert!((fp32.dispatch_ms - 171.0 * 0.02).abs() < 1e-9);
        let wasm = step(HardwareType::Wasm, Precision::Int8, Some(BrowserEngine::Firefox));
        assert!(wasm.overhead_ms() == 0.0 && wasm.first_run_ms == 0.0);
        // An engine with a fit pays its extra on each round trip; one without pays Chromium's.
        let firefox = step(HardwareType::Webgpu, Precision::Int8, Some(BrowserEngine::Firefox));
        assert!((firefox.sync_ms - f64::from(int8.round_trips) * 101.0).abs() < 1e-9);
        assert!((firefox.dispatch_ms - int8.dispatch_ms).abs() < 1e-12);
        assert_eq!(
            step(HardwareType::Webgpu, Precision::Fp32, Some(BrowserEngine::Webkit)),
            fp32
        );
    }
}
