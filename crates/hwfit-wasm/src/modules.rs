//! The package's other wasm modules — `bench/` (the microbenchmarks, wgpu), `charts/` (the five
//! charts) and `learn/` (the learned predictor, tract-onnx) — imported and instantiated on first
//! use, so pages that never measure, draw or ask about other hardware never download them and this
//! module stays small. The `linked-modules` feature links them in instead (the browser tests, which
//! run without a package around them).

#[cfg(not(feature = "linked-modules"))]
use wasm_bindgen::prelude::*;

#[cfg(not(feature = "linked-modules"))]
#[wasm_bindgen(inline_js = "const loading = new Map();
function load(name) {
  if (!loading.has(name)) {
    const started = (async () => {
      const module = await import(new URL(`../../${name}/hwfit_${name}.js`, import.meta.url).href);
      const wasm = new URL(`../../${name}/hwfit_${name}_bg.wasm`, import.meta.url);
      if (wasm.protocol === 'file:') {
        const fs = 'node:fs/promises';
        const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
        await module.default({ module_or_path: await readFile(wasm) });
      } else {
        await module.default({ module_or_path: wasm });
      }
      return module;
    })();
    started.catch(() => loading.delete(name));
    loading.set(name, started);
  }
  return loading.get(name);
}
export async function callModule(name, fn, argument) {
  let module;
  try {
    module = await load(name);
  } catch (e) {
    throw new Error(`the ${name} module (${name}/hwfit_${name}.js beside hwfit.js) could not be loaded: ${e && e.message || e}`);
  }
  return module[fn](argument);
}")]
extern "C" {
    /// `name/hwfit_name.js`'s export `function(argument)`, the module imported and instantiated
    /// once (in node from the file beside this one). Its errors come through as they are.
    #[wasm_bindgen(catch, js_name = callModule)]
    pub(crate) async fn call_module(name: &str, function: &str, argument: JsValue) -> Result<JsValue, JsValue>;
}
