//! A device described by its numbers (`--device-spec`, `deviceSpec`, `device_spec`): for hardware no
//! catalog has, or a machine whose figures the user knows better.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{DenseTflops, Device, DeviceProfile};
use crate::{CoreError, HardwareType};

/// A device by its numbers. Every figure is validated: finite, positive and within a physical range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DeviceSpec {
    /// Name (default `custom device`).
    #[serde(default)]
    pub name: Option<String>,
    /// The back-end it runs through (`cuda`, `rocm`, `mps`, `cpu`, `openvino`, `webgpu`, `wasm` …).
    pub hardware_type: HardwareType,
    /// Vendor (default `custom`).
    #[serde(default)]
    pub vendor: Option<String>,
    /// Memory in GB (device memory; unified or system memory for SoCs and CPUs).
    pub memory_gb: f64,
    /// Peak memory bandwidth in GB/s.
    pub memory_bandwidth_gbs: f64,
    /// Dense peak TFLOP/s per precision (TOPS for int8); `fp32` is required.
    pub dense_tflops: SpecRates,
    /// Thermal design power in W.
    #[serde(default)]
    pub tdp_w: Option<f64>,
    /// A CPU's physical cores (what a request's `threads` divides).
    #[serde(default)]
    pub cpu_cores: Option<u32>,
}

/// A spec's peak rates: [`DenseTflops`] as a request reads it (camelCase in the npm package).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SpecRates {
    /// FP32.
    pub fp32: f64,
    /// FP16 tensor/matrix rate (FP32 accumulate).
    #[serde(default)]
    pub fp16: Option<f64>,
    /// FP16 tensor rate with FP16 accumulation, where it differs.
    #[serde(default)]
    pub fp16_acc16: Option<f64>,
    /// BF16 tensor/matrix rate.
    #[serde(default)]
    pub bf16: Option<f64>,
    /// FP8 tensor rate.
    #[serde(default)]
    pub fp8: Option<f64>,
    /// INT8 tensor rate (TOPS).
    #[serde(default)]
    pub int8: Option<f64>,
}

