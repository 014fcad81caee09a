//! Runs the shared microbenchmarks for detection: the WGSL module on each physical GPU (once, on its
//! preferred back-end) and the CPU kernel on every core at once.

use std::sync::Barrier;

use hwfit_core::Measurement;
use hwfit_microbench::{cpu, gpu, BenchConfig};

use crate::adapters::AdapterReport;
use crate::cpu::CpuInfo;
use crate::report::{DetectedDevice, GpuAdapter, Profile};
use crate::BenchmarkScope;

/// Copy threads at most: memory bandwidth saturates well before, and each thread holds 128 MiB.
pub const MAX_COPY_THREADS: usize = 16;

/// Benchmarks what `scope` asks for, fills the adapters' and devices' figures, and returns the CPU's.
pub(crate) fn run(
    scope: BenchmarkScope,
    config: &BenchConfig,
    found: &[(wgpu::Adapter, AdapterReport)],
    gpus: &mut [GpuAdapter],
    devices: &mut [DetectedDevice],
    cpu_info: &CpuInfo,
) -> Option<Measurement> {
    if scope == BenchmarkScope::None {
        return None;
    }
    let all = scope == BenchmarkScope::All;
    let wanted: Vec<usize> = if all {
        (0..gpus.len()).collect()
    } else if scope == BenchmarkScope::Cpu {
        Vec::new()
    } else {
        devices
            .iter()
            .filter(|d| d.profile == Profile::Unprofiled)
            .filter_map(|d| d.adapter)
            .collect()
    };
    for i in wanted {
        let preferred = (0..gpus.len())
            .filter(|j| gpus[*j].adapter.same_device(&gpus[i].adapter))
            .min_by_key(|j| (gpus[*j].adapter.backend_rank(), *j))
            .unwrap_or(i);
        if preferred != i {
            gpus[i].benchmark_note = Some(format!("same device as gpus[{preferred}], benchmarked there"));
            continue;
        }
        match pollster::block_on(gpu::run(&found[i].0, config)) {
            Ok(m) => gpus[i].benchmark = Some(m),
            Err(e) => gpus[i].benchmark_note = Some(e.to_string()),
        }
    }
    for d in devices
        .iter_mut()
        .filter(|d| d.hardware_type != hwfit_core::HardwareType::Cpu)
    {
        d.benchmark = d.adapter.and_then(|i| gpus[i].benchmark.clone());
    }
    let cpu_unknown = devices.iter().any(|d| d.key == "cpu" && d.catalog_id.is_none());
    let cpu_measurement = (all || scope == BenchmarkScope::Cpu || cpu_unknown).then(|| all_cores(cpu_info, config));
    if let Some(cpu_device) = devices.iter_mut().find(|d| d.key == "cpu") {
        cpu_device.benchmark.clone_from(&cpu_measurement);
    }
    for d in devices.iter_mut() {
        if d.profile == Profile::Unprofiled && d.benchmark.is_some() {
            d.profile = Profile::Measured;
        }
    }
    cpu_measurement
}

/// The CPU kernel on one thread per physical core at once (matmul), then on up to
/// [`MAX_COPY_THREADS`] threads at once (copy).
#[must_use]
pub fn all_cores(cpu_info: &CpuInfo, config: &BenchConfig) -> Measurement {
    let threads = cpu_info.physical_cores.unwrap_or(cpu_info.logical_cores).max(1) as usize;
    let copy_threads = threads.min(MAX_COPY_THREADS);
    let barrier = Barrier::new(threads);
    let copy_barrier = Barrier::new(copy_threads);
    let results: Vec<((f64, u32), Option<f64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (barrier, copy_barrier) = (&barrier, &copy_barrier);
                s.spawn(move || {
                    barrier.wait();
                    let mm = cpu::matmul_gflops(config);
                    barrier.wait();
                    let copy = (t < copy_threads).then(|| {
                        copy_barrier.wait();
                        cpu::copy_gbs(config)
                    });
                    (mm, copy)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let matmul: Vec<f64> = results.iter().map(|r| r.0 .0).collect();
    let copy: Vec<f64> = results.iter().filter_map(|r| r.1).collect();
    let n = results.first().map_or(0, |r| r.0 .1);
    cpu::combine(&matmul, &copy, n, config)
}
