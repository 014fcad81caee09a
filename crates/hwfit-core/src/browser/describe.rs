//! A browser described in words, for the faces that cannot probe one (the CLI, HTTP, Python): the
//! engine, the GPU WebGPU runs on, WebAssembly's threads and SIMD, WebNN's contexts — the facts the
//! npm package's probe gathers. `"firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16"` is the
//! same browser as the probe's report of it, so every face answers the same question alike.
//!
//! Items, comma-separated (commas inside parentheses belong to the item, as in ANGLE's strings):
//!
//! | item | meaning | probe field |
//! |---|---|---|
//! | `chromium` (`chrome`, `edge`), `firefox`, `webkit` (`safari`) | the engine | `navigator.userAgent` |
//! | `gpu=NAME` | WebGPU granted, on this GPU (a name or a renderer string) | adapter info |
//! | `webgl=RENDERER` | WebGL's unmasked renderer, also read to identify the GPU | WebGL renderer |
//! | `webgpu=discrete\|integrated\|fallback` | WebGPU granted on an unnamed GPU of that class | adapter info |
//! | `isolated` | the page is cross-origin isolated (WebAssembly threads) | `crossOriginIsolated` |
//! | `cores=N` | logical cores | `navigator.hardwareConcurrency` |
//! | `no-simd` | WebAssembly SIMD does not validate | `WebAssembly.validate` |
//! | `webnn=cpu+gpu` | WebNN contexts created | `navigator.ml.createContext` |
//! | `no-wasm` | no WebAssembly | `typeof WebAssembly` |
//!
//! Without `gpu=` or `webgpu=` the browser has no WebGPU adapter (WebAssembly only). A value with
//! commas outside parentheses goes in double quotes. [`BrowserCapabilities::words`] writes a probe's
//! facts this way.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Deserializer, Serialize};

use super::{BrowserCapabilities, WebGlRenderer, WebGpuAdapterFacts};
use crate::CoreError;

/// The browser engine: its WebGPU implementation (Dawn, wgpu, WebKit's) and which APIs it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum BrowserEngine {
    /// Chromium (Chrome, Edge, Opera, Brave …): WebGPU through Dawn; WebNN behind a flag.
    Chromium,
    /// Firefox (Gecko): WebGPU through wgpu.
    Firefox,
    /// WebKit (Safari, and every browser on iOS): WebGPU through WebKit's Metal back-end.
    Webkit,
}

impl BrowserEngine {
    /// Every engine, in order.
    pub const ALL: [Self; 3] = [Self::Chromium, Self::Firefox, Self::Webkit];

    /// The lowercase name (`chromium`, `firefox`, `webkit`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Chromium => "chromium",
            Self::Firefox => "firefox",
            Self::Webkit => "webkit",
        }
    }

    /// The engine a word names: the engines' names and the browsers built on them.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Self> {
        match word.trim().to_ascii_lowercase().as_str() {
            "chromium" | "chrome" | "blink" | "edge" | "opera" | "brave" => Some(Self::Chromium),
            "firefox" | "gecko" => Some(Self::Firefox),
            "webkit" | "safari" => Some(Self::Webkit),
            _ => None,
        }
    }

    /// The engine a `navigator.userAgent` names. Every iOS browser is WebKit (`CriOS`, `FxiOS`,
    /// `EdgiOS` included); Chromium's strings also say `Safari`, so `Chrome/` is looked for first.
    #[must_use]
    pub fn from_user_agent(user_agent: &str) -> Option<Self> {
        let has = |token: &str| user_agent.contains(token);
        if ["CriOS/", "FxiOS/", "EdgiOS/"].into_iter().any(has) {
            Some(Self::Webkit)
        } else if has("Firefox/") {
            Some(Self::Firefox)
        } else if ["Chrome/", "Chromium/"].into_iter().any(has) {
            Some(Self::Chromium)
        } else if has("AppleWebKit/") {
            Some(Self::Webkit)
        } else {
            None
        }
    }

    /// The engine's name as people write it (`Chromium`, `Firefox`, `WebKit`).
    #[must_use]
    pub const fn display_name(self) -> &'static str {
        match self {
            Self::Chromium => "Chromium",
            Self::Firefox => "Firefox",
            Self::Webkit => "WebKit",
        }
    }
}

impl core::fmt::Display for BrowserEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::str::FromStr for BrowserEngine {
    type Err = CoreError;

    fn from_str(s: &str) -> Result<Self, CoreError> {
        Self::from_word(s).ok_or_else(|| {
            invalid(format!(
                "unknown engine '{s}' (chromium, firefox or webkit; chrome, edge and safari name theirs)"
            ))
        })
    }
}

