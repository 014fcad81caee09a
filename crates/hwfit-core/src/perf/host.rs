//! What a runtime costs besides the roofline: host time per operator and per step, fitted per
//! runtime and hardware type.
//!
//! A step of `operators` operators costs, on the host, `operators × operator_us` (eager PyTorch:
//! Python, the dispatcher and the kernel launch per operator; compiled or captured graphs: a
//! fraction of that) plus `step_ms` (framework entry, synchronisation, the output's copy back). The
//! device part runs the operators one after another ([`device_seconds`]): the matrix products at
//! the larger of their FLOPs and weight reads, plus the other operators' streamed bytes, at the
//! runtime's achieved shares of peak compute and bandwidth (a training step's × the runtime's
//! training device factor).
//!
//! How the two add up depends on where the kernels run:
//! - **accelerator** (GPU, NPU): the host enqueues kernels asynchronously and the device runs them
//!   while the host issues the next ones, so a step costs `max(host, device) + step_ms` — host-bound
//!   at small batches (a step takes as long at batch 32 as at batch 1), device-bound at large ones;
//! - **CPU**: the same cores issue and run the operators, so the terms add:
//!   `host + device + step_ms`.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::Runtime;
use crate::{HardwareType, Precision, Workload};

string_enum! {
    /// Where a runtime's operators run relative to the thread that issues them.
    pub enum Processor: "processor" {
        /// A GPU or NPU, fed asynchronously by the host.
        Accelerator => "accelerator",
        /// The host CPU itself.
        Cpu => "cpu",
    }
}

impl Processor {
    /// The processor kind of a hardware type.
    #[must_use]
    pub const fn of(hardware: HardwareType) -> Self {
        match hardware {
            HardwareType::Cpu | HardwareType::Wasm => Self::Cpu,
            _ => Self::Accelerator,
        }
    }
}

/// One runtime's fitted costs on one kind of processor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RuntimeCoefficients {
    /// The runtime.
    pub runtime: Runtime,
    /// The hardware type it was measured on (its kernels run on [`Processor::of`] it).
    pub hardware: HardwareType,
    /// Achieved share of the peak FLOP rate for 16-bit and narrower math (tensor cores, matrix
    /// engines).
    pub compute: f64,
    /// Achieved share of the FP32 peak (IEEE FP32: CUDA cores, vector units).
    pub compute_fp32: f64,
    /// Achieved share of the peak memory bandwidth.
    pub memory: f64,
    /// Host time per operator, µs.
    pub operator_us: f64,
    /// Fixed host time per step of a model call (as `hwfit bench` times it: no pipeline or
    /// `generate()` loop around it), ms.
    pub step_ms: f64,
    /// A training step's host time per counted operator over an inference step's: what autograd's
    /// engine, autocast's casts and the optimizer's per-tensor work add to the backward pass the
    /// operator count already holds. Fitted where the runtime's training rows come from two sources
    /// or more; 1 (the count's own assumption) elsewhere.
    #[serde(default = "one")]
    pub train_step_host_factor: f64,
    /// A training step's device time over what its FLOPs and bytes take at the runtime's shares
    /// (forward + backward at 3 × the forward FLOPs, weights, gradients and optimizer state
    /// streamed once): what the backward pass's transposed products, the activations it re-reads
    /// and autocast's casts add. Fitted where training rows come from two sources or more; 1 elsewhere.
    #[serde(default = "one")]
    pub train_step_device_factor: f64,
    /// The workloads its measurements hold: the steps these constants answer for. A decode step
    /// streams the weights a forward pass does not stress, and a training step adds its own factors,
    /// so a runtime fitted on forward passes alone (ONNX Runtime's BERT tables) does not answer a
    /// decode question — the class coefficients do. Empty: every workload.
    #[serde(default)]
    pub workloads: Vec<Workload>,
    /// What the constants were fitted on (measurements, devices, sources).
    pub fitted_on: String,
}

const fn one() -> f64 {
    1.0
}

impl RuntimeCoefficients {
    /// What a step's device time is multiplied by: [`Self::train_step_device_factor`] for a
    /// training step, 1 for inference.
    #[must_use]
    pub fn device_time_factor(&self, training: bool) -> f64 {
        if training {
            self.train_step_device_factor
        } else {
            1.0
        }
    }

    /// Whether its measurements cover `workload`: a forward pass and a prefill are one kind of step
    /// (every token at once), a decode step and a training step each their own.
    #[must_use]
    pub fn covers(&self, workload: Workload) -> bool {
        let pass = |w: &Workload| matches!(w, Workload::Forward | Workload::Prefill);
        self.workloads.is_empty()
            || self.workloads.contains(&workload)
            || (pass(&workload) && self.workloads.iter().any(pass))
    }

    /// The achieved share of the compute peak at `precision`.
    #[must_use]
    pub fn compute_share(&self, precision: Precision) -> f64 {
        if precision == Precision::Fp32 {
            self.compute_fp32
        } else {
            self.compute
        }
    }
}

/// The device's part of a step whose operators run one at a time (eager and operator-by-operator
/// runtimes): the matrix products take the longer of their FLOPs and the weights they read, and the
/// operators between them (norms, activations, softmax, attention over the KV cache, optimizer
/// updates) stream the rest of the bytes on their own — the two add, they do not overlap. Seconds,
/// each term already at its achieved rate.
#[must_use]
pub fn device_seconds(compute_t: f64, weight_t: f64, streamed_t: f64) -> f64 {
    libm::fmax(compute_t, weight_t) + streamed_t
}

