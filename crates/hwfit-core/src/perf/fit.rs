//! Fitting the model's efficiencies and overheads to measurements, and measuring how well it fits.
//!
//! Procedure (deterministic, no per-row tuning):
//! 1. each measurement becomes a [`Sample`]: the step's ideal compute time (FLOPs / dense peak at the
//!    precision), ideal memory time (bytes / peak bandwidth), items per step and the measured
//!    throughput;
//! 2. separately for each workload class (generate: prefill/decode; forward), per hardware type with
//!    at least [`MIN_SAMPLES`] samples from at least two devices, and once over all of the class's
//!    samples (the pooled coefficients), minimise Σ (ln predicted − ln measured)² over
//!    compute efficiency ∈ [0.005, 1], memory efficiency ∈ [0.02, 1] and overhead ∈ [0, 50] ms: a
//!    20 × 20 grid over the two efficiencies (log-spaced, overhead 0) picks the start, then
//!    Nelder–Mead in (ln compute, ln memory, overhead), restarted once, refines it;
//! 3. accuracy is reported as the share of samples predicted within ±25 % and the median
//!    |ln(predicted / measured)|, in-sample and under leave-one-device-out cross-validation (each
//!    device's samples predicted by a fit that never saw that device).

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{runtime_step_cost, ClassCoefficients, Coefficients, Efficiency, PerfRequest, WorkloadClass};
use crate::spec::ModelSpec;
use crate::{CoreError, Device, HardwareType};

/// Fewest samples a hardware type needs for coefficients of its own.
pub const MIN_SAMPLES: usize = 6;

const COMPUTE_BOUNDS: (f64, f64) = (0.005, 1.0);
const MEMORY_BOUNDS: (f64, f64) = (0.02, 1.0);
const OVERHEAD_BOUNDS_MS: (f64, f64) = (0.0, 50.0);

/// One measurement reduced to what the model needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sample {
    /// Hardware type of the device.
    pub hardware: HardwareType,
    /// Workload class measured.
    pub class: WorkloadClass,
    /// Device id (the unit of cross-validation).
    pub device_id: String,
    /// What was measured, for reports.
    pub label: String,
    /// FLOPs / dense peak, seconds.
    pub compute_s: f64,
    /// Bytes / peak bandwidth, seconds.
    pub memory_s: f64,
    /// Items (or tokens) per step.
    pub items: f64,
    /// Forward passes per step (a prompt fed in chunks: one per chunk), each with the overhead.
    #[serde(default = "one_pass")]
    pub passes: f64,
    /// Measured throughput, items (or tokens) per second.
    pub measured: f64,
}

const fn one_pass() -> f64 {
    1.0
}

impl Sample {
    /// Reduces a measurement of `req` for `spec` on `device`.
    pub fn new(
        spec: &ModelSpec,
        device: &Device,
        req: &PerfRequest,
        measured: f64,
        label: String,
    ) -> Result<Self, CoreError> {
        if !(measured.is_finite() && measured > 0.0) {
            return Err(CoreError::InvalidNumber {
                field: "measured throughput",
                value: format!("{measured}"),
                reason: "must be positive and finite",
            });
        }
        let runtime = req.runtime.unwrap_or(super::Runtime::default_for(
            device.hardware_type,
            req.workload,
            req.precision,
        ));
        let cost = runtime_step_cost(spec, req, runtime)?;
        let (peak, _) = device.dense_tflops.for_precision(req.precision);
        Ok(Self {
            hardware: device.hardware_type,
            class: WorkloadClass::of(req.workload),
            device_id: device.id.clone(),
            label,
            compute_s: cost.flops / (peak * 1e12),
            memory_s: cost.bytes / (device.memory_bandwidth_gbs * 1e9),
            items: cost.items,
            passes: f64::from(cost.passes),
            measured,
        })
    }

    /// Predicted throughput under `eff`.
    #[must_use]
    pub fn predict(&self, eff: &Efficiency) -> f64 {
        self.items
            / (libm::fmax(self.compute_s / eff.compute, self.memory_s / eff.memory)
                + self.passes * eff.overhead_ms / 1e3)
    }

    fn log_error(&self, eff: &Efficiency) -> f64 {
        libm::log(self.predict(eff) / self.measured)
    }
}

fn loss(samples: &[&Sample], eff: &Efficiency) -> f64 {
    samples.iter().map(|s| s.log_error(eff)).map(|e| e * e).sum()
}

