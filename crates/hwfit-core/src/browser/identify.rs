//! Which GPU a browser runs on, from what it reports: WebGPU's adapter info (description, device,
//! vendor, architecture, `isFallbackAdapter`) and WebGL's unmasked renderer. The strings are read by
//! [`super::renderer`] and resolved against the device catalog (the device database once loaded).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::renderer::{read_renderer, RendererName};
use super::BrowserCapabilities;
use crate::device::Resolution;
use crate::{Device, DeviceCatalog};

/// How sure an identification is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum IdentificationConfidence {
    /// A reported name resolves to exactly this device.
    High,
    /// The name fits a few variants of one product (`Apple M1 Pro`: 14 or 16 GPU cores); the
    /// slowest is assumed.
    Medium,
    /// Nothing names the device (Safari's `Apple GPU`, Firefox's `…, or similar`, an unknown name):
    /// predictions use the class.
    #[default]
    Class,
    /// A software rasterizer (SwiftShader, llvmpipe, WARP): the CPU runs the shaders.
    Software,
}

/// The browser's GPU, as far as what it reports identifies it (by default: not identified).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GpuIdentification {
    /// The catalog device, when identified.
    pub device_id: Option<String>,
    /// Its name.
    pub device_name: Option<String>,
    /// How sure.
    pub confidence: IdentificationConfidence,
    /// The other variants the name fits, for a `medium` identification.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
    /// What was read, and what it gave.
    pub evidence: Vec<String>,
}

/// At most this many variants of one product make a `medium` identification; more is a class.
const MAX_VARIANTS: usize = 4;

/// Identifies the browser's GPU.
#[must_use]
pub fn identify(caps: &BrowserCapabilities, catalog: &DeviceCatalog) -> GpuIdentification {
    let mut evidence = Vec::new();
    let mut sources: Vec<(&str, &str)> = Vec::new();
    if let Some(adapter) = &caps.webgpu {
        if adapter.is_fallback {
            evidence.push(String::from("WebGPU: isFallbackAdapter is true"));
            return software("WebGPU fallback adapter", evidence);
        }
        if adapter.architecture.eq_ignore_ascii_case("swiftshader") {
            evidence.push(String::from("WebGPU: architecture 'swiftshader'"));
            return software("SwiftShader", evidence);
        }
        sources.push(("WebGPU description", adapter.description.as_str()));
        sources.push(("WebGPU device", adapter.device.as_str()));
    }
    if let Some(webgl) = &caps.webgl {
        sources.push(("WebGL renderer", webgl.renderer.as_str()));
    }
    let mut best: Option<GpuIdentification> = None;
    for (what, text) in sources.into_iter().filter(|(_, t)| !t.trim().is_empty()) {
        match read_renderer(&spaced(text)) {
            RendererName::Software(name) => {
                evidence.push(format!("{what} '{text}': software rasterizer {name}"));
                return software(name, evidence);
            }
            RendererName::Bucketed => evidence.push(format!(
                "{what} '{text}': a privacy bucket (', or similar'), not this device"
            )),
            RendererName::Empty => {}
            RendererName::Device(name) => {
                let found = from_name(catalog, &name);
                evidence.push(match &found {
                    Some(id) => format!(
                        "{what} '{text}' → '{name}' → {} ({:?})",
                        id.device_name.as_deref().unwrap_or_default(),
                        id.confidence
                    ),
                    None => format!("{what} '{text}' → '{name}': no single device or product in the catalog"),
                });
                if let Some(found) = found {
                    let better = best
                        .as_ref()
                        .is_none_or(|b| b.confidence != IdentificationConfidence::High);
                    if better {
                        best = Some(found);
                    }
                }
            }
        }
    }
    if let Some(mut found) = best {
        found.evidence = evidence;
        return found;
    }
    if evidence.is_empty() {
        evidence.push(String::from("no renderer string or adapter description to read"));
    }
    GpuIdentification {
        device_id: None,
        device_name: None,
        confidence: IdentificationConfidence::Class,
        candidates: Vec::new(),
        evidence,
    }
}

/// Safari's WebGPU device names run words together (`applem2ultra`): `apple` starts a word.
fn spaced(text: &str) -> String {
    match text.strip_prefix("apple") {
        Some(rest) if !rest.starts_with(' ') && !rest.is_empty() => format!("apple {rest}"),
        _ => String::from(text),
    }
}

fn software(name: &str, evidence: Vec<String>) -> GpuIdentification {
    GpuIdentification {
        device_id: None,
        device_name: Some(format!("software rasterizer ({name})")),
        confidence: IdentificationConfidence::Software,
        candidates: Vec::new(),
        evidence,
    }
}

