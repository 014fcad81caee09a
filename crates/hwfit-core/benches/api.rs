//! The questions as the faces ask them: a JSON request read, the core's answer, the answer written
//! as JSON — what one `predict()`/`select()` of the npm package costs before the wasm boundary —
//! and building the knowledge they answer from (once per process or page).
//! Run: `cargo bench -p hwfit-core --features device-db --bench api`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hwfit_core::api::{PredictRequest, SelectRequest};
use hwfit_core::device::DATABASE_CSV;
use hwfit_core::Hwfit;

fn bench(c: &mut Criterion) {
    c.bench_function(
        "build the built-in knowledge (Hwfit::builtin: catalogs, classifier, fit)",
        |b| {
            b.iter(|| Hwfit::builtin().unwrap());
        },
    );
    let h = Hwfit::builtin().unwrap().with_device_database(DATABASE_CSV).unwrap();
    for (label, json) in [
        (
            "predict bert-base-uncased on wasm (JSON in, JSON out)",
            r#"{"model_name": "bert-base-uncased", "hardware": ["wasm"]}"#,
        ),
        (
            "predict bert-base-uncased on 'rtx 3080 ti' (JSON in, JSON out)",
            r#"{"model_name": "bert-base-uncased", "devices": ["rtx 3080 ti"]}"#,
        ),
    ] {
        c.bench_function(label, |b| {
            b.iter(|| {
                let req: PredictRequest = serde_json::from_str(black_box(json)).unwrap();
                serde_json::to_string(&h.predict(&req, &[]).unwrap()).unwrap()
            });
        });
    }
    c.bench_function("predict: parse the request only", |b| {
        b.iter(|| {
            serde_json::from_str::<PredictRequest>(black_box(
                r#"{"model_name": "bert-base-uncased", "hardware": ["wasm"]}"#,
            ))
            .unwrap()
        });
    });
    let req: PredictRequest =
        serde_json::from_str(r#"{"model_name": "bert-base-uncased", "hardware": ["wasm"]}"#).unwrap();
    c.bench_function("predict: the core's answer only", |b| {
        b.iter(|| h.predict(black_box(&req), &[]).unwrap());
    });
    let answer = h.predict(&req, &[]).unwrap();
    c.bench_function("predict: write the answer only", |b| {
        b.iter(|| serde_json::to_string(black_box(&answer)).unwrap());
    });
    let select: SelectRequest = serde_json::from_str(r#"{"model_name": "bert-base-uncased"}"#).unwrap();
    c.bench_function("select bert-base-uncased (core only)", |b| {
        b.iter(|| h.select(black_box(&select), &[]).unwrap());
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