/// Nelder–Mead minimisation of `f` over a box (points are clamped into it), from `start`.
pub(crate) fn nelder_mead<const N: usize>(
    start: [f64; N],
    step: [f64; N],
    lo: [f64; N],
    hi: [f64; N],
    f: impl Fn([f64; N]) -> f64,
) -> [f64; N] {
    let clamp = |p: [f64; N]| core::array::from_fn(|k| p[k].clamp(lo[k], hi[k]));
    let mut simplex: Vec<([f64; N], f64)> = Vec::with_capacity(N + 1);
    simplex.push((start, f(start)));
    for i in 0..N {
        let mut p = start;
        p[i] += step[i];
        let p = clamp(p);
        simplex.push((p, f(p)));
    }
    for _ in 0..200 * N {
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        let centroid: [f64; N] =
            core::array::from_fn(|k| simplex[..N].iter().map(|(p, _)| p[k]).sum::<f64>() / N as f64);
        let worst = simplex[N].0;
        let along = |t: f64| clamp(core::array::from_fn(|k| centroid[k] + t * (worst[k] - centroid[k])));
        let reflected = along(-1.0);
        let fr = f(reflected);
        if fr < simplex[0].1 {
            let expanded = along(-2.0);
            let fe = f(expanded);
            simplex[N] = if fe < fr { (expanded, fe) } else { (reflected, fr) };
        } else if fr < simplex[N - 1].1 {
            simplex[N] = (reflected, fr);
        } else {
            let contracted = along(0.5);
            let fc = f(contracted);
            if fc < simplex[N].1 {
                simplex[N] = (contracted, fc);
            } else {
                let best = simplex[0].0;
                for entry in simplex.iter_mut().skip(1) {
                    let p = clamp(core::array::from_fn(|k| best[k] + 0.5 * (entry.0[k] - best[k])));
                    *entry = (p, f(p));
                }
            }
        }
    }
    simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
    simplex[0].0
}

pub(crate) fn log_space(bounds: (f64, f64), i: usize, n: usize) -> f64 {
    let (lo, hi) = (libm::log(bounds.0), libm::log(bounds.1));
    libm::exp(lo + (hi - lo) * i as f64 / (n - 1) as f64)
}

/// Fits one set of coefficients to `samples`.
#[must_use]
pub fn fit_efficiency(samples: &[&Sample]) -> Efficiency {
    const GRID: usize = 20;
    let mut best = Efficiency {
        compute: 0.5,
        memory: 0.5,
        overhead_ms: 0.0,
    };
    let mut best_loss = f64::INFINITY;
    for i in 0..GRID {
        for j in 0..GRID {
            let eff = Efficiency {
                compute: log_space(COMPUTE_BOUNDS, i, GRID),
                memory: log_space(MEMORY_BOUNDS, j, GRID),
                overhead_ms: 0.0,
            };
            let l = loss(samples, &eff);
            if l < best_loss {
                best_loss = l;
                best = eff;
            }
        }
    }
    // Refine in (ln compute, ln memory, overhead): Nelder–Mead, restarted once from its own result.
    let lo = [
        libm::log(COMPUTE_BOUNDS.0),
        libm::log(MEMORY_BOUNDS.0),
        OVERHEAD_BOUNDS_MS.0,
    ];
    let hi = [
        libm::log(COMPUTE_BOUNDS.1),
        libm::log(MEMORY_BOUNDS.1),
        OVERHEAD_BOUNDS_MS.1,
    ];
    let objective = |p: [f64; 3]| {
        loss(
            samples,
            &Efficiency {
                compute: libm::exp(p[0]),
                memory: libm::exp(p[1]),
                overhead_ms: p[2],
            },
        )
    };
    let mut point = [libm::log(best.compute), libm::log(best.memory), best.overhead_ms];
    for _ in 0..2 {
        point = nelder_mead(point, [0.3, 0.3, 1.0], lo, hi, objective);
    }
    best = Efficiency {
        compute: libm::exp(point[0]),
        memory: libm::exp(point[1]),
        overhead_ms: point[2],
    };
    Efficiency {
        compute: round4(best.compute),
        memory: round4(best.memory),
        overhead_ms: round4(best.overhead_ms),
    }
}

pub(crate) fn round4(x: f64) -> f64 {
    libm::round(x * 10_000.0) / 10_000.0
}

