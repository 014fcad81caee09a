//! The OpenAPI 3.1 document, generated from the route table and the core's request and answer
//! types (their JSON Schemas, 2020-12, are OpenAPI 3.1's schema dialect).

use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};

use crate::error::ErrorBody;
use hwfit_core::api::HttpMethod;

use crate::routes::routes;

/// Builds the document.
#[must_use]
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| s.definitions_path = "/components/schemas".into())
        .into_generator();
    let error = generator.subschema_for::<ErrorBody>();
    let mut paths = Map::new();
    for route in routes() {
        let answer = (route.answer)(&mut generator);
        let mut op = json!({
            "summary": route.summary,
            "operationId": route.operation,
            "responses": {
                "200": { "description": "The answer", "content": { "application/json": { "schema": answer } } },
                "400": { "description": "Malformed JSON", "content": { "application/json": { "schema": error } } },
                "401": { "description": "Missing or wrong API key (when the server has one)", "content": { "application/json": { "schema": error } } },
                "404": { "description": "Unknown model or device", "content": { "application/json": { "schema": error } } },
                "413": { "description": "Body over the limit", "content": { "application/json": { "schema": error } } },
                "422": { "description": "A field's name, type or value is wrong", "content": { "application/json": { "schema": error } } }
            }
        });
        if let Some(request) = route.request {
            let schema = request(&mut generator);
            if route.method == HttpMethod::Post {
                op["requestBody"] =
                    json!({ "required": false, "content": { "application/json": { "schema": schema } } });
            } else {
                op["parameters"] = query_parameters(&generator, &schema);
            }
        }
        let entry = paths.entry(route.path).or_insert_with(|| json!({}));
        entry[route.method.as_str().to_ascii_lowercase()] = op;
    }
    let schemas: Map<String, Value> = generator.take_definitions(true).into_iter().collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "hwfit",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Which hardware should this ML model run on, how fast, how big. The paths and JSON field names of IPFS Accelerate's hardware-selection API, answered by hwfit's core.",
            "license": { "name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0" }
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } }
        },
        "paths": paths
    })
}

/// A GET route's query parameters: the properties of its request type.
fn query_parameters(generator: &schemars::SchemaGenerator, schema: &schemars::Schema) -> Value {
    let resolved = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .and_then(|name| generator.definitions().get(name))
        .cloned()
        .unwrap_or_else(|| schema.clone().to_value());
    let props = resolved
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Value::Array(
        props
            .into_iter()
            .map(|(name, s)| json!({ "name": name, "in": "query", "required": false, "schema": s }))
            .collect(),
    )
}