/// A step's host costs next to its device time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HostCosts {
    /// Operators the step runs (see [`super::operators`]), over all its forward passes.
    pub operators: u32,
    /// The runtime's host time per operator, µs.
    pub operator_us: f64,
    /// `operators × operator_us`, ms.
    pub operators_ms: f64,
    /// Fixed host time per step (per forward pass, over all of them: a prompt fed in chunks pays
    /// it per chunk), ms.
    pub step_ms: f64,
    /// The device's part: FLOPs or bytes at the runtime's achieved rates, ms.
    pub device_ms: f64,
    /// Whether the device works while the host issues (accelerators): the step is then the larger
    /// of the two, not their sum.
    pub overlapped: bool,
}

impl HostCosts {
    /// The host costs of a step of `passes` forward passes of `operators` operators each (a prompt
    /// fed in chunks runs every operator, and pays the per-step cost, once per chunk) whose device
    /// part takes `device_ms` (`training`: a training step, its operators at the runtime's
    /// training cost).
    #[must_use]
    pub fn new(
        coefficients: &RuntimeCoefficients,
        operators: u32,
        passes: u32,
        device_ms: f64,
        training: bool,
    ) -> Self {
        let passes = passes.max(1);
        let operators = operators.saturating_mul(passes);
        let operator_us = if training {
            coefficients.operator_us * coefficients.train_step_host_factor
        } else {
            coefficients.operator_us
        };
        Self {
            operators,
            operator_us,
            operators_ms: f64::from(operators) * operator_us / 1e3,
            step_ms: coefficients.step_ms * f64::from(passes),
            device_ms,
            overlapped: Processor::of(coefficients.hardware) == Processor::Accelerator,
        }
    }

    /// The step's time, ms.
    #[must_use]
    pub fn total_ms(&self) -> f64 {
        if self.overlapped {
            libm::fmax(self.operators_ms, self.device_ms) + self.step_ms
        } else {
            self.operators_ms + self.device_ms + self.step_ms
        }
    }

    /// Whether the host's part (issuing the operators, the per-step cost) takes longer than the
    /// device's work.
    #[must_use]
    pub fn host_bound(&self) -> bool {
        self.operators_ms + self.step_ms > self.device_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_answers_for_the_workloads_it_was_measured_on() {
        let mut c = coefficients(HardwareType::Cuda);
        assert!(Workload::ALL.iter().all(|w| c.covers(*w)), "no list: every workload");
        c.workloads = alloc::vec![Workload::Forward];
        assert!(c.covers(Workload::Forward) && c.covers(Workload::Prefill));
        assert!(!c.covers(Workload::Decode) && !c.covers(Workload::TrainStep));
        c.workloads = alloc::vec![Workload::Decode];
        assert!(!c.covers(Workload::Prefill));
    }

    fn coefficients(hardware: HardwareType) -> RuntimeCoefficients {
        RuntimeCoefficients {
            runtime: Runtime::Pytorch,
            hardware,
            compute: 0.5,
            compute_fp32: 0.5,
            memory: 0.5,
            operator_us: 20.0,
            step_ms: 1.0,
            train_step_host_factor: 2.0,
            train_step_device_factor: 1.0,
            workloads: Vec::new(),
            fitted_on: String::new(),
        }
    }

    #[test]
    fn an_accelerator_overlaps_host_and_device() {
        let small = HostCosts::new(&coefficients(HardwareType::Cuda), 400, 1, 2.0, false);
        assert!(small.host_bound());
        assert!((small.total_ms() - (8.0 + 1.0)).abs() < 1e-12);
        let large = HostCosts::new(&coefficients(HardwareType::Cuda), 400, 1, 30.0, false);
        assert!(!large.host_bound());
        assert!((large.total_ms() - 31.0).abs() < 1e-12);
    }

    #[test]
    fn a_prompt_in_chunks_pays_the_host_once_per_pass() {
        // Four passes of 400 operators at 20 µs and a 1 ms step cost each, the device at 2 ms.
        let chunked = HostCosts::new(&coefficients(HardwareType::Cuda), 400, 4, 2.0, false);
        assert_eq!(chunked.operators, 1600);
        assert!((chunked.step_ms - 4.0).abs() < 1e-12);
        assert!((chunked.total_ms() - (32.0 + 4.0)).abs() < 1e-12);
        // No pass at all is read as one.
        assert_eq!(
            HostCosts::new(&coefficients(HardwareType::Cuda), 400, 0, 2.0, false),
            HostCosts::new(&coefficients(HardwareType::Cuda), 400, 1, 2.0, false)
        );
    }

    #[test]
    fn matrix_products_and_streaming_operators_add_up() {
        // Products bound by their FLOPs (2 s) or their weights (1 s), whichever is longer, then
        // the streaming operators' 3 s.
        assert!((device_seconds(2.0, 1.0, 3.0) - 5.0).abs() < 1e-12);
        assert!((device_seconds(0.5, 1.0, 0.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_cpu_adds_them() {
        let step = HostCosts::new(&coefficients(HardwareType::Cpu), 400, 1, 2.0, false);
        assert!((step.total_ms() - 11.0).abs() < 1e-12);
        // A training step's operators at twice the host cost: 400 × 40 µs.
        let training = HostCosts::new(&coefficients(HardwareType::Cpu), 400, 1, 2.0, true);
        assert!((training.total_ms() - 19.0).abs() < 1e-12);
        assert_eq!(Processor::of(HardwareType::Wasm), Processor::Cpu);
        assert_eq!(Processor::of(HardwareType::Rocm), Processor::Accelerator);
    }
}
