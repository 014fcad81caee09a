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
        cpu_cores: None,
        memory_options_gb: Vec::new(),
        released: None,
        measured_as: Vec::new(),
        browser_engine: None,
            page_threads: None,
    }
}

/// The achieved shares of a device's peaks the spec-based prediction uses (the performance model's
/// fitted efficiencies for its hardware type), against which a measurement is judged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpecShares {
    /// Of the peak FLOP rate.
    pub compute: f64,
    /// Of the peak bandwidth.
    pub memory: f64,
}

/// A measured profile of a device the catalog identified. The microbenchmark's figures are achieved
/// rates, so each is a lower bound on what the hardware achieves: where one is below the rate the
/// spec-based prediction already uses (the catalog peak × `shares`), the microbenchmark's kernel
/// measured itself rather than the hardware, and the spec's achieved rate is kept; where it is
/// above, the measurement is used. Rates the microbenchmark does not measure (BF16, FP8, INT8 on
/// matrix units) are the spec's achieved rates. So calibrating never predicts a device slower than
/// its catalog entry, nothing exceeds the catalog peak, and `source` says which rate came from where.
#[must_use]
pub fn calibrated_device(
    identity: MeasuredIdentity,
    m: &Measurement,
    identified: &Device,
    shares: SpecShares,
) -> Device {
    let mut device = measured_device(identity, m);
    let spec = &identified.dense_tflops;
    let mut kept = Vec::new();
    let mut rate = |what: &str, measured: Option<f64>, peak: Option<f64>, share: f64, unit: &str| -> Option<f64> {
        let Some(peak) = peak.filter(|p| *p > 0.0) else {
            return measured;
        };
        let achieved = peak * share;
        match measured {
            Some(m) if m >= achieved => Some(m.min(peak)),
            Some(m) => {
                kept.push(alloc::format!(
                    "{what}: measured {m:.3} {unit} ({:.1} % of the {peak:.3} peak) is below the spec's achieved {achieved:.3} — a lower bound; the spec's rate is used",
                    m / peak * 100.0
                ));
                Some(achieved)
            }
            None => Some(achieved),
        }
    };
    device.dense_tflops.fp32 = rate(
        "FP32",
        Some(device.dense_tflops.fp32),
        Some(spec.fp32),
        shares.compute,
        "TFLOP/s",
    )
    .unwrap_or(device.dense_tflops.fp32);
    device.dense_tflops.fp16 = rate("FP16", device.dense_tflops.fp16, spec.fp16, shares.compute, "TFLOP/s");
    device.dense_tflops.fp16_acc16 = spec.fp16_acc16.map(|p| p * shares.compute);
    device.dense_tflops.bf16 = spec.bf16.map(|p| p * shares.compute);
    device.dense_tflops.fp8 = spec.fp8.map(|p| p * shares.compute);
    device.dense_tflops.int8 = spec.int8.map(|p| p * shares.compute);
    device.memory_bandwidth_gbs = rate(
        "bandwidth",
        Some(device.memory_bandwidth_gbs),
        Some(identified.memory_bandwidth_gbs),
        shares.memory,
        "GB/s",
    )
    .unwrap_or(device.memory_bandwidth_gbs);
    device.architecture.clone_from(&identified.architecture);
    device.source = if kept.is_empty() {
        alloc::format!("{} on {}", device.source, identified.name)
    } else {
        alloc::format!("{} on {}; {}", device.source, identified.name, kept.join("; "))
    };
    device.notes = Some(String::from(
        "achieved rates: the microbenchmark's where they reach the spec's achieved rates (catalog peak × fitted share), else the spec's; rates it does not measure (matrix units) from the spec",
    ));
    device
}