fn fit_class(samples: &[&Sample]) -> ClassCoefficients {
    let mut by_type: SortedMap<HardwareType, Vec<&Sample>> = SortedMap::new();
    for s in samples {
        by_type.entry(s.hardware).or_default().push(s);
    }
    let by_hardware = by_type
        .into_iter()
        .filter(|(_, group)| {
            let mut devices: Vec<&str> = group.iter().map(|s| s.device_id.as_str()).collect();
            devices.sort_unstable();
            devices.dedup();
            group.len() >= MIN_SAMPLES && devices.len() >= 2
        })
        .map(|(hw, group)| (hw, fit_efficiency(&group)))
        .collect();
    ClassCoefficients {
        by_hardware,
        pooled: (!samples.is_empty()).then(|| fit_efficiency(samples)),
    }
}

/// Fits per-hardware-type and pooled coefficients for each workload class.
#[must_use]
pub fn fit(samples: &[Sample], fitted_on: &str) -> Coefficients {
    let of = |class: WorkloadClass| samples.iter().filter(|s| s.class == class).collect::<Vec<_>>();
    Coefficients {
        browser: None,
        runtimes: Vec::new(),
        cpu_core_bandwidth_gbs: None,
        generate: fit_class(&of(WorkloadClass::Generate)),
        forward: fit_class(&of(WorkloadClass::Forward)),
        fitted_on: String::from(fitted_on),
    }
}

/// How well predictions match measurements.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Accuracy {
    /// Samples judged.
    pub samples: usize,
    /// Share predicted within ±25 % of the measurement.
    pub within_25_percent: f64,
    /// Median |ln(predicted / measured)| (0.22 ≈ off by a factor of 1.25).
    pub median_abs_log_error: f64,
}

/// The accuracy of |ln(predicted / measured)| errors.
#[must_use]
pub fn summarize(errors: &[f64]) -> Accuracy {
    let n = errors.len();
    let within = errors.iter().filter(|e| libm::exp(**e) <= 1.25).count();
    let median = crate::measure::median_total(errors).unwrap_or(0.0);
    Accuracy {
        samples: n,
        within_25_percent: if n == 0 { 0.0 } else { within as f64 / n as f64 },
        median_abs_log_error: median,
    }
}

/// |ln(predicted / measured)| of `s` under `c` (infinite where `c` has no efficiency for it).
pub(crate) fn error_of(c: &Coefficients, s: &Sample) -> f64 {
    c.efficiency(s.hardware, s.class)
        .map_or(f64::INFINITY, |(e, _)| libm::fabs(s.log_error(&e)))
}

/// In-sample accuracy of `coefficients` on `samples`.
#[must_use]
pub fn accuracy(coefficients: &Coefficients, samples: &[Sample]) -> Accuracy {
    summarize(&samples.iter().map(|s| error_of(coefficients, s)).collect::<Vec<_>>())
}

/// Leave-one-device-out folds: each device of `samples` (sorted by id) with the coefficients fitted
/// without its samples.
pub(crate) fn device_folds(samples: &[Sample]) -> impl Iterator<Item = (&str, Coefficients)> {
    let mut devices: Vec<&str> = samples.iter().map(|s| s.device_id.as_str()).collect();
    devices.sort_unstable();
    devices.dedup();
    devices.into_iter().map(move |held_out| {
        let train: Vec<Sample> = samples.iter().filter(|s| s.device_id != held_out).cloned().collect();
        (held_out, fit(&train, "cross-validation fold"))
    })
}

/// Leave-one-device-out cross-validation: each device's samples predicted by a fit without them.
#[must_use]
pub fn cross_validate_by_device(samples: &[Sample]) -> Accuracy {
    cross_validate(samples, &device_folds(samples).collect::<Vec<_>>())
}

/// [`cross_validate_by_device`] on folds already fitted ([`device_folds`]).
#[must_use]
pub(crate) fn cross_validate(samples: &[Sample], folds: &[(&str, Coefficients)]) -> Accuracy {
    let mut errors = Vec::new();
    for (held_out, coefficients) in folds {
        for s in samples.iter().filter(|s| s.device_id == *held_out) {
            errors.push(error_of(coefficients, s));
        }
    }
    summarize(&errors)
}

/// One hardware type and workload class of the fit: how its own coefficients predict its rows,
/// against the pooled coefficients a hardware type without a fit of its own is answered with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CellAccuracy {
    /// The hardware type.
    pub hardware: HardwareType,
    /// The workload class.
    pub class: WorkloadClass,
    /// Devices measured.
    pub devices: usize,
    /// On the rows fitted, by the coefficients the type is answered with.
    pub in_sample: Accuracy,
    /// Each device's rows predicted by a fit without that device.
    pub leave_one_device_out: Accuracy,
    /// Each device's rows predicted by the class's pooled coefficients of a fit without that device.
    pub pooled_leave_one_device_out: Accuracy,
}