/// A device name resolved: one device, or a few variants of one product (the slowest assumed).
fn from_name(catalog: &DeviceCatalog, name: &str) -> Option<GpuIdentification> {
    let identified = |d: &Device, confidence, candidates| GpuIdentification {
        device_id: Some(d.id.clone()),
        device_name: Some(d.name.clone()),
        confidence,
        candidates,
        evidence: Vec::new(),
    };
    match catalog.resolution(name) {
        Resolution::Unique(d) => Some(identified(d, IdentificationConfidence::High, Vec::new())),
        Resolution::MemoryVariants(variants) => variants
            .first()
            .map(|d| identified(d, IdentificationConfidence::High, Vec::new())),
        Resolution::Ambiguous(tied) if variants_of_one_product(&tied) => {
            let slowest = tied
                .iter()
                .min_by(|a, b| a.dense_tflops.fp32.total_cmp(&b.dense_tflops.fp32))?;
            let others = tied
                .iter()
                .filter(|d| d.id != slowest.id)
                .map(|d| d.name.clone())
                .collect();
            Some(identified(slowest, IdentificationConfidence::Medium, others))
        }
        Resolution::Ambiguous(_) | Resolution::Unknown => None,
    }
}

/// A few devices of one vendor and architecture, within a factor of two in FP32: one product's
/// variants (core counts, memory sizes), not a family of different chips.
fn variants_of_one_product(devices: &[&Device]) -> bool {
    let Some(first) = devices.first() else { return false };
    let (low, high) = devices.iter().fold((f64::MAX, 0.0_f64), |(lo, hi), d| {
        (lo.min(d.dense_tflops.fp32), hi.max(d.dense_tflops.fp32))
    });
    devices.len() <= MAX_VARIANTS
        && devices.iter().all(|d| {
            d.vendor == first.vendor && d.architecture == first.architecture && d.hardware_type == first.hardware_type
        })
        && high <= 2.0 * low
}