/// The identified catalog device as a detected one is calibrated on it: the catalog's peaks, to
/// which every runtime's fitted efficiencies apply, with the microbenchmark used for what it
/// measures. The copy measures the memory: where it moves less than the spec's achieved rate
/// (peak × `memory_share`, the fitted share of a bandwidth-bound kernel), the device is slower than
/// its entry and the bandwidth is lowered to match; at or above it, the entry stands (nothing
/// exceeds the catalog's peak). The shader matmul is a lower bound on compute — a WGSL kernel
/// reaches a few percent of a large GPU's peak and none of its matrix units — so the compute peaks
/// are the catalog's. A calibrated prediction is therefore never faster than the catalog's, and
/// slower only where the copy shows the memory is; `source` says what each figure came from.
#[must_use]
pub fn calibrated_catalog_device(m: &Measurement, identified: &Device, memory_share: f64) -> Device {
    let mut device = identified.clone();
    let peak_bw = identified.memory_bandwidth_gbs;
    let achieved_bw = peak_bw * memory_share;
    let bandwidth = if m.copy_gbs < achieved_bw && memory_share > 0.0 {
        device.memory_bandwidth_gbs = m.copy_gbs / memory_share;
        alloc::format!(
            "copy {:.0} GB/s ({:.1} % of the {peak_bw:.0} GB/s peak) is below the spec's achieved {achieved_bw:.0}: bandwidth lowered to {:.0} GB/s",
            m.copy_gbs,
            m.copy_gbs / peak_bw * 100.0,
            device.memory_bandwidth_gbs
        )
    } else {
        alloc::format!(
            "copy {:.0} GB/s ({:.1} % of the {peak_bw:.0} GB/s peak) reaches the spec's achieved {achieved_bw:.0}: the peak stands",
            m.copy_gbs,
            m.copy_gbs / peak_bw * 100.0
        )
    };
    let fp32_peak = identified.dense_tflops.fp32;
    let compute = alloc::format!(
        "FP32 matmul {:.3} TFLOP/s ({:.1} % of the {fp32_peak:.3} peak): a lower bound, the catalog's compute peaks stand",
        m.matmul_f32_gflops / 1e3,
        m.matmul_f32_gflops / 1e3 / fp32_peak * 100.0
    );
    device.source = alloc::format!(
        "{}; calibrated by hwfit's microbenchmark ({}): {bandwidth}; {compute}",
        identified.source,
        m.method
    );
    device.notes = Some(String::from(
        "catalog peaks with the fitted efficiencies of the runtime asked about; the microbenchmark's copy lowers the bandwidth where it falls below the spec's achieved rate, its matmul is a lower bound on compute",
    ));
    device
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100(catalog: &crate::DeviceCatalog) -> Device {
        catalog.resolve("H100 SXM").unwrap().clone()
    }

    fn identity() -> MeasuredIdentity {
        MeasuredIdentity {
            id: String::from("measured-cuda-0"),
            name: String::from("NVIDIA H100 80GB HBM3"),
            vendor: String::from("nvidia"),
            hardware_type: HardwareType::Cuda,
            memory_gb: 80.0,
        }
    }

    /// The microbenchmark's own cases on an H100 (the shader matmul reached 1.18 TFLOP/s, the copy
    /// 2.8 TB/s): each calibrated rate is at least as close to what was measured as the spec-based
    /// one, and never below the spec's achieved rate nor above the peak.
    #[test]
    fn calibrating_never_does_worse_than_the_spec() {
        let catalog = crate::DeviceCatalog::builtin();
        let spec = h100(&catalog);
        let shares = SpecShares {
            compute: 0.38,
            memory: 0.82,
        };
        for (matmul_gflops, copy_gbs) in [(1180.0, 2800.0), (60_000.0, 1000.0), (30_000.0, 3000.0)] {
            let m = Measurement {
                matmul_f32_gflops: matmul_gflops,
                matmul_f16_gflops: None,
                copy_gbs,
                matmul_n: 2048,
                copy_bytes: 1 << 28,
                samples: 5,
                threads: 1,
                method: String::from("wgpu Vulkan: WGSL tiled matmul + streaming copy"),
            };
            let d = calibrated_device(identity(), &m, &spec, shares);
            let spec_fp32 = spec.dense_tflops.fp32 * shares.compute;
            let spec_bw = spec.memory_bandwidth_gbs * shares.memory;
            let err = |predicted: f64, measured: f64| libm::fabs(libm::log(predicted / measured));
            assert!(err(d.dense_tflops.fp32, matmul_gflops / 1e3) <= err(spec_fp32, matmul_gflops / 1e3) + 1e-12);
            assert!(err(d.memory_bandwidth_gbs, copy_gbs) <= err(spec_bw, copy_gbs) + 1e-12);
            assert!(d.dense_tflops.fp32 >= spec_fp32 - 1e-12 && d.dense_tflops.fp32 <= spec.dense_tflops.fp32);
            assert!(d.memory_bandwidth_gbs >= spec_bw - 1e-9 && d.memory_bandwidth_gbs <= spec.memory_bandwidth_gbs);
            // Matrix units the shader cannot reach keep the spec's achieved rate.
            assert_eq!(d.dense_tflops.bf16, spec.dense_tflops.bf16.map(|p| p * shares.compute));
            assert_eq!(d.profile, crate::device::DeviceProfile::Measured);
        }
        let slow = Measurement {
            matmul_f32_gflops: 1180.0,
            matmul_f16_gflops: Some(1180.0),
            copy_gbs: 2800.0,
            matmul_n: 2048,
            copy_bytes: 1 << 28,
            samples: 5,
            threads: 1,
            method: String::from("wgpu"),
        };
        let d = calibrated_device(identity(), &slow, &spec, shares);
        assert!(
            d.source.contains("FP32: measured 1.180 TFLOP/s") && d.source.contains("lower bound"),
            "{}",
            d.source
        );
        assert!(!d.source.contains("bandwidth:"), "the copy is credible: {}", d.source);
    }

    /// The H200's own figures (2026-11-26): the WGSL matmul at 2.05 TFLOP/s (3 % of its FP32 peak)
    /// and the copy at 3904 GB/s. The calibrated device keeps the catalog's compute peaks and
    /// profile (so a runtime's fitted shares apply), lowers the bandwidth only where the copy is
    /// below the spec's achieved rate, and never exceeds the entry.
    #[test]
    fn a_calibrated_catalog_device_is_never_faster_than_its_entry() {
        let catalog = crate::DeviceCatalog::builtin();
        let h200 = catalog.resolve("nvidia-h200-sxm").unwrap().clone();
        let measured = |matmul: f64, copy: f64| Measurement {
            matmul_f32_gflops: matmul,
            matmul_f16_gflops: Some(2.0 * matmul),
            copy_gbs: copy,
            matmul_n: 2048,
            copy_bytes: 1 << 27,
            samples: 5,
            threads: 1,
            method: String::from("wgpu Vulkan on NVIDIA H200"),
        };
        let share = 0.82;
        let d = calibrated_catalog_device(&measured(2048.3, 3904.2), &h200, share);
        assert_eq!(d.profile, DeviceProfile::Catalog);
        assert_eq!(d.dense_tflops, h200.dense_tflops);
        assert!((d.memory_bandwidth_gbs - 3904.2 / share).abs() < 1e-9);
        assert!(d.memory_bandwidth_gbs < h200.memory_bandwidth_gbs);
        assert!(
            d.source.contains("lower bound") && d.source.contains("bandwidth lowered"),
            "{}",
            d.source
        );
        // A copy at or above the spec's achieved rate, and a matmul above the peak, change nothing.
        let d = calibrated_catalog_device(&measured(90_000.0, 4700.0), &h200, share);
        assert_eq!(d.dense_tflops, h200.dense_tflops);
        assert_eq!(d.memory_bandwidth_gbs.to_bits(), h200.memory_bandwidth_gbs.to_bits());
        assert!(d.source.contains("the peak stands"), "{}", d.source);
    }

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
