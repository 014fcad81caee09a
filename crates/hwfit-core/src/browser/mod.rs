//! What a browser's capabilities mean for hwfit: which hardware types are usable, which GPU the
//! browser runs on ([`identify()`]) and which device each type is predicted on. The npm package
//! probes; this decides.

pub mod describe;
pub mod identify;
pub mod renderer;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use describe::BrowserEngine;
pub use identify::{identify, GpuIdentification, IdentificationConfidence};

use crate::device::DenseTflops;
use crate::{
    measured_device, AvailableHardware, Candidate, Device, DeviceCatalog, HardwareType, MeasuredIdentity, Measurement,
};

/// The facts of a probe that decide the mapping: what the npm package's `probe()` reports as
/// `capabilities`, and what the other faces take as `browser` (this object, with the probe's
/// camelCase or snake_case names, or the same facts in words: [`BrowserCapabilities::describe`]).
/// A fact left out is its default (no WebGPU, no WebAssembly, not isolated).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserCapabilities {
    /// The engine (from `navigator.userAgent`), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<BrowserEngine>,
    /// The WebGPU adapter, when one was granted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webgpu: Option<WebGpuAdapterFacts>,
    /// WebNN device types whose `createContext` succeeded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "camel-case", serde(alias = "webnn_contexts"))]
    #[cfg_attr(not(feature = "camel-case"), serde(alias = "webnnContexts"))]
    pub webnn_contexts: Vec<String>,
    /// Whether WebAssembly runs at all.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wasm: bool,
    /// WebGL's unmasked vendor and renderer (`WEBGL_debug_renderer_info`), where exposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webgl: Option<WebGlRenderer>,
    /// Whether WebAssembly SIMD validates (`None`: not probed; every current browser has it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "camel-case", serde(alias = "wasm_simd"))]
    #[cfg_attr(not(feature = "camel-case"), serde(alias = "wasmSimd"))]
    pub wasm_simd: Option<bool>,
    /// `crossOriginIsolated`: WebAssembly threads need it (`SharedArrayBuffer`).
    #[serde(default, skip_serializing_if = "is_false")]
    #[cfg_attr(feature = "camel-case", serde(alias = "cross_origin_isolated"))]
    #[cfg_attr(not(feature = "camel-case"), serde(alias = "crossOriginIsolated"))]
    pub cross_origin_isolated: bool,
    /// `navigator.hardwareConcurrency` (logical cores).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "camel-case", serde(alias = "hardware_concurrency"))]
    #[cfg_attr(not(feature = "camel-case"), serde(alias = "hardwareConcurrency"))]
    pub hardware_concurrency: Option<u32>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

/// Peak of one WebAssembly thread with 128-bit SIMD, GFLOP/s: 4 f32 lanes × (multiply + add) ×
/// 2 SIMD units × 3 GHz (the `wasm` class device's rule; WebAssembly has no fused multiply-add).
pub const WASM_SIMD_GFLOPS_PER_THREAD: f64 = 48.0;

/// Threads a WebAssembly runtime uses: ONNX Runtime Web's default, `min(4, ceil(cores / 2))`, on a
/// cross-origin isolated page; one otherwise (no `SharedArrayBuffer`, no threads).
#[must_use]
pub fn wasm_threads(caps: &BrowserCapabilities) -> u32 {
    onnx_runtime_web_threads(
        caps.cross_origin_isolated
            .then(|| caps.hardware_concurrency.unwrap_or(1)),
    )
}

/// ONNX Runtime Web's threads on a page that may thread on `page_threads` logical cores (`None`:
/// not isolated, one thread).
fn onnx_runtime_web_threads(page_threads: Option<u32>) -> u32 {
    page_threads.map_or(1, |cores| cores.div_ceil(2).clamp(1, 4))
}

/// The `wasm` class device with the peak of `threads` threads, with or without SIMD (scalar code
/// runs one lane: a quarter of it). Int8 runs at twice the f32 rate with SIMD (`i32x4.dot_i16x8_s`:
/// 8 multiply-adds per instruction against 4).
#[must_use]
pub fn wasm_device(class: &Device, threads: u32, simd: bool) -> Device {
    let per_thread = if simd {
        WASM_SIMD_GFLOPS_PER_THREAD
    } else {
        WASM_SIMD_GFLOPS_PER_THREAD / 4.0
    };
    let fp32 = f64::from(threads) * per_thread / 1e3;
    Device {
        id: format!("wasm-{threads}t{}", if simd { "-simd" } else { "" }),
        name: format!(
            "WebAssembly on the CPU ({threads} thread{}, {})",
            if threads == 1 { "" } else { "s" },
            if simd { "SIMD" } else { "no SIMD" }
        ),
        dense_tflops: DenseTflops {
            fp32,
            fp16: None,
            fp16_acc16: None,
            bf16: None,
            fp8: None,
            int8: simd.then_some(2.0 * fp32),
        },
        source: format!(
            "{threads} × {per_thread} GFLOP/s ({}; threads: the runtime's default on this page)",
            if simd {
                "4 f32 lanes × multiply and add × 2 SIMD units × 3 GHz"
            } else {
                "scalar: one lane"
            }
        ),
        ..class.clone()
    }
}

