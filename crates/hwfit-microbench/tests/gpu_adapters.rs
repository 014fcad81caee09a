#![allow(clippy::print_stderr)]
//! The WGSL microbenchmark on every adapter wgpu finds here (Mesa's lavapipe in CI).
//!
//! `HWFIT_REQUIRE_GPU_ADAPTER=1` (set by `scripts/ci`, which installs Mesa) makes a missing adapter a
//! failure; elsewhere the test says it found none.

use hwfit_microbench::gpu::{self, GpuBench};
use hwfit_microbench::BenchConfig;

fn adapters() -> Vec<wgpu::Adapter> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    if adapters.is_empty() {
        assert!(
            std::env::var("HWFIT_REQUIRE_GPU_ADAPTER").is_err(),
            "no wgpu adapter, but HWFIT_REQUIRE_GPU_ADAPTER is set (install mesa-vulkan-drivers)"
        );
        eprintln!("no wgpu adapter on this machine; nothing to benchmark");
    }
    adapters
}

#[test]
fn microbenchmark_runs_and_checks_its_results_on_every_adapter() {
    for adapter in adapters() {
        let info = adapter.get_info();
        let m = pollster::block_on(gpu::run(&adapter, &BenchConfig::quick()))
            .unwrap_or_else(|e| panic!("{} ({:?}): {e}", info.name, info.backend));
        eprintln!("{} ({:?}): {m:?}", info.name, info.backend);
        assert!(m.matmul_f32_gflops > 0.0 && m.matmul_f32_gflops.is_finite());
        assert!(m.copy_gbs > 0.0 && m.copy_gbs.is_finite());
        assert!(m.matmul_n >= 64 && m.matmul_n % 64 == 0);
        let bench = pollster::block_on(GpuBench::new(&adapter)).expect("device");
        assert_eq!(m.matmul_f16_gflops.is_some(), bench.has_f16());
    }
}
