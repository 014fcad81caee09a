//! The per-core memory bandwidth of CPUs, fitted to llama.cpp runs on fewer threads than cores.
//!
//! A run on `t` of a CPU's `c` cores computes at `t / c` of its peak and reads at
//! `min(bandwidth, t × per-core bandwidth)` ([`Device::on_threads`](crate::Device::on_threads)). The
//! per-core figure is the one number that describes: it is chosen on a log-spaced grid as the value
//! under which the CPU generate cell (its compute and memory efficiencies and overhead refitted at
//! every point) fits all its measurements best. Deterministic; no row is fitted by hand.

use alloc::vec::Vec;

use super::MeasuredStep;
use crate::perf::fit::{fit_efficiency, log_space, Sample};
use crate::perf::WorkloadClass;
use crate::{CoreError, HardwareType};

/// The range searched, GB/s per core: from an in-order core on narrow memory to a wide core with
/// many outstanding misses (Apple's performance cores).
pub const CORE_BANDWIDTH_BOUNDS_GBS: (f64, f64) = (1.0, 200.0);

/// Grid points over [`CORE_BANDWIDTH_BOUNDS_GBS`] (steps of ~4 %).
const GRID: usize = 136;

/// The per-core bandwidth under which the CPU generate steps of `steps` fit best, or `None` where no
/// step ran on fewer threads than cores.
pub fn fit_core_bandwidth(steps: &[MeasuredStep]) -> Result<Option<f64>, CoreError> {
    let cpu: Vec<&MeasuredStep> = steps
        .iter()
        .filter(|s| {
            s.device.hardware_type == HardwareType::Cpu
                && WorkloadClass::of(s.request.workload) == WorkloadClass::Generate
        })
        .collect();
    if !cpu.iter().any(|s| s.threads.is_some()) {
        return Ok(None);
    }
    let mut best: Option<(f64, f64)> = None;
    for i in 0..GRID {
        let per_core = log_space(CORE_BANDWIDTH_BOUNDS_GBS, i, GRID);
        let samples = cpu
            .iter()
            .map(|s| {
                let s = s.on_threads(per_core)?;
                Sample::new(&s.spec, &s.device, &s.request, s.measured, s.label)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&Sample> = samples.iter().collect();
        let eff = fit_efficiency(&refs);
        let loss: f64 = samples
            .iter()
            .map(|s| libm::log(s.predict(&eff) / s.measured))
            .map(|e| e * e)
            .sum();
        if best.is_none_or(|(_, l)| loss < l) {
            best = Some((per_core, loss));
        }
    }
    Ok(best.map(|(per_core, _)| crate::perf::round_sig(per_core)))
}

/// `steps` with each run on fewer threads than cores predicted on the cores it used, at the fitted
/// per-core bandwidth (also returned).
pub fn on_fitted_cores(steps: &[MeasuredStep]) -> Result<(Vec<MeasuredStep>, Option<f64>), CoreError> {
    let per_core = fit_core_bandwidth(steps)?;
    let steps = steps
        .iter()
        .map(|s| s.on_threads(per_core.unwrap_or(f64::INFINITY)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((steps, per_core))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::{PerfRequest, Runtime};
    use crate::{Catalog, DeviceCatalog, Precision, Workload};
    use alloc::format;

    /// Decode steps of a memory-bound model on a CPU, measured as if each core read `per_core` GB/s.
    fn synthetic(per_core: f64) -> Vec<MeasuredStep> {
        let catalog = Catalog::builtin();
        let spec = catalog.resolve("meta-llama/Llama-3.1-8B").unwrap().spec;
        let devices = DeviceCatalog::builtin();
        let mut steps = Vec::new();
        for name in ["Xeon Platinum 8480+", "EPYC 7763", "Graviton3"] {
            let device = devices.resolve(name).unwrap().clone();
            for threads in [2, 4, 8, 64, 128] {
                let request = PerfRequest {
                    runtime: Some(Runtime::LlamaCpp),
                    ..PerfRequest::new(Precision::Q4_0, Workload::Decode, 1, 256)
                };
                let cost = crate::perf::step_cost(&spec, request.precision, request.workload, 1, 256).unwrap();
                let part = device.on_threads(threads, per_core).unwrap();
                // Read at 80 % of the bandwidth the busy cores reach.
                let measured = 1.0 / (cost.bytes / (part.memory_bandwidth_gbs * 1e9 * 0.8));
                let full = threads >= device.cpu_cores.unwrap();
                steps.push(MeasuredStep {
                    spec: spec.clone(),
                    device: device.clone(),
                    request,
                    measured,
                    label: format!("{name} {threads} threads"),
                    threads: (!full).then_some(threads),
                });
            }
        }
        steps
    }

    #[test]
    fn the_per_core_bandwidth_behind_measurements_is_recovered() {
        for per_core in [6.0, 20.0] {
            let found = fit_core_bandwidth(&synthetic(per_core)).unwrap().unwrap();
            assert!(
                (found / per_core - 1.0).abs() < 0.05,
                "{per_core} GB/s fitted as {found}"
            );
        }
    }

    #[test]
    fn without_runs_on_part_of_a_cpu_there_is_nothing_to_fit() {
        let steps: Vec<_> = synthetic(10.0).into_iter().filter(|s| s.threads.is_none()).collect();
        assert_eq!(fit_core_bandwidth(&steps).unwrap(), None);
    }
}