/// Logical cores a browser may report.
const CORES: core::ops::RangeInclusive<u32> = 1..=1024;

/// WebNN's device types (`MLContextOptions.deviceType`).
const WEBNN_CONTEXTS: [&str; 3] = ["cpu", "gpu", "npu"];

/// Splits at commas outside parentheses and double quotes.
fn items(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0_i32, false, 0);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            ',' if depth <= 0 && !quoted => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|item| !item.is_empty());
    out
}

/// A refused description; the face names the field (`browser: …` at the server, `--browser: …` in
/// the CLI).
fn invalid(message: impl core::fmt::Display) -> CoreError {
    CoreError::InvalidRequest(format!("{message}"))
}

/// A WebGPU adapter of a class, without a name (`webgpu=discrete`).
fn class_adapter(class: &str) -> Result<Option<WebGpuAdapterFacts>, CoreError> {
    let (vendor, fallback) = match class.to_ascii_lowercase().as_str() {
        "discrete" => ("nvidia", false),
        "integrated" => ("", false),
        "fallback" | "software" | "swiftshader" => ("google", true),
        "none" | "no" => return Ok(None),
        other => {
            return Err(invalid(format!(
                "webgpu={other}: say discrete, integrated, fallback or none (gpu=NAME names the GPU)"
            )))
        }
    };
    Ok(Some(WebGpuAdapterFacts {
        is_fallback: fallback,
        vendor: String::from(vendor),
        architecture: String::from(if fallback { "swiftshader" } else { "" }),
        description: String::new(),
        device: String::new(),
    }))
}

/// A WebGPU adapter on a named GPU: the name is what Chromium's adapter description and WebGL's
/// unmasked renderer give, read by [`super::identify()`].
fn named_adapter(name: &str) -> WebGpuAdapterFacts {
    let vendor = crate::device::names::read(name).vendor.unwrap_or_default();
    WebGpuAdapterFacts {
        is_fallback: false,
        vendor: String::from(vendor),
        architecture: String::new(),
        description: String::from(name),
        device: String::new(),
    }
}

/// A value without the double quotes around it (`gpu="Mali-G78, or similar"`).
fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
}

fn flag(key: &str, value: Option<&str>) -> Result<bool, CoreError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("yes" | "true" | "1" | "on") => Ok(true),
        Some("no" | "false" | "0" | "off") => Ok(false),
        Some(other) => Err(invalid(format!("{key}={other}: say yes or no"))),
    }
}

