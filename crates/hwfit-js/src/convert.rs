//! Between Rust values and plain JS objects, and from typed errors to JS `Error`, `TypeError` and
//! `RangeError`.

use hwfit_core::CoreError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A Rust value as a plain JS object. Field names are camelCase by the types themselves (the core's
/// `camel-case` feature, on in this build); map keys (ids, hardware types, precisions) stay as they are.
/// Written as JSON text and parsed by `JSON.parse`: smaller code than a serializer into JS values
/// for every answer type (6 KB of the gzipped wasm), and one call across the boundary.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| error(&e.to_string()))?;
    js_sys::JSON::parse(&text)
}

#[wasm_bindgen(inline_js = "export function requestJson(value) {
  return JSON.stringify(value, (key, v) => {
    const where = key === '' ? 'the request' : key;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError(`${where}: ${v} is not a finite number`);
    if (typeof v === 'function' || typeof v === 'symbol') throw new TypeError(`${where}: a ${typeof v} is not a value`);
    if (typeof v === 'bigint') throw new TypeError(`${where}: a BigInt is not allowed (pass a number)`);
    return v;
  });
}")]
extern "C" {
    /// The request as JSON text: `JSON.stringify` in one call, refusing what JSON would silently drop
    /// or turn into `null` (functions, symbols, `NaN`, infinities) and BigInts, naming the field.
    #[wasm_bindgen(catch, js_name = requestJson)]
    fn request_json(value: &JsValue) -> Result<Option<String>, JsValue>;
}

/// A plain JS object as a Rust value; a wrong shape or an unknown field is a `TypeError` naming the
/// field. Read as JSON text (`JSON.stringify` once, then serde_json): one call across the boundary
/// instead of two per field (the cost of a `predict()` fell from 66 to 47 µs in node), and every
/// field is seen, so a misspelt one is refused.
// By value: the exports hand their arguments over (JS keeps its own reference).
#[allow(clippy::needless_pass_by_value)]
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    // Through a JSON value: `T`'s deserializer from a `Value` is the one the rest of the package
    // uses (one from text for each request type would add 20 KB); only this line is generic.
    serde_json::from_value(request_value(&value, what)?).map_err(|e| shape_error(what, &e))
}

/// The request as a JSON value, or the `TypeError` that says why it is none.
fn request_value(value: &JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(type_error(&format!("{what}: expected an object, got {value:?}")));
    }
    let text = match request_json(value) {
        Ok(Some(text)) => text,
        Ok(None) => return Err(type_error(&format!("{what}: expected an object, got {value:?}"))),
        Err(e) => {
            let message = e
                .dyn_ref::<js_sys::Error>()
                .map_or_else(|| format!("{e:?}"), |e| String::from(e.message()));
            return Err(type_error(&format!("{what}: {message}")));
        }
    };
    serde_json::from_str(&text).map_err(|e| shape_error(what, &e))
}

/// A wrong shape as a `TypeError`: `what: message`, without serde_json's position in text the
/// caller never saw.
fn shape_error(what: &str, e: &serde_json::Error) -> JsValue {
    type_error(&format!("{what}: {}", without_position(e)))
}

/// serde_json's message without its " at line 1 column N" (a position in text the caller never saw).
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    match message.rsplit_once(" at line ") {
        Some((head, _)) if e.line() > 0 => head.to_owned(),
        _ => message,
    }
}

/// A JS `Error`.
#[must_use]
pub fn error(message: &str) -> JsValue {
    js_sys::Error::new(message).into()
}

/// A JS `TypeError`.
#[must_use]
pub fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// A JS `RangeError`.
#[must_use]
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
#[must_use]
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
