//! Microbenchmark results and the device profiles built from them.
//!
//! The microbenchmarks themselves (one WGSL module for every GPU, a CPU kernel) run in the faces;
//! here are the shared result shape, the statistics and the rule that turns a measurement into a
//! device the performance model can predict on.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::device::{DenseTflops, DeviceProfile};
use crate::{Device, HardwareType};

/// What one microbenchmark run achieved on one device. Read as written (camelCase in the npm
/// package), so `benchmark()`'s figures can be handed back as a calibration; the npm package also
/// reads the snake_case names, so a `hwfit detect --json` report can be handed to `configure()`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Measurement {
    /// Achieved FP32 matrix-multiply rate, GFLOP/s (median of the timed samples).
    #[cfg_attr(feature = "camel-case", serde(alias = "matmul_f32_gflops"))]
    pub matmul_f32_gflops: f64,
    /// Achieved FP16 matrix-multiply rate, GFLOP/s, where the device runs FP16 shaders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "camel-case", serde(alias = "matmul_f16_gflops"))]
    pub matmul_f16_gflops: Option<f64>,
    /// Achieved streaming-copy bandwidth (bytes read + written), GB/s.
    #[cfg_attr(feature = "camel-case", serde(alias = "copy_gbs"))]
    pub copy_gbs: f64,
    /// Matrix size used for the matmul (n × n × n).
    #[cfg_attr(feature = "camel-case", serde(alias = "matmul_n"))]
    pub matmul_n: u32,
    /// Bytes in each copy buffer.
    #[cfg_attr(feature = "camel-case", serde(alias = "copy_bytes"))]
    pub copy_bytes: u64,
    /// Timed samples per figure (after warm-up).
    pub samples: u32,
    /// Threads the CPU figures ran on (1 for a GPU).
    pub threads: u32,
    /// How it was measured (`wgpu Vulkan: WGSL tiled matmul + streaming copy`, `cpu: ndarray sgemm …`).
    pub method: String,
}

/// The median of `values` (mean of the middle two for an even count); `None` when empty or when a
/// value is not finite (a failed timing).
#[must_use]
pub fn median(values: &[f64]) -> Option<f64> {
    if values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    median_total(values)
}

/// The median of `values` in IEEE total order (infinities count as the largest or smallest values);
/// `None` when empty. The one median of hwfit: timings, fit errors and calibration residuals.
#[must_use]
pub fn median_total(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted: Vec<f64> = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 0 {
        f64::midpoint(sorted[mid - 1], sorted[mid])
    } else {
        sorted[mid]
    })
}

/// FLOPs of an n × n by n × n matrix multiply (one multiply and one add per term).
#[must_use]
pub fn matmul_flops(n: u32) -> f64 {
    2.0 * f64::from(n) * f64::from(n) * f64::from(n)
}

/// Identity and memory of a measured device, for [`measured_device`].
#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredIdentity {
    /// Stable identifier (`measured-…`).
    pub id: String,
    /// Name as the platform reports it.
    pub name: String,
    /// Vendor.
    pub vendor: String,
    /// Back-end it is used through.
    pub hardware_type: HardwareType,
    /// Memory available to models, GB.
    pub memory_gb: f64,
}

/// A device whose rates are the measured ones: FP32 and (where measured) FP16 from the matmul,
/// bandwidth from the copy. Predictions on it use these *achieved* rates at face value (no fitted
/// efficiency) and say `measured_profile`.
#[must_use]
pub fn measured_device(identity: MeasuredIdentity, m: &Measurement) -> Device {
    Device {
        id: identity.id,
        name: identity.name,
        vendor: identity.vendor,
        hardware_type: identity.hardware_type,
        class: String::from("measured"),
        memory_gb: identity.memory_gb,
        memory_bandwidth_gbs: m.copy_gbs,
        tdp_w: None,
        dense_tflops: DenseTflops {
            fp32: m.matmul_f32_gflops / 1e3,
            fp16: m.matmul_f16_gflops.map(|g| g / 1e3),
            fp16_acc16: None,
            bf16: None,
            fp8: None,
            int8: None,
        },
        aliases: Vec::new(),
        source: alloc::format!("measured by hwfit: {}", m.method),
        source_url: String::new(),
        notes: Some(String::from(
            "achieved rates of hwfit's microbenchmark, not vendor peaks; predictions use them without fitted efficiencies",
        )),
        profile: DeviceProfile::Measured,
        architecture: None,
        gpu_cores: None,
        memory_options_gb: Vec::new(),
        released: None,
        measured_as: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, f64::NAN]), None);
    }

    #[test]
    fn matmul_flops_counts_multiply_and_add() {
        assert!((matmul_flops(1024) - 2.0 * 1024f64.powi(3)).abs() < 1.0);
    }
}