/// Threads llama.cpp's WebAssembly build (wllama) runs: half the logical cores,
/// `floor(hardwareConcurrency / 2)`, on a cross-origin isolated page (its multi-thread build needs
/// `SharedArrayBuffer`), one otherwise (ngxson/wllama `src/wllama.ts`: "by default, on
/// multi-thread build, we take half number of available threads").
#[must_use]
pub fn llama_cpp_threads(page_threads: Option<u32>) -> u32 {
    page_threads.map_or(1, |cores| (cores / 2).max(1))
}

/// The WebAssembly device of a probed browser (see [`wasm_threads`]), remembering the cores its
/// page may thread on.
#[must_use]
pub fn wasm_view(caps: &BrowserCapabilities, class: &Device) -> Device {
    Device {
        page_threads: caps
            .cross_origin_isolated
            .then(|| caps.hardware_concurrency.unwrap_or(1)),
        ..wasm_device(class, wasm_threads(caps), caps.wasm_simd.unwrap_or(true))
    }
}

/// A browser's WebAssembly view as `runtime` runs it: llama.cpp's WebAssembly build on its own
/// threads ([`llama_cpp_threads`]), every other runtime on ONNX Runtime Web's (the view as built).
/// Other devices are returned as they are.
#[must_use]
pub fn wasm_view_for(device: &Device, runtime: crate::perf::Runtime) -> alloc::borrow::Cow<'_, Device> {
    use alloc::borrow::Cow;
    if device.hardware_type != HardwareType::Wasm || runtime != crate::perf::Runtime::LlamaCpp {
        return Cow::Borrowed(device);
    }
    let threads = llama_cpp_threads(device.page_threads);
    if threads == onnx_runtime_web_threads(device.page_threads) {
        return Cow::Borrowed(device);
    }
    let simd = device.dense_tflops.int8.is_some();
    Cow::Owned(Device {
        page_threads: device.page_threads,
        ..wasm_device(device, threads, simd)
    })
}

/// WebGL's `UNMASKED_VENDOR_WEBGL` and `UNMASKED_RENDERER_WEBGL`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebGlRenderer {
    /// Unmasked vendor (`Google Inc. (NVIDIA)`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub vendor: String,
    /// Unmasked renderer (`ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 …)`).
    pub renderer: String,
}

/// What identifies a WebGPU adapter (`GPUAdapterInfo` and `isFallbackAdapter`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebGpuAdapterFacts {
    /// `isFallbackAdapter` (a software adapter such as SwiftShader).
    #[serde(default, skip_serializing_if = "is_false", alias = "isFallbackAdapter")]
    #[cfg_attr(feature = "camel-case", serde(alias = "is_fallback"))]
    #[cfg_attr(not(feature = "camel-case"), serde(alias = "isFallback"))]
    pub is_fallback: bool,
    /// `info.vendor` (`nvidia`, `amd`, `intel`, `apple`, `google` …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub vendor: String,
    /// `info.architecture` (`ampere`, `rdna-3`, `gen-12lp`, `metal-3`, `swiftshader` …).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub architecture: String,
    /// `info.description`, where the browser gives one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `info.device`, where the browser gives one (Safari: `applem2ultra`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub device: String,
}

/// Catalog class of a WebGPU adapter: `webgpu-fallback` for software adapters (SwiftShader),
/// `webgpu-discrete` for NVIDIA and AMD discrete architectures, `webgpu-integrated` otherwise (Intel,
/// Apple M-series — `metal-*` architectures —, Qualcomm, ARM and unknown vendors: the conservative class).
#[must_use]
pub fn webgpu_class(facts: &WebGpuAdapterFacts) -> &'static str {
    let vendor = facts.vendor.to_ascii_lowercase();
    let arch = facts.architecture.to_ascii_lowercase();
    let description = facts.description.to_ascii_lowercase();
    if facts.is_fallback || arch.contains("swiftshader") || description.contains("swiftshader") {
        "webgpu-fallback"
    } else if vendor == "nvidia" || (vendor == "amd" && !description.contains("radeon graphics")) {
        "webgpu-discrete"
    } else {
        "webgpu-integrated"
    }
}