impl BrowserCapabilities {
    /// Reads a browser described in words (see the [module](self) for the items).
    ///
    /// # Errors
    /// An item hwfit does not know, a value that does not parse, or an engine, GPU or core count
    /// given twice.
    pub fn describe(text: &str) -> Result<Self, CoreError> {
        let mut caps = Self {
            wasm: true,
            ..Self::default()
        };
        let mut gpu_given = false;
        for item in items(text) {
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim().to_ascii_lowercase(), Some(unquote(v.trim()))),
                None => (item.to_ascii_lowercase(), None),
            };
            if value.is_some_and(|v| v.contains('"')) || (value.is_none() && key.contains('"')) {
                return Err(invalid(format!("'{item}': double quotes only go around a whole value")));
            }
            let twice = |what: &str| invalid(format!("{what} given twice in '{text}'"));
            if let (Some(engine), None) = (BrowserEngine::from_word(&key), value) {
                if caps.engine.is_some_and(|e| e != engine) {
                    return Err(twice("the engine"));
                }
                caps.engine = Some(engine);
                continue;
            }
            match (key.as_str(), value) {
                ("engine", Some(v)) => {
                    if caps.engine.is_some() {
                        return Err(twice("the engine"));
                    }
                    caps.engine = Some(v.parse()?);
                }
                ("gpu", Some(name)) if !name.is_empty() => {
                    if gpu_given {
                        return Err(twice("the GPU"));
                    }
                    gpu_given = true;
                    caps.webgpu = Some(named_adapter(name));
                }
                ("webgl", Some(renderer)) if !renderer.is_empty() => {
                    if caps.webgl.is_some() {
                        return Err(twice("the WebGL renderer"));
                    }
                    caps.webgl = Some(WebGlRenderer {
                        vendor: String::new(),
                        renderer: String::from(renderer),
                    });
                }
                ("webgpu", Some(class)) => {
                    if gpu_given {
                        return Err(twice("the GPU"));
                    }
                    gpu_given = true;
                    caps.webgpu = class_adapter(class)?;
                }
                ("isolated" | "cross-origin-isolated" | "crossoriginisolated", v) => {
                    caps.cross_origin_isolated = flag(&key, v)?;
                }
                ("cores" | "hardware-concurrency" | "hardwareconcurrency", Some(n)) => {
                    if caps.hardware_concurrency.is_some() {
                        return Err(twice("the core count"));
                    }
                    let cores: u32 = n
                        .parse()
                        .map_err(|_| invalid(format!("cores={n}: a count of logical cores, {CORES:?}")))?;
                    caps.hardware_concurrency = Some(cores);
                }
                ("simd", v) => caps.wasm_simd = Some(flag(&key, v)?),
                ("no-simd", None) => caps.wasm_simd = Some(false),
                ("wasm", v) => caps.wasm = flag(&key, v)?,
                ("no-wasm", None) => caps.wasm = false,
                ("webnn", Some(contexts)) => {
                    for context in contexts.split(['+', ' ', '/']).filter(|c| !c.is_empty()) {
                        let context = context.to_ascii_lowercase();
                        if !caps.webnn_contexts.contains(&context) {
                            caps.webnn_contexts.push(context);
                        }
                    }
                }
                _ => {
                    return Err(invalid(format!(
                        "'{item}' is not a browser fact (an engine, gpu=NAME, webgpu=CLASS, isolated, cores=N, no-simd, webnn=cpu+gpu, no-wasm)"
                    )))
                }
            }
        }
        caps.check()?;
        Ok(caps)
    }

    /// The facts in words: what [`describe`](Self::describe) reads back into the same predictions
    /// (the line the demo page shows for asking about this browser from the CLI).
    #[must_use]
    pub fn words(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        let quoted = |name: &str| {
            if name.contains([',', '(', ')', '"']) {
                format!("\"{}\"", name.replace('"', "'"))
            } else {
                String::from(name)
            }
        };
        if let Some(engine) = self.engine {
            out.push(String::from(engine.as_str()));
        }
        if let Some(adapter) = &self.webgpu {
            let class = super::webgpu_class(adapter);
            let name = [adapter.description.as_str(), adapter.device.as_str()]
                .into_iter()
                .map(str::trim)
                .find(|n| !n.is_empty());
            match name {
                Some(name) if class != "webgpu-fallback" => out.push(format!("gpu={}", quoted(name))),
                _ => out.push(format!("webgpu={}", class.trim_start_matches("webgpu-"))),
            }
        }
        if let Some(webgl) = self.webgl.as_ref().filter(|w| !w.renderer.trim().is_empty()) {
            out.push(format!("webgl={}", quoted(webgl.renderer.trim())));
        }
        if self.cross_origin_isolated {
            out.push(String::from("isolated"));
        }
        if let Some(cores) = self.hardware_concurrency {
            out.push(format!("cores={cores}"));
        }
        if self.wasm_simd == Some(false) {
            out.push(String::from("no-simd"));
        }
        if !self.webnn_contexts.is_empty() {
            out.push(format!("webnn={}", self.webnn_contexts.join("+")));
        }
        if !self.wasm {
            out.push(String::from("no-wasm"));
        }
        out.join(", ")
    }

    /// Refuses a browser hwfit cannot predict on as described.
    ///
    /// # Errors
    /// A core count outside 1–1024, a WebNN context other than `cpu`, `gpu`, `npu`, or neither
    /// WebGPU, WebAssembly nor a WebNN context.
    pub fn check(&self) -> Result<(), CoreError> {
        if let Some(cores) = self.hardware_concurrency.filter(|c| !CORES.contains(c)) {
            return Err(invalid(format!("cores={cores}: a count of logical cores, {CORES:?}")));
        }
        if let Some(other) = self
            .webnn_contexts
            .iter()
            .find(|c| !WEBNN_CONTEXTS.contains(&c.as_str()))
        {
            return Err(invalid(format!(
                "webnn={other}: contexts are {}",
                WEBNN_CONTEXTS.join(", ")
            )));
        }
        if self.webgpu.is_none() && !self.wasm && self.webnn_contexts.is_empty() {
            return Err(invalid(
                "it has neither WebGPU, WebAssembly nor a WebNN context: nothing to predict on",
            ));
        }
        Ok(())
    }
}

/// A request's `browser`: the probe's object (`capabilities`) or the same facts in words.
///
/// # Errors
/// What [`BrowserCapabilities::describe`] refuses, or an object that is not a browser's facts.
pub fn deserialize_browser<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BrowserCapabilities>, D::Error> {
    let caps = match Option::<serde_json::Value>::deserialize(d)? {
        None | Some(serde_json::Value::Null) => return Ok(None),
        Some(serde_json::Value::String(text)) => BrowserCapabilities::describe(&text),
        Some(object @ serde_json::Value::Object(_)) => serde_json::from_value::<BrowserCapabilities>(object)
            .map_err(invalid)
            .and_then(|caps| caps.check().map(|()| caps)),
        Some(_) => Err(invalid(
            "give the probe's capabilities object or the browser's facts in words",
        )),
    };
    caps.map(Some).map_err(serde::de::Error::custom)
}

