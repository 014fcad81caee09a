//! One learned prediction next to one analytic prediction, natively (tract-onnx and tract-nnef).
//! Run: `cargo bench -p hwfit-learn --bench learned`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use hwfit_core::perf::ResidualModel;
use hwfit_core::{Catalog, DeviceCatalog, PerfModel, PerfRequest, Precision, Workload};
use hwfit_learn::predictor::{DEFAULT_MODEL, DEFAULT_MODEL_NNEF};
use hwfit_learn::TractPredictor;

fn bench(c: &mut Criterion) {
    let llama = Catalog::builtin().resolve("Llama 3 8B").unwrap().spec;
    let rtx = DeviceCatalog::builtin().resolve("RTX 4090").unwrap().clone();
    let decode = PerfRequest::new(Precision::Q4KM, Workload::Decode, 1, 512);
    let analytic = PerfModel::builtin().unwrap();
    let onnx = TractPredictor::from_onnx(DEFAULT_MODEL).unwrap();
    let learned = analytic
        .clone()
        .with_learned(Some(Arc::new(onnx.clone()) as Arc<dyn ResidualModel>));
    let mut group = c.benchmark_group("prediction");
    group.bench_function("analytic llama-3-8b q4_k_m decode on rtx-4090", |b| {
        b.iter(|| {
            analytic
                .predict(black_box(&llama), black_box(&rtx), black_box(&decode))
                .unwrap()
        });
    });
    group.bench_function("learned llama-3-8b q4_k_m decode on rtx-4090", |b| {
        b.iter(|| {
            learned
                .predict(black_box(&llama), black_box(&rtx), black_box(&decode))
                .unwrap()
        });
    });
    group.finish();
    let (_, features) = analytic.analytic_with_features(&llama, &rtx, &decode).unwrap();
    let nnef = TractPredictor::from_nnef(DEFAULT_MODEL_NNEF).unwrap();
    let mut group = c.benchmark_group("tract");
    group.bench_function("evaluate (onnx)", |b| {
        b.iter(|| onnx.evaluate(black_box(&features)).unwrap());
    });
    group.bench_function("evaluate (nnef)", |b| {
        b.iter(|| nnef.evaluate(black_box(&features)).unwrap());
    });
    group.bench_function("load default.onnx", |b| {
        b.iter(|| TractPredictor::from_onnx(black_box(DEFAULT_MODEL)).unwrap());
    });
    group.bench_function("load default.nnef.tar", |b| {
        b.iter(|| TractPredictor::from_nnef(black_box(DEFAULT_MODEL_NNEF)).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
