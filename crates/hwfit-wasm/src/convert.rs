//! Between Rust values (IPFS Accelerate's snake_case JSON) and plain JS objects (camelCase), and from typed
//! errors to JS `Error`, `TypeError` and `RangeError`.

use hwfit_core::CoreError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// `batch_size` → `batchSize`; keys that are not lower-case identifiers (model ids, device ids) or
/// that are precision names (`q4_k_m`, map keys of the matrix) stay.
fn camel(key: &str) -> String {
    if !is_identifier(key) || key.parse::<hwfit_core::Precision>().is_ok() {
        return key.to_owned();
    }
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `batchSize` → `batch_size`.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn is_identifier(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_lowercase())
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn rename_keys(value: Value, f: &impl Fn(&str) -> String) -> Value {
    match value {
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (f(&k), rename_keys(v, f))).collect()),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| rename_keys(v, f)).collect()),
        other => other,
    }
}

/// A Rust value as a plain JS object with camelCase keys.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_value(value).map_err(|e| error(&e.to_string()))?;
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    rename_keys(json, &camel)
        .serialize(&serializer)
        .map_err(|e| error(&e.to_string()))
}

/// A plain JS object (camelCase keys) as a Rust value; a wrong shape is a `TypeError` naming the field.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(type_error(&format!("{what}: expected an object, got {value:?}")));
    }
    let json: Value = serde_wasm_bindgen::from_value(value).map_err(|e| type_error(&format!("{what}: {e}")))?;
    serde_json::from_value(rename_keys(json, &snake))
        .map_err(|e| type_error(&format!("{what}: {}", camel_message(&e.to_string()))))
}

/// serde's messages name snake_case fields; JS callers wrote camelCase.
fn camel_message(message: &str) -> String {
    message
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { camel(part) } else { part.to_owned() })
        .collect::<Vec<_>>()
        .join("`")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_convert_both_ways_and_ids_stay() {
        assert_eq!(camel("all_scores"), "allScores");
        assert_eq!(camel("fp16_acc16"), "fp16Acc16");
        assert_eq!(camel("nvidia-h100-sxm"), "nvidia-h100-sxm");
        assert_eq!(camel("google-bert/bert_base"), "google-bert/bert_base");
        assert_eq!(camel("cuda:0"), "cuda:0");
        assert_eq!(camel("q4_k_m"), "q4_k_m");
        assert_eq!(snake("batchSize"), "batch_size");
        assert_eq!(snake(&camel("memory_bandwidth_gbs")), "memory_bandwidth_gbs");
        assert_eq!(
            camel_message("unknown field `batch_sise`, expected `batch_size`"),
            "unknown field `batchSise`, expected `batchSize`"
        );
    }
}