/// The renderer strings of `tests/data/renderer_strings.csv` (150 WebGL and WebGPU strings from
/// public sources, each with the GPU it names, or why it names none).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::browser::{WebGlRenderer, WebGpuAdapterFacts};
    use crate::csv::{Cell, Table};
    use crate::device::DATABASE_CSV;

    const STRINGS: &str = include_str!("../../../../tests/data/renderer_strings.csv");

    fn caps(table: &Table, row: &[Cell<'_>]) -> BrowserCapabilities {
        let get = |c: &str| String::from(table.get(row, c).unwrap());
        let webgpu = (get("api") == "webgpu").then(|| WebGpuAdapterFacts {
            is_fallback: false,
            vendor: get("webgpu_vendor"),
            architecture: get("webgpu_architecture"),
            description: get("webgpu_description"),
            device: get("webgpu_device"),
        });
        let webgl = (get("api") == "webgl").then(|| WebGlRenderer {
            vendor: get("unmasked_vendor"),
            renderer: get("unmasked_renderer"),
        });
        BrowserCapabilities {
            webgpu,
            webnn_contexts: Vec::new(),
            wasm: true,
            webgl,
            ..Default::default()
        }
    }

    /// Expected labels of the set that name a database device differently.
    const LABELS: &[(&str, &str)] = &[("AMD Radeon R5 Graphics (APU)", "AMD Radeon R5 Graphics")];

    fn memory_variant(found: Option<&str>, expected: &str) -> bool {
        found
            .and_then(|f| f.strip_prefix(expected))
            .and_then(|rest| rest.strip_suffix(" GB"))
            .is_some_and(|gb| gb.trim().parse::<f64>().is_ok())
    }

    #[test]
    fn real_renderer_strings_identify_their_gpu_or_say_they_cannot() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let table = Table::parse(STRINGS).unwrap();
        let (mut right, mut named, mut wrong, mut missed) = (0_u32, 0_u32, Vec::new(), Vec::new());
        for row in &table.rows {
            let get = |c: &str| table.get(row, c).unwrap();
            let found = identify(&caps(&table, row), &catalog);
            let text = alloc::format!("{} {}", get("unmasked_renderer"), get("webgpu_device"));
            let verdict = match get("identifiable") {
                "software" => found.confidence == IdentificationConfidence::Software,
                "yes" => {
                    let expected = LABELS
                        .iter()
                        .find(|(label, _)| *label == get("expected_gpu"))
                        .map_or(get("expected_gpu"), |(_, name)| name);
                    let want: Vec<&str> = match catalog.resolution(expected) {
                        Resolution::Unique(d) => alloc::vec![d.id.as_str()],
                        Resolution::Ambiguous(tied) | Resolution::MemoryVariants(tied) => {
                            tied.iter().map(|d| d.id.as_str()).collect()
                        }
                        // In no catalog: saying so is right.
                        Resolution::Unknown => Vec::new(),
                    };
                    if want.is_empty() {
                        found.device_id.is_none()
                    } else {
                        named += 1;
                        match found.device_id.as_deref() {
                            // A memory variant of the expected board (`Intel Arc A770 8 GB`) is it too.
                            Some(id)
                                if want.contains(&id) || memory_variant(found.device_name.as_deref(), expected) =>
                            {
                                right += 1;
                                true
                            }
                            Some(_) => false,
                            None => {
                                missed.push(alloc::format!("{text:?}: {:?}", found.evidence));
                                true
                            }
                        }
                    }
                }
                // class-only and no: never one device for sure.
                _ => {
                    found.confidence != IdentificationConfidence::High
                        && found.confidence != IdentificationConfidence::Software
                }
            };
            if !verdict {
                wrong.push(alloc::format!(
                    "{text:?} → {:?} {:?} (expected {} / {})",
                    found.confidence,
                    found.device_name,
                    get("identifiable"),
                    get("expected_gpu")
                ));
            }
        }
        assert!(table.rows.len() >= 60);
        assert!(wrong.is_empty(), "wrong:\n  {}", wrong.join("\n  "));
        assert!(
            f64::from(right) >= 0.9 * f64::from(named),
            "{right}/{named} identified; missed:\n  {}",
            missed.join("\n  ")
        );
    }

    #[test]
    fn the_headless_chromium_adapter_is_the_software_fallback() {
        let caps = BrowserCapabilities {
            webgpu: Some(WebGpuAdapterFacts {
                is_fallback: true,
                vendor: String::from("google"),
                architecture: String::from("swiftshader"),
                ..WebGpuAdapterFacts::default()
            }),
            webnn_contexts: Vec::new(),
            wasm: true,
            webgl: Some(WebGlRenderer {
                vendor: String::from("Google Inc. (Google)"),
                renderer: String::from(
                    "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)",
                ),
            }),
            ..Default::default()
        };
        let found = identify(&caps, &DeviceCatalog::builtin());
        assert_eq!(found.confidence, IdentificationConfidence::Software);
        let ids: Vec<String> = crate::browser::browser_candidates(&caps, &DeviceCatalog::builtin())
            .into_iter()
            .map(|c| c.device.id)
            .collect();
        assert_eq!(ids, ["webgpu-fallback", "wasm-1t-simd"]);
    }

    #[test]
    fn an_identified_gpu_is_predicted_on_its_shader_cores() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let caps = BrowserCapabilities {
            webgpu: Some(WebGpuAdapterFacts {
                vendor: String::from("nvidia"),
                architecture: String::from("ampere"),
                ..WebGpuAdapterFacts::default()
            }),
            webnn_contexts: Vec::new(),
            wasm: true,
            webgl: Some(WebGlRenderer {
                vendor: String::from("Google Inc. (NVIDIA)"),
                renderer: String::from(
                    "ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 vs_5_0 ps_5_0, D3D11)",
                ),
            }),
            ..Default::default()
        };
        let found = identify(&caps, &catalog);
        assert_eq!(found.device_id.as_deref(), Some("nvidia-geforce-rtx-3080-ti"));
        assert_eq!(found.confidence, IdentificationConfidence::High);
        let webgpu = &crate::browser::browser_candidates(&caps, &catalog)[0];
        assert_eq!(webgpu.device.hardware_type, crate::HardwareType::Webgpu);
        assert_eq!(webgpu.device.dense_tflops.fp16, Some(webgpu.device.dense_tflops.fp32));
        // Apple M1 Pro comes with 14 or 16 GPU cores: the slower is assumed.
        let m1 = from_name(&catalog, "Apple M1 Pro").unwrap();
        assert_eq!(m1.confidence, IdentificationConfidence::Medium);
        assert_eq!(m1.device_id.as_deref(), Some("apple-m1-pro-14-core-gpu"));
    }

    /// Every real string, written in words and read back, identifies the same GPU and gives the
    /// same candidates: the CLI's `--browser` asks about the browser the probe saw.
    #[test]
    fn a_probe_in_words_reads_back_to_the_same_browser() {
        let catalog = DeviceCatalog::builtin().with_database(DATABASE_CSV).unwrap();
        let table = Table::parse(STRINGS).unwrap();
        for row in &table.rows {
            let mut probed = caps(&table, row);
            probed.cross_origin_isolated = true;
            probed.hardware_concurrency = Some(8);
            let words = probed.words();
            let read = BrowserCapabilities::describe(&words).unwrap_or_else(|e| panic!("{words}: {e}"));
            let (a, b) = (identify(&probed, &catalog), identify(&read, &catalog));
            assert_eq!((a.device_id, a.confidence), (b.device_id, b.confidence), "{words}");
            let ids = |caps: &BrowserCapabilities| -> Vec<String> {
                crate::browser::browser_candidates(caps, &catalog)
                    .into_iter()
                    .map(|c| c.device.id)
                    .collect()
            };
            assert_eq!(ids(&probed), ids(&read), "{words}");
        }
    }
}