/// The usable hardware types and the catalog device each is predicted on.
#[must_use]
pub fn browser_targets(caps: &BrowserCapabilities) -> (AvailableHardware, Vec<(HardwareType, &'static str)>) {
    let mut targets = Vec::new();
    if let Some(facts) = &caps.webgpu {
        targets.push((HardwareType::Webgpu, webgpu_class(facts)));
    }
    if caps.wasm {
        targets.push((HardwareType::Wasm, "wasm"));
    }
    let mut present: Vec<(HardwareType, u32)> = targets.iter().map(|(h, _)| (*h, 1)).collect();
    if !caps.webnn_contexts.is_empty() {
        present.push((HardwareType::Webnn, caps.webnn_contexts.len() as u32));
    }
    (AvailableHardware::new(present), targets)
}

/// Selection candidates for a browser: WebGPU on the identified GPU (see [`identify()`]) or on its
/// class, WASM on the threads and SIMD the page allows ([`wasm_view`]), WebNN on each context's device
/// (an estimate).
#[must_use]
pub fn browser_candidates(caps: &BrowserCapabilities, catalog: &DeviceCatalog) -> Vec<Candidate> {
    candidates_on(caps, catalog, &identify(caps, catalog))
}

/// [`browser_candidates`] for a GPU already identified.
#[must_use]
pub fn candidates_on(caps: &BrowserCapabilities, catalog: &DeviceCatalog, gpu: &GpuIdentification) -> Vec<Candidate> {
    let identified = gpu.device_id.as_deref().and_then(|id| catalog.by_id(id));
    browser_targets(caps)
        .1
        .into_iter()
        .filter_map(|(hw, class)| {
            let class = catalog.by_id(class)?;
            let device = match identified {
                Some(gpu) if hw == HardwareType::Webgpu => webgpu_view(gpu),
                _ if hw == HardwareType::Wasm => wasm_view(caps, class),
                _ => class.clone(),
            };
            let device = if hw == HardwareType::Webgpu {
                in_engine(device, caps.engine)
            } else {
                device
            };
            Some(Candidate {
                key: String::from(hw.as_str()),
                device,
                resolved_from: None,
                installed: Vec::new(),
            })
        })
        .chain(webnn_candidates(caps, catalog, identified))
        .collect()
}

/// A WebGPU device as reached through `engine`: its round trips cost the engine's; named for the
/// engine where it is not Chromium (the step model's reference).
fn in_engine(device: Device, engine: Option<BrowserEngine>) -> Device {
    match engine {
        Some(BrowserEngine::Chromium) | None => Device {
            browser_engine: engine,
            ..device
        },
        Some(other) => Device {
            name: format!("{} ({})", device.name, other.display_name()),
            browser_engine: engine,
            ..device
        },
    }
}

/// WebNN contexts as candidates: `gpu` on the identified GPU (or the WebGPU class), `cpu` on all the
/// CPU's cores; predictions on them are estimates (`source: estimate`). An `npu` context has no
/// figures to predict with.
fn webnn_candidates<'a>(
    caps: &'a BrowserCapabilities,
    catalog: &'a DeviceCatalog,
    identified: Option<&'a Device>,
) -> impl Iterator<Item = Candidate> + 'a {
    caps.webnn_contexts.iter().filter_map(move |kind| {
        let base = match kind.as_str() {
            "gpu" => match identified {
                Some(gpu) => webgpu_view(gpu),
                None => catalog
                    .by_id(caps.webgpu.as_ref().map_or("webgpu-integrated", webgpu_class))?
                    .clone(),
            },
            "cpu" => wasm_device(
                catalog.by_id("wasm")?,
                caps.hardware_concurrency.unwrap_or(1).max(1),
                caps.wasm_simd.unwrap_or(true),
            ),
            _ => return None,
        };
        Some(Candidate {
            key: format!("webnn-{kind}"),
            device: Device {
                id: format!("webnn-{kind}-{}", base.id),
                name: format!("WebNN ({kind}) on {}", base.name.trim_start_matches("WebGPU on ")),
                hardware_type: HardwareType::Webnn,
                notes: Some(String::from(
                    "estimate: WebNN compiles the whole graph (one dispatch per step); no public WebNN measurements check it",
                )),
                ..base
            },
            resolved_from: None,
            installed: Vec::new(),
        })
    })
}

