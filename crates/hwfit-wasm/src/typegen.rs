//! Generates `src/types.d.ts`, the package's TypeScript types, from the JSON Schemas (schemars) of
//! the Rust types the exports take and return, and fails when the committed file has drifted.
//!
//! Why JSON Schema and not tsify/ts-rs/specta: the core already derives schemars for the server's
//! OpenAPI document, so the HTTP and JS contracts come from one derive; schemars honours every serde
//! attribute the types use (`flatten`, `default`, tagged and untagged enums, the `camel-case`
//! renames, custom `Deserialize` such as `HardwareList`), and it keeps the no_std core free of a
//! wasm-bindgen-specific dependency. Requests are described as serde reads them (optional fields
//! where a default exists), answers as serde writes them.
//!
//! `HWFIT_UPDATE_TYPES=1 cargo test -p hwfit-wasm --features typegen typegen` rewrites the file.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hwfit_core::api::{self, visit_questions, Question, QuestionVisitor};
use schemars::generate::{Contract, SchemaSettings};
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::Value;

const HEADER: &str = "// The plain objects hwfit's exports take and return. Generated from the Rust types by\n// `HWFIT_UPDATE_TYPES=1 cargo test -p hwfit-wasm --features typegen typegen`; do not edit by hand.\n// Field names are camelCase; enum values and map keys (ids, hardware types, precisions) keep their\n// spelling (`text_generation`, `q4_k_m`, `nvidia-h100-sxm`).\n";

fn generator(contract: Contract) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.contract = contract;
            s.definitions_path = "/$defs".into();
        })
        .into_generator()
}

/// Adds `T` and everything it refers to; checks it is defined under `name`.
fn add<T: JsonSchema>(g: &mut SchemaGenerator, roots: &mut Vec<String>, name: &str) {
    let reference = g.subschema_for::<T>();
    assert_eq!(
        reference.get("$ref").and_then(Value::as_str),
        Some(format!("#/$defs/{name}").as_str()),
        "{name} must be a named definition"
    );
    roots.push(name.to_owned());
}

/// Each question of the core's list: its request as read, its answer as written.
struct Questions<'a> {
    requests: &'a mut SchemaGenerator,
    answers: &'a mut SchemaGenerator,
    roots: &'a mut Vec<String>,
}

impl QuestionVisitor for Questions<'_> {
    fn visit<Q: Question>(&mut self) {
        let name = <Q as JsonSchema>::schema_name();
        add::<Q>(self.requests, self.roots, &name);
        // Answers may be lists or maps of named types (`CatalogSummary[]`), so no name is required.
        self.answers.subschema_for::<Q::Answer<'static>>();
    }
}

/// Every definition the exports need: requests as read, answers as written.
fn definitions() -> BTreeMap<String, Value> {
    let mut requests = generator(Contract::Deserialize);
    let mut answers = generator(Contract::Serialize);
    let mut roots = Vec::new();
    visit_questions(&mut Questions {
        requests: &mut requests,
        answers: &mut answers,
        roots: &mut roots,
    });
    macro_rules! read {
        ($($t:ty => $n:literal),* $(,)?) => { $(add::<$t>(&mut requests, &mut roots, $n);)* };
    }
    macro_rules! written {
        ($($t:ty => $n:literal),* $(,)?) => { $(add::<$t>(&mut answers, &mut roots, $n);)* };
    }
    // The package's own options and answers besides the questions.
    read! {
        crate::api::ConfigureOptions => "ConfigureOptions", hwfit_js::BenchmarkOptions => "BenchmarkOptions",
        crate::api::AnswerOptions => "AnswerOptions",
    }
    written! {
        api::BatchEntry => "BatchEntry", hwfit_core::catalog::CatalogSummary<'_> => "CatalogSummary",
        hwfit_core::Device => "Device", crate::api::ChartsAnswer => "ChartsAnswer", hwfit_js::ChartSvg => "ChartSvg",
        crate::probe::CapabilityReport => "CapabilityReport", hwfit_js::BenchmarkReport => "BenchmarkReport",
        crate::learn::PredictorInfo => "PredictorInfo",
    }
    let mut defs = BTreeMap::new();
    for (mut g, side) in [(requests, "request"), (answers, "answer")] {
        for (name, schema) in g.take_definitions(true) {
            if let Some(previous) = defs.get(&name) {
                assert_eq!(
                    previous, &schema,
                    "{name} reads differently from how it is written ({side}); give the request side its own type"
                );
            }
            defs.insert(name, schema);
        }
    }
    for name in roots {
        assert!(defs.contains_key(&name), "{name} is not defined");
    }
    defs
}

