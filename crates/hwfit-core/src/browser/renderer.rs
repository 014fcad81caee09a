//! What a GPU string a browser reports names: WebGL's unmasked renderer (ANGLE's Direct3D, Metal,
//! OpenGL and Vulkan forms, Mesa's, the NVIDIA and Apple drivers'), WebGPU's adapter description or
//! device. Reading only: [`super::identify()`] resolves the name against the device catalog.

use alloc::string::String;

/// A renderer string read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RendererName {
    /// A software rasterizer (SwiftShader, llvmpipe, WARP …): the CPU runs the shaders.
    Software(&'static str),
    /// Firefox's privacy buckets (`…, or similar`): a representative of a class, not this device.
    Bucketed,
    /// The device part of the string, stripped of driver and API details.
    Device(String),
    /// Nothing to read.
    Empty,
}

/// Software rasterizers, by a word of their renderer string.
const SOFTWARE: &[(&str, &str)] = &[
    ("swiftshader", "SwiftShader"),
    ("llvmpipe", "llvmpipe"),
    ("lavapipe", "lavapipe"),
    ("softpipe", "softpipe"),
    ("microsoft basic render", "WARP (Microsoft Basic Render Driver)"),
    ("software adapter", "WARP (Microsoft Basic Render Driver)"),
    ("software rasterizer", "software rasterizer"),
];

/// Where the device part of a renderer string ends: the graphics API and driver follow.
const ENDS: &[&str] = &[
    " Direct3D",
    " OpenGL",
    " (0x",
    " vs_",
    ", D3D",
    ", OpenGL",
    ", Metal",
    "/PCIe",
    "/SSE2",
    "/AGP",
    "/integrated",
    " on Vulkan",
];

/// Prefixes of a renderer string that are not the device.
const PREFIXES: &[&str] = &[
    "ANGLE Metal Renderer: ",
    "Mesa DRI ",
    "Mesa ",
    "Gallium 0.4 on ",
    "Gallium 0.3 on ",
];

/// Words of a trailing parenthesis that make it driver detail (`(KBL GT2)`, `(navi21, LLVM 15…)`).
const DRIVER_WORDS: &[&str] = &[
    "llvm", "drm", "0x", "nvgpu", "radeonsi", "mesa_", " gt1", " gt2", " gt3", "gt2)", "gt3)",
];

/// Reads a renderer string (or a WebGPU description).
#[must_use]
pub fn read_renderer(text: &str) -> RendererName {
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    if let Some((_, name)) = SOFTWARE.iter().find(|(word, _)| lower.contains(word)) {
        return RendererName::Software(name);
    }
    if lower.ends_with(", or similar") {
        return RendererName::Bucketed;
    }
    let name = device_part(text);
    if name.is_empty() {
        RendererName::Empty
    } else {
        RendererName::Device(String::from(name))
    }
}

/// `ANGLE (Vendor, Renderer, Backend)`, `ANGLE (Renderer Direct3D11 …)`, `Vulkan 1.3 (Device (0x…))`,
/// `zink Vulkan 1.3(Device (MESA_…))`, `Mesa Intel(R) UHD Graphics 620 (KBL GT2)` → the device.
fn device_part(text: &str) -> &str {
    let mut s = text;
    if let Some(inner) = s.strip_prefix("ANGLE (") {
        // The new form names the vendor first; the old one starts with the renderer, and what
        // follows its comma is the API or driver (`…, OpenGL 4.5 core`, `…, D3D11-27.20…`).
        let parts: alloc::vec::Vec<&str> = inner.splitn(3, ", ").collect();
        s = match parts.as_slice() {
            [first, renderer, ..] if !names_api(first) && !starts_with_api(renderer) => renderer,
            [first, ..] => first,
            [] => inner,
        };
    }
    // A Vulkan or zink form wraps the device in parentheses after the API version.
    for api in ["Vulkan ", "zink Vulkan "] {
        if let Some(rest) = s.strip_prefix(api) {
            if let Some(open) = rest.find('(') {
                s = &rest[open + 1..];
            }
        }
    }
    // Mesa's strings end in the chip's code name (`(KBL GT2)`, `(Braswell)`).
    let mesa = s.starts_with("Mesa ");
    for prefix in PREFIXES {
        s = s.strip_prefix(prefix).unwrap_or(s);
    }
    let end = ENDS.iter().filter_map(|m| s.find(m)).min().unwrap_or(s.len());
    s = s[..end].trim_end_matches([' ', ',']);
    // The closing parenthesis of a wrapper cut above (`ANGLE (… Direct3D11`), not of the name.
    while s.ends_with(')') && s.matches(')').count() > s.matches('(').count() {
        s = s[..s.len() - 1].trim_end();
    }
    // A trailing parenthesis of driver detail goes; `(192-bit)` stays.
    if let Some(open) = s.rfind(" (") {
        let inner = s[open..].to_ascii_lowercase();
        if mesa || DRIVER_WORDS.iter().any(|w| inner.contains(w)) || inner.contains(',') {
            s = &s[..open];
        }
    }
    // An unbalanced parenthesis left by the cuts above.
    if s.matches('(').count() > s.matches(')').count() {
        if let Some(open) = s.rfind('(') {
            s = &s[..open];
        }
    }
    s.trim()
}

