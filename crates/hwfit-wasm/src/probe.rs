//! The browser capability probe: WebGPU (both power preferences), WebNN (each device type), WebGL's
//! renderer strings, WebAssembly SIMD and threads, cross-origin isolation, and what `navigator` says
//! about the machine.
//! Works in Window and Worker scopes (everything is read from the global object), never throws:
//! every failure is reported with its reason.

use hwfit_core::SortedMap;

use hwfit_core::browser::{BrowserCapabilities, BrowserEngine, GpuIdentification, WebGlRenderer, WebGpuAdapterFacts};
use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// `(module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt))` — validates only with SIMD.
const SIMD_PROBE: &[u8] = &[
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
];
/// A module with a shared memory and an atomic load — validates only with the threads proposal.
const THREADS_PROBE: &[u8] = &[
    0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1, 10, 11, 1, 9, 0, 65, 0, 254, 16, 2,
    0, 26, 11,
];

/// WebGPU limits that bound model buffers and kernels.
const LIMITS: &[&str] = &[
    "maxBufferSize",
    "maxStorageBufferBindingSize",
    "maxComputeWorkgroupStorageSize",
    "maxComputeInvocationsPerWorkgroup",
    "maxComputeWorkgroupSizeX",
    "maxComputeWorkgroupsPerDimension",
    "maxStorageBuffersPerShaderStage",
];

/// One WebGPU adapter request.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AdapterProbe {
    pub power_preference: String,
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub vendor: String,
    pub architecture: String,
    pub device: String,
    pub description: String,
    pub is_fallback_adapter: bool,
    pub features: Vec<String>,
    pub limits: SortedMap<String, f64>,
}

/// The WebGPU part.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebGpuProbe {
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub adapters: Vec<AdapterProbe>,
}

/// One WebNN `createContext({deviceType})`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebNnContextProbe {
    pub device_type: String,
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `opSupportLimits()` summary: data types per op group, where the context gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op_support: Option<Value>,
}

/// The WebNN part.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebNnProbe {
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub contexts: Vec<WebNnContextProbe>,
}

/// The WebAssembly part (independent yes/no facts).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_excessive_bools)]
pub struct WasmProbe {
    pub available: bool,
    pub simd: bool,
    pub threads: bool,
    pub cross_origin_isolated: bool,
    pub shared_array_buffer: bool,
}

/// What `navigator` says.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NavigatorProbe {
    pub hardware_concurrency: Option<f64>,
    pub device_memory_gb: Option<f64>,
    pub user_agent: Option<String>,
    pub user_agent_data: Option<Value>,
    pub scope: String,
}

/// The WebGL part: the renderer strings (unmasked through `WEBGL_debug_renderer_info` where the
/// browser allows it).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebGlProbe {
    pub available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `VENDOR` and `RENDERER` (masked: `WebKit`, `WebKit WebGL` in most browsers).
    pub vendor: String,
    pub renderer: String,
    /// `UNMASKED_VENDOR_WEBGL` and `UNMASKED_RENDERER_WEBGL`, empty where not exposed.
    pub unmasked_vendor: String,
    pub unmasked_renderer: String,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typegen", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CapabilityReport {
    pub webgpu: WebGpuProbe,
    pub webnn: WebNnProbe,
    pub webgl: WebGlProbe,
    pub wasm: WasmProbe,
    pub navigator: NavigatorProbe,
    /// IPFS Accelerate's `hardware` map and `torch_device`-style best type, decided by the core.
    pub hardware: SortedMap<String, bool>,
    /// Catalog class each usable type falls back to (`webgpu` → `webgpu-fallback` …).
    pub device_classes: SortedMap<String, String>,
    /// Which GPU this is, read from the WebGPU adapter and the WebGL renderer, with the evidence.
    pub gpu: GpuIdentification,
    /// The device each usable type is predicted on (the identified GPU, or the class).
    pub devices: SortedMap<String, String>,
    /// The facts the predictions rest on — give them as `--browser` (CLI) or `browser` (HTTP,
    /// Python) to ask about this browser from elsewhere and get the same answers.
    pub capabilities: BrowserCapabilities,
    /// The same facts in words, as the CLI's `--browser` and HTTP's `browser` take them
    /// (`chromium, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16`).
    pub browser: String,
}

