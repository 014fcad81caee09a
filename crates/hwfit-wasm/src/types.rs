//! The TypeScript types of the plain objects the exports take and return, generated from the Rust
//! types (see `typegen.rs`) into `types.d.ts` and emitted into the package's `hwfit.d.ts`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = include_str!("types.d.ts");