/// Whether a part of an ANGLE string is the graphics API or driver (`OpenGL 4.5 core`, `D3D11-27…`).
fn starts_with_api(part: &str) -> bool {
    ["OpenGL", "D3D", "Direct3D", "Metal", "Unspecified"]
        .iter()
        .any(|api| part.starts_with(api))
}

/// Whether a part of an ANGLE string holds the API after the device (the old one-part form).
fn names_api(part: &str) -> bool {
    [" Direct3D", " vs_", " OpenGL"].iter().any(|m| part.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(text: &str) -> String {
        match read_renderer(text) {
            RendererName::Device(d) => d,
            other => panic!("{text:?} → {other:?}"),
        }
    }

    #[test]
    fn renderer_forms_give_their_device() {
        assert_eq!(
            device("ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 vs_5_0 ps_5_0, D3D11)"),
            "NVIDIA GeForce RTX 3080 Ti"
        );
        assert_eq!(
            device("ANGLE (Apple, ANGLE Metal Renderer: Apple M1 Pro, Unspecified Version)"),
            "Apple M1 Pro"
        );
        assert_eq!(
            device("ANGLE (NVIDIA GeForce GTX 1060 6GB Direct3D11 vs_5_0 ps_5_0)"),
            "NVIDIA GeForce GTX 1060 6GB"
        );
        assert_eq!(
            device("ANGLE (AMD, Vulkan 1.4.315 (AMD Radeon RX 6500 XT (0x0000743F)), AMD proprietary driver-2.0.353)"),
            "AMD Radeon RX 6500 XT"
        );
        assert_eq!(
            device("ANGLE (Intel, Mesa Intel(R) HD Graphics 620 (KBL GT2), OpenGL 4.6 core)"),
            "Intel(R) HD Graphics 620"
        );
        assert_eq!(
            device("AMD Radeon RX 6950 XT (radeonsi, navi21, LLVM 19.1.7, DRM 3.61, 6.12.28-1-MANJARO)"),
            "AMD Radeon RX 6950 XT"
        );
        assert_eq!(device("GeForce RTX 3070/PCIe/SSE2"), "GeForce RTX 3070");
        assert_eq!(
            device("zink Vulkan 1.3(Apple M3 Max (MESA_KOSMICKRISP))"),
            "Apple M3 Max"
        );
        assert_eq!(
            device("ANGLE (Samsung Xclipse 940) on Vulkan 1.3.264"),
            "Samsung Xclipse 940"
        );
        assert_eq!(
            device("NVIDIA GeForce GTX 760 (192-bit)"),
            "NVIDIA GeForce GTX 760 (192-bit)"
        );
        assert_eq!(device("NVIDIA GeForce GT 750M OpenGL Engine"), "NVIDIA GeForce GT 750M");
    }

    #[test]
    fn software_and_bucketed_strings_name_no_device() {
        assert_eq!(
            read_renderer(
                "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"
            ),
            RendererName::Software("SwiftShader")
        );
        assert_eq!(
            read_renderer("llvmpipe (LLVM 17.0.6, 256 bits)"),
            RendererName::Software("llvmpipe")
        );
        assert_eq!(read_renderer("GeForce GTX 980, or similar"), RendererName::Bucketed);
        assert_eq!(read_renderer("  "), RendererName::Empty);
    }
}
