//! What a browser's capabilities mean for hwfit: which hardware types are usable, which GPU the
//! browser runs on ([`identify()`]) and which device each type is predicted on. The npm package
//! probes; this decides.

pub mod identify;
pub mod renderer;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

pub use identify::{identify, GpuIdentification, IdentificationConfidence};

use crate::device::DenseTflops;
use crate::{
    measured_device, AvailableHardware, Candidate, Device, DeviceCatalog, HardwareType, MeasuredIdentity, Measurement,
};

/// The facts of a probe that decide the mapping.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrowserCapabilities {
    /// The WebGPU adapter, when one was granted.
    pub webgpu: Option<WebGpuAdapterFacts>,
    /// WebNN device types whose `createContext` succeeded.
    pub webnn_contexts: Vec<String>,
    /// Whether WebAssembly runs at all.
    pub wasm: bool,
    /// WebGL's unmasked vendor and renderer (`WEBGL_debug_renderer_info`), where exposed.
    #[serde(default)]
    pub webgl: Option<WebGlRenderer>,
}

/// WebGL's `UNMASKED_VENDOR_WEBGL` and `UNMASKED_RENDERER_WEBGL`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WebGlRenderer {
    /// Unmasked vendor (`Google Inc. (NVIDIA)`).
    pub vendor: String,
    /// Unmasked renderer (`ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 …)`).
    pub renderer: String,
}

/// What identifies a WebGPU adapter (`GPUAdapterInfo` and `isFallbackAdapter`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WebGpuAdapterFacts {
    /// `isFallbackAdapter` (a software adapter such as SwiftShader).
    pub is_fallback: bool,
    /// `info.vendor` (`nvidia`, `amd`, `intel`, `apple`, `google` …).
    pub vendor: String,
    /// `info.architecture` (`ampere`, `rdna-3`, `gen-12lp`, `metal-3`, `swiftshader` …).
    pub architecture: String,
    /// `info.description`, where the browser gives one.
    pub description: String,
    /// `info.device`, where the browser gives one (Safari: `applem2ultra`).
    #[serde(default)]
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
/// class, WASM on its class (WebNN has no catalog device yet, so it is reported available but not
/// predicted on).
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
            let device = match identified {
                Some(gpu) if hw == HardwareType::Webgpu => webgpu_view(gpu),
                _ => catalog.by_id(class)?.clone(),
            };
            Some(Candidate {
                key: String::from(hw.as_str()),
                device,
            })
        })
        .collect()
}

/// Browser candidates on measured rates, as the CLI's `--calibrate`: the microbenchmark's GPU
/// measurement replaces the WebGPU device and its CPU measurement the WASM device (memory stays the
/// identified device's or the class's); predictions on them say `measured_profile`.
#[must_use]
pub fn calibrated_candidates(
    caps: &BrowserCapabilities,
    catalog: &DeviceCatalog,
    gpu: Option<&Measurement>,
    cpu: Option<&Measurement>,
) -> Vec<Candidate> {
    let mut out = browser_candidates(caps, catalog);
    for c in &mut out {
        let measurement = match c.device.hardware_type {
            HardwareType::Webgpu => gpu,
            HardwareType::Wasm => cpu,
            _ => None,
        };
        if let Some(m) = measurement {
            c.device = measured_device(
                MeasuredIdentity {
                    id: format!("measured-{}", c.key),
                    name: format!("{} (measured here)", c.device.name),
                    vendor: c.device.vendor.clone(),
                    hardware_type: c.device.hardware_type,
                    memory_gb: c.device.memory_gb,
                },
                m,
            );
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

    #[test]
    fn a_benchmark_turns_the_candidates_into_measured_profiles() {
        let catalog = DeviceCatalog::builtin();
        let caps = BrowserCapabilities {
            webgpu: Some(facts("google", "swiftshader", true)),
            webnn_contexts: Vec::new(),
            wasm: true,
            webgl: None,
        };
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
        assert_eq!(c[1].device.id, "measured-wasm");
        assert_eq!(c[1].device.profile, crate::DeviceProfile::Measured);
        assert!((c[1].device.dense_tflops.fp32 - 0.012).abs() < 1e-12);
        assert!((c[1].device.memory_gb - catalog.by_id("wasm").unwrap().memory_gb).abs() < 1e-12);
    }

    #[test]
    fn candidates_follow_the_capabilities() {
        let catalog = DeviceCatalog::builtin();
        let caps = BrowserCapabilities {
            webgpu: Some(facts("google", "swiftshader", true)),
            webnn_contexts: Vec::new(),
            wasm: true,
            webgl: None,
        };
        let c = browser_candidates(&caps, &catalog);
        let ids: Vec<&str> = c.iter().map(|c| c.device.id.as_str()).collect();
        assert_eq!(ids, ["webgpu-fallback", "wasm"]);
        let (available, _) = browser_targets(&caps);
        assert!(available.has(HardwareType::Webgpu) && !available.has(HardwareType::Webnn));
        assert!(browser_candidates(&BrowserCapabilities::default(), &catalog).is_empty());
    }
}
