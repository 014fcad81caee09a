//! The device database's costs: parsing it (what the npm package does once on load), the bundled
//! catalog answering a curated name, a database name (one row parsed, the compiled-in name tables) and
//! listing every device, resolving a name against ~3,600 devices, refusing an unknown one (with
//! suggestions), identifying a browser's GPU.
//! Run: `cargo bench -p hwfit-core --features device-db --bench devices`.

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hwfit_core::browser::{identify, BrowserCapabilities, WebGlRenderer};
use hwfit_core::device::DATABASE_CSV;
use hwfit_core::DeviceCatalog;

fn bench(c: &mut Criterion) {
    c.bench_function("parse the device database's rows (derive rates)", |b| {
        b.iter(|| hwfit_core::device::database::parse(black_box(DATABASE_CSV)).unwrap());
    });
    c.bench_function("load the device database (curated + 3,600 rows, index)", |b| {
        b.iter(|| DeviceCatalog::builtin().with_database(black_box(DATABASE_CSV)).unwrap());
    });
    c.bench_function("bundled catalog, an exact curated name (the database not read)", |b| {
        b.iter(|| {
            let catalog = DeviceCatalog::bundled().unwrap();
            catalog.resolve(black_box("NVIDIA GeForce RTX 4090")).unwrap().id.len()
        });
    });
    c.bench_function(
        "bundled catalog, a name that needs the database (its rows read on first use)",
        |b| {
            b.iter(|| {
                let catalog = DeviceCatalog::bundled().unwrap();
                catalog.resolve(black_box("rtx3080ti")).unwrap().id.len()
            });
        },
    );
    c.bench_function("bundled catalog, every device listed (all rows read)", |b| {
        b.iter(|| DeviceCatalog::bundled().unwrap().devices().len());
    });
    let catalog = DeviceCatalog::bundled().unwrap();
    c.bench_function("resolve 'rtx3080ti' in the database", |b| {
        b.iter(|| catalog.resolve(black_box("rtx3080ti")).unwrap());
    });
    c.bench_function("refuse 'not a gpu 9000' with suggestions", |b| {
        b.iter(|| catalog.resolve(black_box("not a gpu 9000")).unwrap_err());
    });
    let caps = BrowserCapabilities {
        webgpu: None,
        webnn_contexts: Vec::new(),
        wasm: true,
        webgl: Some(WebGlRenderer {
            vendor: String::from("Google Inc. (NVIDIA)"),
            renderer: String::from(
                "ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Ti (0x00002208) Direct3D11 vs_5_0 ps_5_0, D3D11)",
            ),
        }),
        ..Default::default()
    };
    c.bench_function("identify a GPU from an ANGLE renderer string", |b| {
        b.iter(|| identify(black_box(&caps), &catalog));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