/// The JSON Schema of a request's `browser` (only with the `schema` feature).
#[cfg(feature = "schema")]
pub fn browser_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let facts = g.subschema_for::<BrowserCapabilities>();
    schemars::json_schema!({
        "description": "A browser: the probe's `capabilities` object, or its facts in words (\"firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16\").",
        "anyOf": [ { "type": "string" }, facts, { "type": "null" } ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn engines_from_user_agents() {
        let cases = [
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36", Some(BrowserEngine::Chromium)),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36 Edg/141.0.0.0", Some(BrowserEngine::Chromium)),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:149.0) Gecko/20100101 Firefox/149.0", Some(BrowserEngine::Firefox)),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15", Some(BrowserEngine::Webkit)),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1", Some(BrowserEngine::Webkit)),
            ("Mozilla/5.0 (iPad; CPU OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15", Some(BrowserEngine::Webkit)),
            ("Node.js/22", None),
        ];
        for (ua, engine) in cases {
            assert_eq!(BrowserEngine::from_user_agent(ua), engine, "{ua}");
        }
    }

    #[test]
    fn words_describe_what_the_probe_reports() {
        let caps = BrowserCapabilities::describe(
            "firefox, gpu=ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 (0x00002206) Direct3D11 vs_5_0 ps_5_0, D3D11), isolated, cores=16, webnn=cpu+gpu",
        )
        .unwrap();
        assert_eq!(caps.engine, Some(BrowserEngine::Firefox));
        assert!(caps.cross_origin_isolated && caps.wasm);
        assert_eq!(caps.hardware_concurrency, Some(16));
        assert_eq!(caps.webnn_contexts, ["cpu", "gpu"]);
        let adapter = caps.webgpu.as_ref().unwrap();
        assert_eq!(adapter.vendor, "nvidia");
        assert!(
            adapter.description.contains("RTX 3080 (0x00002206)"),
            "the parenthesis kept its commas"
        );
        assert_eq!(caps.wasm_simd, None);

        let plain = BrowserCapabilities::describe("chrome").unwrap();
        assert_eq!(plain.engine, Some(BrowserEngine::Chromium));
        assert!(plain.webgpu.is_none() && plain.wasm && !plain.cross_origin_isolated);
        let fallback = BrowserCapabilities::describe("webgpu=fallback, no-simd").unwrap();
        assert!(fallback.webgpu.unwrap().is_fallback);
        assert_eq!(fallback.wasm_simd, Some(false));
    }

    #[test]
    fn words_that_say_nothing_usable_are_refused() {
        for (text, says) in [
            ("netscape", "'netscape' is not a browser fact"),
            ("cores=0", "cores=0"),
            ("cores=many", "cores=many"),
            ("firefox, safari", "engine given twice"),
            ("gpu=RTX 4090, webgpu=integrated", "GPU given twice"),
            ("webgpu=tpu", "webgpu=tpu"),
            ("webnn=dsp", "webnn=dsp"),
            ("isolated=maybe", "isolated=maybe"),
            ("no-wasm", "nothing to predict on"),
        ] {
            let err = BrowserCapabilities::describe(text).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
    }

    #[test]
    fn a_request_takes_the_object_or_the_words() {
        #[derive(Deserialize)]
        struct R {
            #[serde(default, deserialize_with = "deserialize_browser")]
            browser: Option<BrowserCapabilities>,
        }
        let words: R = serde_json::from_str(r#"{"browser": "safari, webgpu=integrated"}"#).unwrap();
        assert_eq!(words.browser.unwrap().engine, Some(BrowserEngine::Webkit));
        let object: R = serde_json::from_str(
            r#"{"browser": {"webgpu": null, "webnnContexts": [], "wasm": true, "crossOriginIsolated": true, "hardwareConcurrency": 8, "engine": "chromium"}}"#,
        )
        .unwrap();
        let caps = object.browser.unwrap();
        assert!(caps.cross_origin_isolated);
        assert_eq!(caps.hardware_concurrency, Some(8));
        let none: R = serde_json::from_str("{}").unwrap();
        assert!(none.browser.is_none());
        let err = serde_json::from_str::<R>(r#"{"browser": {"wasm": false}}"#)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("nothing to predict on"), "{err}");
    }
}
