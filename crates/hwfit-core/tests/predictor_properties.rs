//! Property tests of the analytic model over the catalogs: every valid request gives finite, positive
//! numbers; throughput never exceeds the roofline; more memory never makes a model fit less.

use hwfit_core::{Catalog, DeviceCatalog, PerfModel, PerfRequest, Precision, Workload};
use proptest::prelude::*;

fn workloads() -> impl Strategy<Value = Workload> {
    prop::sample::select(vec![
        Workload::Forward,
        Workload::Prefill,
        Workload::Decode,
        Workload::TrainStep,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn predictions_are_finite_positive_and_under_the_roofline(
        model in 0usize..1000,
        device in 0usize..1000,
        precision in prop::sample::select(Precision::ALL.to_vec()),
        workload in workloads(),
        batch in 1u32..=512,
        seq in 1u32..=8192,
    ) {
        let catalog = Catalog::builtin();
        let devices = DeviceCatalog::builtin();
        let spec = &catalog.entries()[model % catalog.entries().len()].spec().clone();
        let device = &devices.devices()[device % devices.devices().len()];
        let seq = seq.min(spec.max_positions.max(1));
        let req = PerfRequest { precision, workload, batch_size: batch, seq_length: seq };
        // Refusals (unsupported precision, non-generative decode, untrainable precision) are typed
        // errors; everything else must be a sound prediction.
        if let Ok(p) = PerfModel::builtin().unwrap().predict(spec, device, &req) {
            for v in [p.throughput, p.latency, p.memory_usage, p.flops_per_step, p.bytes_per_step, p.roofline_throughput] {
                prop_assert!(v.is_finite() && v > 0.0, "{v} in {p:?}");
            }
            prop_assert!(p.throughput <= p.roofline_throughput * 1.0001, "{p:?}");
        }
    }

    #[test]
    fn more_memory_never_fits_less(
        model in 0usize..1000,
        device in 0usize..1000,
        batch in 1u32..=64,
        extra_gb in 0.0f64..1024.0,
    ) {
        let catalog = Catalog::builtin();
        let devices = DeviceCatalog::builtin();
        let spec = catalog.entries()[model % catalog.entries().len()].spec().clone();
        let small = devices.devices()[device % devices.devices().len()].clone();
        let mut big = small.clone();
        big.memory_gb += extra_gb;
        let req = PerfRequest { precision: Precision::Fp32, workload: Workload::Forward, batch_size: batch, seq_length: spec.max_positions.clamp(1, 128) };
        let perf = PerfModel::builtin().unwrap();
        if let (Ok(a), Ok(b)) = (perf.predict(&spec, &small, &req), perf.predict(&spec, &big, &req)) {
            prop_assert!(!a.fits_in_memory || b.fits_in_memory);
            prop_assert!((a.memory_usage - b.memory_usage).abs() < f64::EPSILON);
        }
    }
}