impl CapabilityReport {
    /// The facts the core's mapping needs, read from the probe's parts.
    #[must_use]
    pub fn read_capabilities(&self) -> BrowserCapabilities {
        BrowserCapabilities {
            engine: self
                .navigator
                .user_agent
                .as_deref()
                .and_then(BrowserEngine::from_user_agent),
            webgpu: self
                .webgpu
                .adapters
                .iter()
                .find(|a| a.available)
                .map(|a| WebGpuAdapterFacts {
                    is_fallback: a.is_fallback_adapter,
                    vendor: a.vendor.clone(),
                    architecture: a.architecture.clone(),
                    description: a.description.clone(),
                    device: a.device.clone(),
                }),
            webnn_contexts: self
                .webnn
                .contexts
                .iter()
                .filter(|c| c.available)
                .map(|c| c.device_type.clone())
                .collect(),
            wasm: self.wasm.available,
            wasm_simd: Some(self.wasm.simd),
            cross_origin_isolated: self.wasm.cross_origin_isolated,
            hardware_concurrency: self.navigator.hardware_concurrency.map(|c| c as u32),
            webgl: (!self.webgl.unmasked_renderer.is_empty() || !self.webgl.renderer.is_empty()).then(|| {
                let unmasked = !self.webgl.unmasked_renderer.is_empty();
                WebGlRenderer {
                    vendor: if unmasked {
                        &self.webgl.unmasked_vendor
                    } else {
                        &self.webgl.vendor
                    }
                    .clone(),
                    renderer: if unmasked {
                        &self.webgl.unmasked_renderer
                    } else {
                        &self.webgl.renderer
                    }
                    .clone(),
                }
            }),
        }
    }
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn string(target: &JsValue, key: &str) -> String {
    get(target, key).as_string().unwrap_or_default()
}

fn message(e: &JsValue) -> String {
    let name = string(e, "name");
    let msg = string(e, "message");
    match (name.is_empty(), msg.is_empty()) {
        (false, false) => format!("{name}: {msg}"),
        (true, false) => msg,
        _ => e.as_string().unwrap_or_else(|| format!("{e:?}")),
    }
}

/// An asynchronous browser call under way (or why it could not start).
type Started = Result<JsFuture, String>;

/// Starts `target[method](...args)`: the browser works on it while the probe does other things.
fn start(target: &JsValue, method: &str, args: &Array) -> Started {
    let f: Function = get(target, method)
        .dyn_into()
        .map_err(|_| format!("{method} is not a function"))?;
    let promise: Promise = Reflect::apply(&f, target, args)
        .map_err(|e| message(&e))?
        .dyn_into()
        .map_err(|_| format!("{method} did not return a promise"))?;
    Ok(JsFuture::from(promise))
}

/// What a started call resolved to.
async fn settle(started: Started) -> Result<JsValue, String> {
    started?.await.map_err(|e| message(&e))
}

fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in entries {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

fn navigator() -> JsValue {
    get(&js_sys::global(), "navigator")
}

/// The adapter of a started `requestAdapter()`.
async fn adapter(power: &str, request: Started) -> AdapterProbe {
    let mut probe = AdapterProbe {
        power_preference: power.to_owned(),
        available: false,
        reason: None,
        vendor: String::new(),
        architecture: String::new(),
        device: String::new(),
        description: String::new(),
        is_fallback_adapter: false,
        features: Vec::new(),
        limits: SortedMap::new(),
    };
    let adapter = match settle(request).await {
        Ok(a) if a.is_null() || a.is_undefined() => {
            probe.reason = Some(String::from(
                "requestAdapter() returned null (no adapter, or WebGPU disabled)",
            ));
            return probe;
        }
        Ok(a) => a,
        Err(e) => {
            probe.reason = Some(format!("requestAdapter() failed: {e}"));
            return probe;
        }
    };
    probe.available = true;
    let info = get(&adapter, "info");
    probe.vendor = string(&info, "vendor");
    probe.architecture = string(&info, "architecture");
    probe.device = string(&info, "device");
    probe.description = string(&info, "description");
    // Chrome moved isFallbackAdapter into GPUAdapterInfo; older browsers have it on the adapter.
    let fallback = get(&info, "isFallbackAdapter");
    probe.is_fallback_adapter = fallback
        .as_bool()
        .or_else(|| get(&adapter, "isFallbackAdapter").as_bool())
        .unwrap_or(false);
    if let Ok(Some(iter)) = js_sys::try_iter(&get(&adapter, "features")) {
        probe.features = iter.filter_map(Result::ok).filter_map(|v| v.as_string()).collect();
        probe.features.sort();
    }
    let limits = get(&adapter, "limits");
    for name in LIMITS {
        if let Some(v) = get(&limits, name).as_f64() {
            probe.limits.insert((*name).to_owned(), v);
        }
    }
    probe
}

/// The power preferences an adapter is requested with.
const POWER_PREFERENCES: [&str; 2] = ["high-performance", "low-power"];

/// Starts `requestAdapter()` for each power preference; `None` without `navigator.gpu`.
fn request_adapters() -> Option<Vec<Started>> {
    let gpu = get(&navigator(), "gpu");
    if gpu.is_undefined() || gpu.is_null() {
        return None;
    }
    let request = |power: &str| {
        let options = object(&[("powerPreference", JsValue::from_str(power))]);
        start(&gpu, "requestAdapter", &Array::of1(&options))
    };
    Some(POWER_PREFERENCES.iter().map(|p| request(p)).collect())
}

async fn webgpu(requests: Option<Vec<Started>>) -> WebGpuProbe {
    let Some(requests) = requests else {
        return WebGpuProbe {
            available: false,
            reason: Some(String::from(
                "navigator.gpu is absent (WebGPU not supported or not enabled here)",
            )),
            adapters: Vec::new(),
        };
    };
    let mut adapters = Vec::new();
    for (power, request) in POWER_PREFERENCES.iter().zip(requests) {
        adapters.push(adapter(power, request).await);
    }
    let available = adapters.iter().any(|a| a.available);
    WebGpuProbe {
        available,
        reason: (!available).then(|| adapters.iter().find_map(|a| a.reason.clone()).unwrap_or_default()),
        adapters,
    }
}

/// `opSupportLimits()` reduced to the data types each op group accepts for its first input.
fn op_support(context: &JsValue) -> Option<Value> {
    let f: Function = get(context, "opSupportLimits").dyn_into().ok()?;
    let limits = f.call0(context).ok()?;
    let keys = Object::keys(limits.dyn_ref::<Object>()?);
    let mut out = serde_json::Map::new();
    for key in keys.iter().filter_map(|k| k.as_string()) {
        let op = get(&limits, &key);
        let types = ["input", "a", "inputs", "dataTypes"].iter().find_map(|field| {
            let v = get(&op, field);
            let list = if v.is_array() { v } else { get(&v, "dataTypes") };
            list.is_array().then(|| {
                Array::from(&list)
                    .iter()
                    .filter_map(|t| t.as_string())
                    .collect::<Vec<_>>()
            })
        });
        if let Some(types) = types {
            out.insert(key, Value::from(types));
        }
    }
    Some(Value::Object(out))
}

/// The WebNN device types a context is asked for.
const WEBNN_DEVICE_TYPES: [&str; 3] = ["cpu", "gpu", "npu"];

/// Starts `navigator.ml.createContext()` for each device type; `None` without `navigator.ml`.
fn create_contexts() -> Option<Vec<Started>> {
    let ml = get(&navigator(), "ml");
    if ml.is_undefined() || ml.is_null() {
        return None;
    }
    let create = |device_type: &str| {
        let options = object(&[("deviceType", JsValue::from_str(device_type))]);
        start(&ml, "createContext", &Array::of1(&options))
    };
    Some(WEBNN_DEVICE_TYPES.iter().map(|t| create(t)).collect())
}

async fn webnn(requests: Option<Vec<Started>>) -> WebNnProbe {
    let Some(requests) = requests else {
        return WebNnProbe {
            available: false,
            reason: Some(String::from(
                "navigator.ml is absent (WebNN not supported or not enabled here)",
            )),
            contexts: Vec::new(),
        };
    };
    let mut contexts = Vec::new();
    for (device_type, request) in WEBNN_DEVICE_TYPES.iter().zip(requests) {
        contexts.push(match settle(request).await {
            Ok(context) => WebNnContextProbe {
                device_type: (*device_type).to_owned(),
                available: true,
                error: None,
                op_support: op_support(&context),
            },
            Err(e) => WebNnContextProbe {
                device_type: (*device_type).to_owned(),
                available: false,
                error: Some(e),
                op_support: None,
            },
        });
    }
    let available = contexts.iter().any(|c| c.available);
    WebNnProbe {
        available,
        reason: (!available).then(|| String::from("navigator.ml exists but no device type gave a context")),
        contexts,
    }
}

/// `UNMASKED_VENDOR_WEBGL`, `UNMASKED_RENDERER_WEBGL`, `VENDOR`, `RENDERER`.
const GL_UNMASKED_VENDOR: u32 = 0x9245;
const GL_UNMASKED_RENDERER: u32 = 0x9246;
const GL_VENDOR: u32 = 0x1F00;
const GL_RENDERER: u32 = 0x1F01;

/// A 1×1 canvas: an `OffscreenCanvas` where there is one (Workers too), else a DOM canvas.
fn canvas() -> Result<JsValue, String> {
    let global = js_sys::global();
    let offscreen = get(&global, "OffscreenCanvas");
    if let Ok(constructor) = offscreen.dyn_into::<Function>() {
        let size = Array::of2(&JsValue::from(1), &JsValue::from(1));
        return Reflect::construct(&constructor, &size).map_err(|e| message(&e));
    }
    let document = get(&global, "document");
    let create: Function = get(&document, "createElement")
        .dyn_into()
        .map_err(|_| String::from("neither OffscreenCanvas nor a document to make a canvas in"))?;
    create
        .call1(&document, &JsValue::from_str("canvas"))
        .map_err(|e| message(&e))
}

fn call(target: &JsValue, method: &str, args: &Array) -> JsValue {
    get(target, method)
        .dyn_into::<Function>()
        .ok()
        .and_then(|f| Reflect::apply(&f, target, args).ok())
        .unwrap_or(JsValue::UNDEFINED)
}

/// The WebGL renderer strings, and the `WEBGL_lose_context` extension that releases the context.
fn webgl() -> (WebGlProbe, JsValue) {
    let mut probe = WebGlProbe {
        available: false,
        reason: None,
        vendor: String::new(),
        renderer: String::new(),
        unmasked_vendor: String::new(),
        unmasked_renderer: String::new(),
    };
    let canvas = match canvas() {
        Ok(c) => c,
        Err(e) => {
            probe.reason = Some(e);
            return (probe, JsValue::UNDEFINED);
        }
    };
    // WebGL 1 first: every browser with WebGL has it, and its context is the cheaper to create; no
    // antialiasing, depth or stencil buffers (the probe only reads strings).
    let attributes = object(&[
        ("antialias", JsValue::FALSE),
        ("depth", JsValue::FALSE),
        ("stencil", JsValue::FALSE),
        ("alpha", JsValue::FALSE),
        ("preserveDrawingBuffer", JsValue::FALSE),
    ]);
    let context = ["webgl", "webgl2"]
        .iter()
        .map(|kind| {
            call(
                &canvas,
                "getContext",
                &Array::of2(&JsValue::from_str(kind), &attributes),
            )
        })
        .find(JsValue::is_object);
    let Some(gl) = context else {
        probe.reason = Some(String::from(
            "getContext('webgl2'/'webgl') returned null (WebGL unavailable)",
        ));
        return (probe, JsValue::UNDEFINED);
    };
    probe.available = true;
    let parameter = |p: u32| {
        call(&gl, "getParameter", &Array::of1(&JsValue::from(p)))
            .as_string()
            .unwrap_or_default()
    };
    probe.vendor = parameter(GL_VENDOR);
    probe.renderer = parameter(GL_RENDERER);
    let debug = call(
        &gl,
        "getExtension",
        &Array::of1(&JsValue::from_str("WEBGL_debug_renderer_info")),
    );
    if debug.is_object() {
        probe.unmasked_vendor = parameter(GL_UNMASKED_VENDOR);
        probe.unmasked_renderer = parameter(GL_UNMASKED_RENDERER);
    } else {
        probe.reason = Some(String::from("WEBGL_debug_renderer_info is not exposed"));
    }
    let lose = call(
        &gl,
        "getExtension",
        &Array::of1(&JsValue::from_str("WEBGL_lose_context")),
    );
    (probe, lose)
}

/// Releases the probe's WebGL context (`WEBGL_lose_context`) once the probe has answered: it costs
/// the GPU process milliseconds, which would otherwise delay the WebGPU adapters still on their way.
fn release_webgl(lose: JsValue) {
    if lose.is_object() {
        gloo_timers::callback::Timeout::new(0, move || {
            call(&lose, "loseContext", &Array::new());
        })
        .forget();
    }
}

fn validates(bytes: &[u8]) -> bool {
    js_sys::WebAssembly::validate(&Uint8Array::from(bytes).into()).unwrap_or(false)
}

fn wasm() -> WasmProbe {
    let global = js_sys::global();
    WasmProbe {
        available: !get(&global, "WebAssembly").is_undefined(),
        simd: validates(SIMD_PROBE),
        threads: validates(THREADS_PROBE),
        cross_origin_isolated: get(&global, "crossOriginIsolated").as_bool().unwrap_or(false),
        shared_array_buffer: !get(&global, "SharedArrayBuffer").is_undefined(),
    }
}

/// Starts `navigator.userAgentData.getHighEntropyValues()`; `None` without `userAgentData`.
fn request_high_entropy_values() -> Option<Started> {
    let uad = get(&navigator(), "userAgentData");
    if uad.is_undefined() {
        return None;
    }
    let hints = Array::of4(
        &"architecture".into(),
        &"bitness".into(),
        &"model".into(),
        &"platformVersion".into(),
    );
    Some(start(&uad, "getHighEntropyValues", &Array::of1(&hints)))
}

async fn navigator_info(high_entropy: Option<Started>) -> NavigatorProbe {
    let nav = navigator();
    let uad = get(&nav, "userAgentData");
    let user_agent_data = if let Some(request) = high_entropy {
        let high = settle(request).await.ok();
        let source = high.unwrap_or_else(|| {
            let f: Option<Function> = get(&uad, "toJSON").dyn_into().ok();
            f.and_then(|f| f.call0(&uad).ok()).unwrap_or(JsValue::UNDEFINED)
        });
        serde_wasm_bindgen::from_value::<Value>(source).ok()
    } else {
        None
    };
    let scope = js_sys::global()
        .dyn_ref::<Object>()
        .map(|o| o.constructor().name().as_string().unwrap_or_default())
        .unwrap_or_default();
    NavigatorProbe {
        hardware_concurrency: get(&nav, "hardwareConcurrency").as_f64(),
        device_memory_gb: get(&nav, "deviceMemory").as_f64(),
        user_agent: get(&nav, "userAgent").as_string(),
        user_agent_data,
        scope,
    }
}

/// A probe under way: the browser's asynchronous calls (adapters, WebNN contexts, high-entropy
/// user-agent values) started, the synchronous probes (WebGL, WebAssembly) done.
pub struct Probing {
    adapters: Option<Vec<Started>>,
    contexts: Option<Vec<Started>>,
    high_entropy: Option<Started>,
    webgl: WebGlProbe,
    /// Releases the WebGL context once the probe is done.
    webgl_release: JsValue,
    wasm: WasmProbe,
}

/// Starts every probe. The asynchronous calls start first and run while WebGL and WebAssembly are
/// probed (and while the caller loads the device database), so the probe takes about its slowest call.
pub fn start_probe() -> Probing {
    let adapters = request_adapters();
    let contexts = create_contexts();
    let high_entropy = request_high_entropy_values();
    let (webgl, webgl_release) = webgl();
    Probing {
        adapters,
        contexts,
        high_entropy,
        webgl,
        webgl_release,
        wasm: wasm(),
    }
}

/// Waits for the started calls and identifies the GPU against `catalog` (the device database once
/// loaded): the report, and the candidates later questions run on.
pub async fn finish_probe(
    probing: Probing,
    catalog: &hwfit_core::DeviceCatalog,
) -> (CapabilityReport, Vec<hwfit_core::Candidate>) {
    let mut report = CapabilityReport {
        webgpu: webgpu(probing.adapters).await,
        webnn: webnn(probing.contexts).await,
        webgl: probing.webgl,
        wasm: probing.wasm,
        navigator: navigator_info(probing.high_entropy).await,
        hardware: SortedMap::new(),
        device_classes: SortedMap::new(),
        gpu: GpuIdentification::default(),
        devices: SortedMap::new(),
        capabilities: BrowserCapabilities::default(),
        browser: String::new(),
    };
    let caps = report.read_capabilities();
    let (available, targets) = hwfit_core::browser::browser_targets(&caps);
    report.hardware = available.hardware.iter().map(|(h, v)| (h.to_string(), *v)).collect();
    report.device_classes = targets
        .iter()
        .map(|(h, id)| (h.to_string(), (*id).to_owned()))
        .collect();
    report.gpu = hwfit_core::browser::identify(&caps, catalog);
    let candidates = hwfit_core::browser::candidates_on(&caps, catalog, &report.gpu);
    report.devices = candidates
        .iter()
        .map(|c| (c.key.clone(), c.device.id.clone()))
        .collect();
    report.browser = caps.words();
    report.capabilities = caps;
    release_webgl(probing.webgl_release);
    (report, candidates)
}