/// The shares of a GPU's peaks the browser step model achieves through WebGPU (its fitted
/// efficiencies).
fn browser_shares(hardware: HardwareType) -> Option<crate::SpecShares> {
    let model = crate::perf::PerfModel::builtin().ok()?;
    let b = model.coefficients().browser.as_ref()?;
    match hardware {
        HardwareType::Webgpu => Some(crate::SpecShares {
            compute: b.webgpu_compute,
            memory: b.webgpu_memory,
        }),
        _ => None,
    }
}

/// Browser candidates on measured rates, as the CLI's `--calibrate`: the microbenchmark's GPU
/// measurement replaces the WebGPU device and its CPU measurement the WASM device (memory stays the
/// identified device's or the class's); on an identified GPU a figure below its spec-based WebGPU rate
/// is a lower bound and the spec's rate is kept ([`crate::calibrated_device`]); predictions on them say
/// `measured_profile`.
#[must_use]
pub fn calibrated_candidates(
    caps: &BrowserCapabilities,
    catalog: &DeviceCatalog,
    gpu: Option<&Measurement>,
    cpu: Option<&Measurement>,
) -> Vec<Candidate> {
    let gpu_identified = identify(caps, catalog).device_id.is_some();
    let mut out = browser_candidates(caps, catalog);
    for c in &mut out {
        let measurement = match c.device.hardware_type {
            HardwareType::Webgpu => gpu,
            HardwareType::Wasm => cpu,
            _ => None,
        };
        if let Some(m) = measurement {
            let identity = MeasuredIdentity {
                id: format!("measured-{}", c.key),
                name: format!("{} (measured here)", c.device.name),
                vendor: c.device.vendor.clone(),
                hardware_type: c.device.hardware_type,
                memory_gb: c.device.memory_gb,
            };
            // An identified GPU's spec-based rates are what its measurement is judged against; a
            // class device (an estimate, not a spec sheet) gives way to the measurement.
            let identified = c.device.hardware_type == HardwareType::Webgpu && gpu_identified;
            let engine = c.device.browser_engine;
            c.device = match browser_shares(c.device.hardware_type).filter(|_| identified) {
                Some(shares) => crate::calibrated_device(identity, m, &c.device, shares),
                None => measured_device(identity, m),
            };
            // Measured rates are the shaders'; the engine's round trips still cost what they do.
            c.device.browser_engine = engine;
        }
    }
    out
}