/// [`CellAccuracy`] of every hardware type and class the samples cover, on the device folds
/// ([`device_folds`]) the overall cross-validation used.
#[must_use]
pub(crate) fn accuracy_by_cell(
    samples: &[Sample],
    fitted: &Coefficients,
    folds: &[(&str, Coefficients)],
) -> Vec<CellAccuracy> {
    let mut cells: Vec<(HardwareType, WorkloadClass)> = samples.iter().map(|s| (s.hardware, s.class)).collect();
    cells.sort_unstable_by_key(|&(h, c)| (h, c as u8));
    cells.dedup();
    cells
        .into_iter()
        .map(|(hardware, class)| {
            let rows: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.hardware == hardware && s.class == class)
                .collect();
            let mut held_out = Vec::new();
            let mut pooled = Vec::new();
            for (device, c) in folds {
                for s in rows.iter().filter(|s| s.device_id == *device) {
                    held_out.push(error_of(c, s));
                    pooled.push(
                        c.class(class)
                            .pooled
                            .map_or(f64::INFINITY, |e| libm::fabs(s.log_error(&e))),
                    );
                }
            }
            let mut devices: Vec<&str> = rows.iter().map(|s| s.device_id.as_str()).collect();
            devices.sort_unstable();
            devices.dedup();
            CellAccuracy {
                hardware,
                class,
                devices: devices.len(),
                in_sample: summarize(&rows.iter().map(|s| error_of(fitted, s)).collect::<Vec<_>>()),
                leave_one_device_out: summarize(&held_out),
                pooled_leave_one_device_out: summarize(&pooled),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nelder_mead_finds_the_minimum_inside_the_box() {
        let f = |p: [f64; 3]| (p[0] - 0.3).powi(2) + 2.0 * (p[1] - 0.7).powi(2) + 0.5 * (p[2] - 1.5).powi(2);
        let best = nelder_mead([0.5; 3], [0.1; 3], [0.0; 3], [2.0; 3], f);
        for (got, want) in best.iter().zip([0.3, 0.7, 1.5]) {
            assert!((got - want).abs() < 1e-3, "{best:?}");
        }
    }

    #[test]
    fn nelder_mead_stays_in_the_box() {
        // The unconstrained minimum (−1, 5, 0.5) lies outside [0, 1]³ on two axes.
        let f = |p: [f64; 3]| (p[0] + 1.0).powi(2) + (p[1] - 5.0).powi(2) + (p[2] - 0.5).powi(2);
        let best = nelder_mead([0.5; 3], [0.2; 3], [0.0; 3], [1.0; 3], f);
        assert!(best.iter().all(|x| (0.0..=1.0).contains(x)), "{best:?}");
        assert!(
            best[0] < 1e-3 && best[1] > 1.0 - 1e-3 && (best[2] - 0.5).abs() < 1e-3,
            "{best:?}"
        );
    }

    #[test]
    fn nelder_mead_is_deterministic() {
        let f = |p: [f64; 3]| libm::cos(p[0] * 3.0) + p[1] * p[1] + libm::fabs(p[2] - 0.2);
        let a = nelder_mead([0.4; 3], [0.1; 3], [-1.0; 3], [1.0; 3], f);
        let b = nelder_mead([0.4; 3], [0.1; 3], [-1.0; 3], [1.0; 3], f);
        assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits));
    }

    #[test]
    fn accuracy_counts_errors_within_25_percent() {
        // |ln 1.2| and |ln 1.25| are within ±25 %; |ln 1.3| and a missing efficiency are not.
        let errors = [libm::log(1.2), libm::log(1.25) - 1e-12, libm::log(1.3), f64::INFINITY];
        let a = summarize(&errors);
        assert_eq!(a.samples, 4);
        assert!((a.within_25_percent - 0.5).abs() < 1e-12, "{a:?}");
        assert!(a.median_abs_log_error > libm::log(1.25) - 1e-9 && a.median_abs_log_error < libm::log(1.3));
        assert!(summarize(&[]).within_25_percent.abs() < f64::EPSILON);
    }

    #[test]
    fn log_space_spans_the_bounds() {
        assert!((log_space((0.01, 1.0), 0, 5) - 0.01).abs() < 1e-12);
        assert!((log_space((0.01, 1.0), 4, 5) - 1.0).abs() < 1e-12);
        assert!((log_space((0.01, 1.0), 2, 5) - 0.1).abs() < 1e-12);
    }
}
