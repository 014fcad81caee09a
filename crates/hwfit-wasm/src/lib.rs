//! hwfit for the web (the npm package `hwfit`): probe the browser's hardware and ask which backend a
//! model should run on, how fast and how big. Thin: probing, conversion and errors; every decision is
//! the core's. Nothing here panics across the boundary: every export returns a `Result` whose error
//! becomes a JS `Error`, `TypeError` or `RangeError` (a panic hook is installed for diagnostics only).

mod api;
mod bench;
mod learn;
mod modules;
mod probe;
#[cfg(all(test, feature = "typegen"))]
mod typegen;
mod types;

use wasm_bindgen::prelude::*;

pub use api::{
    analyze, batch_select, charts, classify, compat, compatibility, compatible, compatible_models, configure, devices,
    distributed, load_device_database, map, matrix, model, models, parse_config, predict, recommend, resource_pool,
    resources, select, template,
};
pub use bench::benchmark;
pub use learn::{load_predictor, unload_predictor};

/// Installs the panic hook (diagnostics only: a panic would be a bug).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Probes WebGPU, WebNN, WebGL's renderer, WebAssembly features and `navigator`, and identifies the
/// GPU (loading the device database first, once); never throws. Later questions that name no
/// hardware run on the devices this probe found.
#[wasm_bindgen(unchecked_return_type = "CapabilityReport")]
pub async fn probe() -> Result<JsValue, JsValue> {
    hwfit_js::to_js(&api::probe_here().await?)
}

/// The version of this package.
#[wasm_bindgen]
#[must_use]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