/// The accepted ranges: wide enough for any real device, narrow enough to catch wrong units
/// (bandwidth in bytes/s, memory in MB).
type Range = (f64, f64, &'static str);
const MEMORY_GB: Range = (0.01, 100_000.0, "must be between 0.01 and 100000 (GB)");
const BANDWIDTH_GBS: Range = (0.1, 100_000.0, "must be between 0.1 and 100000 (GB/s)");
const TFLOPS: Range = (0.000_1, 100_000.0, "must be between 0.0001 and 100000 (TFLOP/s)");
const TDP_W: Range = (0.1, 100_000.0, "must be between 0.1 and 100000 (W)");

fn check(field: &'static str, value: f64, (low, high, reason): Range) -> Result<f64, CoreError> {
    if value.is_finite() && (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(CoreError::InvalidNumber {
            field,
            value: value.to_string(),
            reason,
        })
    }
}

fn optional(field: &'static str, value: Option<f64>, range: Range) -> Result<Option<f64>, CoreError> {
    value.map(|v| check(field, v, range)).transpose()
}

impl DeviceSpec {
    /// The device these numbers describe, or the first field that is out of range.
    pub fn to_device(&self) -> Result<Device, CoreError> {
        let t = &self.dense_tflops;
        let dense_tflops = DenseTflops {
            fp32: check("device_spec.dense_tflops.fp32", t.fp32, TFLOPS)?,
            fp16: optional("device_spec.dense_tflops.fp16", t.fp16, TFLOPS)?,
            fp16_acc16: optional("device_spec.dense_tflops.fp16_acc16", t.fp16_acc16, TFLOPS)?,
            bf16: optional("device_spec.dense_tflops.bf16", t.bf16, TFLOPS)?,
            fp8: optional("device_spec.dense_tflops.fp8", t.fp8, TFLOPS)?,
            int8: optional("device_spec.dense_tflops.int8", t.int8, TFLOPS)?,
        };
        let name = self.name.as_deref().map_or("custom device", str::trim);
        if name.is_empty() {
            return Err(CoreError::MissingField {
                field: "device_spec.name",
            });
        }
        let slug = crate::text::slug(name);
        Ok(Device {
            id: format!("spec-{slug}"),
            name: String::from(name),
            vendor: self.vendor.clone().unwrap_or_else(|| String::from("custom")),
            hardware_type: self.hardware_type,
            class: String::from("device_spec"),
            memory_gb: check("device_spec.memory_gb", self.memory_gb, MEMORY_GB)?,
            memory_bandwidth_gbs: check(
                "device_spec.memory_bandwidth_gbs",
                self.memory_bandwidth_gbs,
                BANDWIDTH_GBS,
            )?,
            tdp_w: optional("device_spec.tdp_w", self.tdp_w, TDP_W)?,
            dense_tflops,
            aliases: Vec::new(),
            source: String::from("device spec given with the request"),
            source_url: String::new(),
            notes: Some(String::from(
                "figures as given; predictions apply the hardware type's fitted efficiencies as to vendor peaks",
            )),
            profile: DeviceProfile::Catalog,
            architecture: None,
            gpu_cores: None,
            cpu_cores: match self.cpu_cores {
                Some(0) => {
                    return Err(CoreError::InvalidNumber {
                        field: "device_spec.cpu_cores",
                        value: String::from("0"),
                        reason: "must be at least 1",
                    })
                }
                cores => cores,
            },
            memory_options_gb: Vec::new(),
            released: None,
            measured_as: Vec::new(),
            browser_engine: None,
            page_threads: None,
        })
    }
}

// The JSON is snake_case, the CLI's and the server's form; the npm package's camelCase build
// (feature `camel-case`) is tested in JS.
#[cfg(all(test, not(feature = "camel-case")))]
mod tests {
    use super::*;

    fn spec(json: &str) -> Result<Device, String> {
        let spec: DeviceSpec = serde_json::from_str(json).map_err(|e| e.to_string())?;
        spec.to_device().map_err(|e| e.to_string())
    }

    #[test]
    fn a_spec_becomes_a_device_and_each_bad_field_is_named() {
        let d = spec(
            r#"{"name": "My Accelerator 9000", "hardware_type": "cuda", "memory_gb": 48,
                "memory_bandwidth_gbs": 960, "dense_tflops": {"fp32": 40, "fp16": 160}}"#,
        )
        .unwrap();
        assert_eq!(d.id, "spec-my-accelerator-9000");
        assert_eq!(d.hardware_type, HardwareType::Cuda);
        assert_eq!(d.dense_tflops.fp16, Some(160.0));
        let e = spec(r#"{"hardware_type": "cuda", "memory_gb": 48, "memory_bandwidth_gbs": 960e9, "dense_tflops": {"fp32": 40}}"#)
            .unwrap_err();
        assert!(e.contains("device_spec.memory_bandwidth_gbs"), "{e}");
        let e = spec(
            r#"{"hardware_type": "cuda", "memory_gb": -1, "memory_bandwidth_gbs": 960, "dense_tflops": {"fp32": 40}}"#,
        )
        .unwrap_err();
        assert!(e.contains("device_spec.memory_gb"), "{e}");
        let e = spec(
            r#"{"hardware_type": "cuda", "memory_gb": 8, "memory_bandwidth_gbs": 96, "dense_tflops": {"fp32": 0}}"#,
        )
        .unwrap_err();
        assert!(e.contains("device_spec.dense_tflops.fp32"), "{e}");
        let e = spec(
            r#"{"hardware_type": "tpu", "memory_gb": 8, "memory_bandwidth_gbs": 96, "dense_tflops": {"fp32": 1}}"#,
        )
        .unwrap_err();
        assert!(e.contains("tpu"), "{e}");
        let e = spec(r#"{"hardware_type": "cpu", "memory_gb": 8, "dense_tflops": {"fp32": 1}}"#).unwrap_err();
        assert!(e.contains("memory_bandwidth_gbs"), "{e}");
        let e = spec(r#"{"hardware_type": "cpu", "memory_gb": 8, "memory_bandwidth_gbs": 50, "dense_tflops": {"fp32": 1}, "cores": 8}"#)
            .unwrap_err();
        assert!(e.contains("unknown field `cores`"), "{e}");
    }
}
