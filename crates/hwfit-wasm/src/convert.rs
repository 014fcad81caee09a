//! Between Rust values and plain JS objects, and from typed errors to JS `Error`, `TypeError` and
//! `RangeError`.

use hwfit_core::CoreError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// A Rust value as a plain JS object. Field names are camelCase by the types themselves (the core's
/// `camel-case` feature, on in this build); map keys (ids, hardware types, precisions) stay as they are.
/// Written as JSON text and parsed by `JSON.parse`: smaller code than a serializer into JS values
/// for every answer type (6 KB of the gzipped wasm), and one call across the boundary.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// A plain JS object as a Rust value; a wrong shape or an unknown field is a `TypeError` naming the
/// field. Read through JSON values: serde-wasm-bindgen looks up only the fields a type knows, so it
/// would let a misspelt field pass unnoticed.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(type_error(&format!("{what}: expected an object, got {value:?}")));
    }
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(value).map_err(|e| type_error(&format!("{what}: {e}")))?;
    serde_json::from_value(json).map_err(|e| type_error(&format!("{what}: {e}")))
}

/// A JS `Error`.
pub fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// A JS `TypeError`.
pub fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// A JS `RangeError`.
pub fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// A core error as the JS error of its kind: out-of-range numbers, too-long sequences and
/// [`CoreError::UnknownValue`] (a name the core itself parses, such as a task) are `RangeError`s;
/// unknown models/devices and impossible requests are plain `Error`s.
///
/// An unknown enum value in an input object (`hardware: "tpu"`, `precision: "fp12"`) never reaches
/// this function: the enum's `Deserialize` refuses it while [`from_js`] reads the object, so it is a
/// `TypeError`, like every other wrong shape.
pub fn core_error(e: &CoreError) -> JsValue {
    match e {
        // As in the platform (`new Intl.NumberFormat("en", {style: "x"})`), a value outside the
        // allowed set is a RangeError.
        CoreError::InvalidNumber { .. } | CoreError::SequenceTooLong { .. } | CoreError::UnknownValue { .. } => {
            range_error(&e.to_string())
        }
        _ => error(&e.to_string()),
    }
}
