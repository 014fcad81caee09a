//! Throughput of the analytic model: predictions per second on one core.
//! Run: `cargo bench -p hwfit-core --bench predict`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hwfit_core::perf::step_cost;
use hwfit_core::{
    select_hardware, Candidate, Catalog, DeviceCatalog, HardwareType, Mode, PerfModel, PerfRequest, Precision,
    SelectionConfig, SelectionInput, Workload,
};

fn bench(c: &mut Criterion) {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let perf = PerfModel::builtin().unwrap();
    let llama = catalog.resolve("Llama 3 8B").unwrap().spec;
    let bert = catalog.resolve("bert-base-uncased").unwrap().spec;
    let rtx = devices.resolve("RTX 4090").unwrap().clone();
    let decode = PerfRequest::new(Precision::Q4KM, Workload::Decode, 1, 512);
    let forward = PerfRequest::new(Precision::Fp16, Workload::Forward, 32, 128);

    let mut group = c.benchmark_group("analytic_model");
    group.throughput(Throughput::Elements(1));
    group.bench_function("predict llama-3-8b decode on rtx-4090", |b| {
        b.iter(|| {
            perf.predict(black_box(&llama), black_box(&rtx), black_box(&decode))
                .unwrap()
        });
    });
    group.bench_function("predict bert-base forward on rtx-4090", |b| {
        b.iter(|| {
            perf.predict(black_box(&bert), black_box(&rtx), black_box(&forward))
                .unwrap()
        });
    });
    group.bench_function("step_cost llama-3-8b decode", |b| {
        b.iter(|| step_cost(black_box(&llama), Precision::Q4KM, Workload::Decode, 1, 512).unwrap());
    });
    group.finish();

    let candidates: Vec<Candidate> = HardwareType::ALL
        .iter()
        .filter_map(|hw| Candidate::hardware(&devices, *hw).ok())
        .collect();
    let req = SelectionInput {
        batch_size: 1,
        seq_length: 512,
        mode: Mode::Inference,
        precision: Precision::Fp16,
        task_type: None,
        mixed_precision: None,
        candidates,
    };
    let config = SelectionConfig::default();
    c.bench_function("select_hardware llama-3-8b over 7 hardware types", |b| {
        b.iter(|| select_hardware(black_box(&llama), black_box(&req), &perf, &config).unwrap());
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
