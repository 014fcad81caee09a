//! The detection report: IPFS Accelerate's `hardware: {cpu: true, cuda: …}` map and `torch_device`, plus
//! the detailed probes and the devices hwfit can predict on.

use hwfit_core::{AvailableHardware, HardwareType, Measurement};
use serde::{Deserialize, Serialize};

use crate::adapters::AdapterReport;
use crate::cpu::{CpuInfo, MemoryInfo};
use crate::nvidia::NvidiaReport;
use crate::rocm::RocmReport;
use crate::runtimes::RuntimeReport;

/// Apple's Metal GPU, reported as `mps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MpsReport {
    /// Whether a Metal GPU from Apple was found.
    pub available: bool,
    /// Why not, when not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The GPU's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Unified memory, MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unified_memory_mb: Option<u64>,
}

/// One wgpu adapter with its benchmark, when run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuAdapter {
    /// What wgpu reports.
    #[serde(flatten)]
    pub adapter: AdapterReport,
    /// The WGSL microbenchmark on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<Measurement>,
    /// Why the benchmark gave no figure (or was skipped: same device on a preferred back-end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark_note: Option<String>,
}

/// How a detected device maps to the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// A catalog device with published figures.
    Catalog,
    /// Unknown to the catalog: its measured figures are used.
    Measured,
    /// Unknown to the catalog and not benchmarked yet (`--benchmark` measures it).
    Unprofiled,
}

/// A device hwfit can predict on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectedDevice {
    /// `cuda:0`, `rocm:1`, `mps`, `cpu`.
    pub key: String,
    /// Name as the platform reports it.
    pub name: String,
    /// Its hardware type.
    pub hardware_type: HardwareType,
    /// Memory for models, MiB (device memory; RAM for CPU and unified-memory SoCs).
    pub memory_mb: u64,
    /// The catalog device it is, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_id: Option<String>,
    /// How predictions treat it.
    pub profile: Profile,
    /// Index into `gpus` of the wgpu adapter that is this device, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<usize>,
    /// The measurement used for a measured profile or `--calibrate` (the adapter's, or the CPU's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<Measurement>,
}

/// Everything detection found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectionReport {
    /// IPFS Accelerate's map and per-type device counts.
    #[serde(flatten)]
    pub available: AvailableHardware,
    /// IPFS Accelerate's PyTorch device string for the best available type.
    pub torch_device: String,
    /// The CPU.
    pub cpu: CpuInfo,
    /// System memory.
    pub memory: MemoryInfo,
    /// NVML's view.
    pub cuda: NvidiaReport,
    /// KFD/DRM's view.
    pub rocm: RocmReport,
    /// Apple Metal.
    pub mps: MpsReport,
    /// OpenVINO runtime.
    pub openvino: RuntimeReport,
    /// QNN runtime.
    pub qnn: RuntimeReport,
    /// Every wgpu adapter.
    pub gpus: Vec<GpuAdapter>,
    /// Devices to predict on (CPU first, then GPUs).
    pub devices: Vec<DetectedDevice>,
    /// The CPU benchmark (all cores at once), when run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_benchmark: Option<Measurement>,
    /// When it was probed (seconds since the Unix epoch).
    pub detected_at: u64,
    /// hwfit version that probed.
    pub hwfit_version: String,
}

impl DetectionReport {
    /// Whether every device that needs a measurement has one, and (when `all`) every adapter too.
    #[must_use]
    pub fn has_benchmarks(&self, all: bool) -> bool {
        let devices = self.devices.iter().all(|d| d.profile != Profile::Unprofiled);
        let adapters = !all
            || self
                .gpus
                .iter()
                .all(|g| g.benchmark.is_some() || g.benchmark_note.is_some());
        devices && adapters && (!all || self.cpu_benchmark.is_some())
    }
}