/// A GPU as WebGPU sees it: its shader cores, without tensor/matrix units (WebGPU exposes none).
/// FP32 is the shaders' peak; FP16 (`shader-f16`) runs at the FP32 rate on NVIDIA's GPUs and at
/// twice it, packed, on AMD's, Intel's, Apple's, Qualcomm's and ARM's — the rule of the class devices.
#[must_use]
pub fn webgpu_view(gpu: &Device) -> Device {
    let fp32 = gpu.dense_tflops.fp32;
    let packed_half = !gpu.vendor.eq_ignore_ascii_case("nvidia");
    Device {
        id: format!("webgpu-{}", gpu.id),
        name: format!("WebGPU on {}", gpu.name),
        hardware_type: HardwareType::Webgpu,
        class: String::from("browser"),
        dense_tflops: DenseTflops {
            fp32,
            fp16: Some(if packed_half { 2.0 * fp32 } else { fp32 }),
            fp16_acc16: None,
            bf16: None,
            fp8: None,
            int8: None,
        },
        aliases: Vec::new(),
        notes: Some(format!(
            "identified from the browser's renderer string; WebGPU uses the shader cores only (FP32 peak, FP16 {} it){}",
            if packed_half { "twice" } else { "equal to" },
            gpu.notes.as_deref().map(|n| format!("; {n}")).unwrap_or_default()
        )),
        measured_as: Vec::new(),
        ..gpu.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(vendor: &str, arch: &str, fallback: bool) -> WebGpuAdapterFacts {
        WebGpuAdapterFacts {
            is_fallback: fallback,
            vendor: vendor.into(),
            architecture: arch.into(),
            description: String::new(),
            device: String::new(),
        }
    }

    #[test]
    fn adapters_map_to_classes() {
        assert_eq!(webgpu_class(&facts("google", "swiftshader", true)), "webgpu-fallback");
        assert_eq!(webgpu_class(&facts("nvidia", "ampere", false)), "webgpu-discrete");
        assert_eq!(webgpu_class(&facts("apple", "metal-3", false)), "webgpu-integrated");
        assert_eq!(webgpu_class(&facts("intel", "gen-12lp", false)), "webgpu-integrated");
        assert_eq!(webgpu_class(&facts("", "", false)), "webgpu-integrated");
    }

    /// Headless Chromium with `--enable-unsafe-webgpu`: the SwiftShader adapter and WebAssembly.
    fn swiftshader() -> BrowserCapabilities {
        BrowserCapabilities {
            webgpu: Some(facts("google", "swiftshader", true)),
            wasm: true,
            ..Default::default()
        }
    }

    #[test]
    fn a_benchmark_turns_the_candidates_into_measured_profiles() {
        let catalog = DeviceCatalog::builtin();
        let caps = swiftshader();
        let m = |gflops: f64| Measurement {
            matmul_f32_gflops: gflops,
            matmul_f16_gflops: None,
            copy_gbs: 5.0,
            matmul_n: 256,
            copy_bytes: 1 << 20,
            samples: 3,
            threads: 1,
            method: String::from("test"),
        };
        let c = calibrated_candidates(&caps, &catalog, None, Some(&m(12.0)));
        assert_eq!(c[0].device.id, "webgpu-fallback", "no GPU measurement: the class stays");
        let firefox = BrowserCapabilities {
            engine: Some(BrowserEngine::Firefox),
            ..caps.clone()
        };
        let measured = calibrated_candidates(&firefox, &catalog, Some(&m(40.0)), None);
        assert_eq!(measured[0].device.id, "measured-webgpu");
        assert_eq!(
            measured[0].device.browser_engine,
            Some(BrowserEngine::Firefox),
            "measured shaders, the engine's round trips"
        );
        assert_eq!(c[1].device.id, "measured-wasm");
        assert_eq!(c[1].device.profile, crate::DeviceProfile::Measured);
        assert!((c[1].device.dense_tflops.fp32 - 0.012).abs() < 1e-12);
        assert!((c[1].device.memory_gb - catalog.by_id("wasm").unwrap().memory_gb).abs() < 1e-12);
    }

    #[test]
    fn candidates_follow_the_capabilities() {
        let catalog = DeviceCatalog::builtin();
        let caps = swiftshader();
        let c = browser_candidates(&caps, &catalog);
        let ids: Vec<&str> = c.iter().map(|c| c.device.id.as_str()).collect();
        assert_eq!(ids, ["webgpu-fallback", "wasm-1t-simd"]);
        let (available, _) = browser_targets(&caps);
        assert!(available.has(HardwareType::Webgpu) && !available.has(HardwareType::Webnn));
        assert!(browser_candidates(&BrowserCapabilities::default(), &catalog).is_empty());
    }

    #[test]
    fn wasm_threads_need_cross_origin_isolation_and_webnn_contexts_are_estimates() {
        let catalog = DeviceCatalog::builtin();
        let mut caps = BrowserCapabilities {
            wasm: true,
            hardware_concurrency: Some(16),
            webnn_contexts: alloc::vec![String::from("cpu"), String::from("gpu"), String::from("npu")],
            ..Default::default()
        };
        assert_eq!(wasm_threads(&caps), 1, "no SharedArrayBuffer without isolation");
        caps.cross_origin_isolated = true;
        assert_eq!(wasm_threads(&caps), 4, "ONNX Runtime Web: min(4, ceil(16 / 2))");
        caps.hardware_concurrency = Some(2);
        assert_eq!(wasm_threads(&caps), 1);
        caps.hardware_concurrency = Some(6);
        caps.wasm_simd = Some(false);
        let c = browser_candidates(&caps, &catalog);
        let keys: Vec<&str> = c.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["wasm", "webnn-cpu", "webnn-gpu"], "no figures for an NPU");
        assert_eq!(c[0].device.id, "wasm-3t");
        assert!(
            (c[0].device.dense_tflops.fp32 - 3.0 * 0.012).abs() < 1e-12,
            "scalar: a quarter of SIMD"
        );
        assert!(
            (c[1].device.dense_tflops.fp32 - 6.0 * 0.012).abs() < 1e-12,
            "WebNN's CPU uses every core"
        );
        assert_eq!(c[2].device.id, "webnn-gpu-webgpu-integrated");
        assert!(c.iter().skip(1).all(|c| c.device.hardware_type == HardwareType::Webnn));
    }
}