/// A property name as TypeScript accepts it unquoted, or quoted.
fn key(name: &str) -> String {
    let plain = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("{name:?}")
    }
}

fn doc(schema: &Value, indent: &str, out: &mut String) {
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let d = d.replace("*/", "*\\/");
        if d.contains('\n') {
            let _ = writeln!(out, "{indent}/**");
            for line in d.lines() {
                let _ = writeln!(out, "{indent} * {line}").map(|()| ());
            }
            let _ = writeln!(out, "{indent} */");
        } else {
            let _ = writeln!(out, "{indent}/** {d} */");
        }
    }
}

fn union(parts: Vec<String>) -> String {
    let mut seen = Vec::new();
    for p in parts {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen.join(" | ")
}

fn object_body(schema: &Value, indent: &str) -> String {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::from("{\n");
    let inner = format!("{indent}    ");
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            doc(prop, &inner, &mut out);
            let optional = if required.contains(&name.as_str()) { "" } else { "?" };
            let _ = writeln!(out, "{inner}{}{optional}: {};", key(name), ts(prop, &inner));
        }
    }
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) | None => {}
        Some(extra) => {
            let _ = writeln!(out, "{inner}[key: string]: {};", ts(extra, &inner));
        }
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// The TypeScript type of a schema.
fn ts(schema: &Value, indent: &str) -> String {
    let Some(obj) = schema.as_object() else {
        return String::from(if schema == &Value::Bool(false) {
            "never"
        } else {
            "unknown"
        });
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    if let Some(c) = obj.get("const") {
        return c.to_string();
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array) {
        return union(values.iter().map(Value::to_string).collect());
    }
    for k in ["anyOf", "oneOf"] {
        if let Some(options) = obj.get(k).and_then(Value::as_array) {
            let mut base = obj.clone();
            base.remove(k);
            base.remove("description");
            let shared = base
                .contains_key("properties")
                .then(|| ts(&Value::Object(base), indent));
            let parts = options
                .iter()
                .map(|o| {
                    let t = ts(o, indent);
                    match &shared {
                        Some(s) => format!("({s} & {t})"),
                        None => t,
                    }
                })
                .collect();
            return union(parts);
        }
    }
    if let Some(all) = obj.get("allOf").and_then(Value::as_array) {
        return all.iter().map(|s| ts(s, indent)).collect::<Vec<_>>().join(" & ");
    }
    match obj.get("type") {
        Some(Value::Array(types)) => union(
            types
                .iter()
                .map(|t| {
                    let mut one = obj.clone();
                    one.insert("type".into(), t.clone());
                    ts(&Value::Object(one), indent)
                })
                .collect(),
        ),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".into(),
            "integer" | "number" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => match (obj.get("prefixItems"), obj.get("items")) {
                (Some(Value::Array(items)), _) => {
                    format!(
                        "[{}]",
                        items.iter().map(|i| ts(i, indent)).collect::<Vec<_>>().join(", ")
                    )
                }
                (_, Some(items)) => {
                    let t = ts(items, indent);
                    if t.contains(' ') && !t.starts_with('{') {
                        format!("({t})[]")
                    } else {
                        format!("{t}[]")
                    }
                }
                _ => "unknown[]".into(),
            },
            "object" => {
                if obj.contains_key("properties") {
                    object_body(schema, indent)
                } else {
                    match obj.get("additionalProperties") {
                        Some(extra) if extra != &Value::Bool(false) => format!("Record<string, {}>", ts(extra, indent)),
                        _ => "Record<string, unknown>".into(),
                    }
                }
            }
            other => panic!("no TypeScript for JSON Schema type {other}"),
        },
        _ => "unknown".into(),
    }
}

/// The whole file.
fn generate() -> String {
    let mut out = String::from(HEADER);
    for (name, schema) in definitions() {
        out.push('\n');
        doc(&schema, "", &mut out);
        let is_interface = schema.get("type").and_then(Value::as_str) == Some("object")
            && schema.get("properties").is_some()
            && schema.get("anyOf").is_none()
            && schema.get("oneOf").is_none();
        if is_interface {
            let _ = writeln!(out, "export interface {name} {}", object_body(&schema, ""));
        } else {
            let _ = writeln!(out, "export type {name} = {};", ts(&schema, ""));
        }
    }
    out
}

#[test]
fn typegen_types_d_ts_matches_the_rust_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/types.d.ts");
    let generated = generate();
    if std::env::var_os("HWFIT_UPDATE_TYPES").is_some() {
        std::fs::write(path, &generated).expect("write src/types.d.ts");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "src/types.d.ts is out of date with the Rust types: run\n  HWFIT_UPDATE_TYPES=1 cargo test -p hwfit-wasm --features typegen typegen"
    );
}
