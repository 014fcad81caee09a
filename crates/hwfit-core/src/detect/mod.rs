//! What native detection reports (`hwfit detect --json`, `GET /hardware/detect`): the answer shape of
//! the detect question. Detection itself is native (`hwfit-native` fills these from sysinfo, NVML,
//! sysfs, wgpu and the file system); the shape is the core's, so every face describes it alike.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::{AvailableHardware, HardwareType, Measurement};

mod candidates;
mod facts;
pub use candidates::{candidates, DetectedCandidates};
pub use facts::{identify, GpuFacts, Identified, FACTS_RULE};

/// One CPU cache level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuCache {
    /// 1, 2, 3 …
    pub level: u8,
    /// `Data`, `Instruction` or `Unified`.
    pub kind: String,
    /// Size of one instance, KiB.
    pub size_kb: u64,
}

/// The CPU.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CpuInfo {
    /// Marketing name (`AMD EPYC 7B13 64-Core Processor`).
    pub brand: String,
    /// Vendor id (`GenuineIntel`, `AuthenticAMD`, `Apple` …).
    pub vendor: String,
    /// Instruction-set architecture (`x86_64`, `aarch64`).
    pub architecture: String,
    /// Physical cores, where the OS says.
    pub physical_cores: Option<u32>,
    /// Logical processors (hardware threads).
    pub logical_cores: u32,
    /// CPU packages, where the OS says.
    pub sockets: Option<u32>,
    /// Frequency the OS reports, MHz (maximum where known, else current).
    pub frequency_mhz: Option<u64>,
    /// SIMD and matrix extensions found at run time (`avx2`, `fma`, `avx512f`, `amx-tile`, `neon`, `sve` …).
    pub simd: Vec<String>,
    /// Caches of the first CPU, where the OS says.
    pub caches: Vec<CpuCache>,
}

/// System memory.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MemoryInfo {
    /// Total RAM, MiB.
    pub total_mb: u64,
    /// RAM available to new processes, MiB.
    pub available_mb: u64,
}

/// One NVIDIA GPU as NVML reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NvidiaGpu {
    /// CUDA device index.
    pub index: u32,
    /// Name (`NVIDIA H100 80GB HBM3`).
    pub name: String,
    /// UUID.
    pub uuid: Option<String>,
    /// Memory, MiB.
    pub memory_total_mb: u64,
    /// Free memory now, MiB.
    pub memory_free_mb: u64,
    /// Compute capability (`9.0`).
    pub compute_capability: Option<String>,
    /// Maximum graphics (SM) clock, MHz.
    pub max_sm_clock_mhz: Option<u32>,
    /// Maximum memory clock, MHz.
    pub max_memory_clock_mhz: Option<u32>,
    /// Memory bus width, bits.
    pub memory_bus_width_bits: Option<u32>,
    /// PCI bus id (`00000000:01:00.0`).
    pub pci_bus_id: Option<String>,
    /// PCI device/vendor id (`0x233010DE`).
    pub pci_device_id: Option<String>,
    /// Current PCIe generation and width (`4x16`).
    pub pcie_link: Option<String>,
    /// Active NVLink links.
    pub nvlink_active_links: u32,
    /// Default power limit, W.
    pub power_limit_w: Option<f64>,
    /// CUDA cores (NVML's core count; SMs × cores per SM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_cores: Option<u32>,
}

/// What NVML said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NvidiaReport {
    /// Whether at least one GPU was found.
    pub available: bool,
    /// Why not, when not (the NVML error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Driver version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver_version: Option<String>,
    /// Highest CUDA version the driver supports (`12.4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_version: Option<String>,
    /// The GPUs.
    pub devices: Vec<NvidiaGpu>,
}

/// One AMD GPU.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RocmGpu {
    /// Index among the GPUs (ROCm device order).
    pub index: u32,
    /// Name (DRM `product_name`, else the gfx target).
    pub name: String,
    /// LLVM target (`gfx942`).
    pub gfx_target: Option<String>,
    /// PCI device id.
    pub pci_device_id: Option<String>,
    /// Compute units.
    pub compute_units: Option<u32>,
    /// VRAM, MiB.
    pub memory_total_mb: Option<u64>,
    /// Maximum compute clock, MHz (KFD's `max_engine_clk_fcompute`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_clock_mhz: Option<u32>,
}

/// What sysfs said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RocmReport {
    /// Whether at least one GPU was found.
    pub available: bool,
    /// Why not, when not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The GPUs.
    pub devices: Vec<RocmGpu>,
}

/// One wgpu adapter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AdapterReport {
    /// Adapter name (`NVIDIA H100 80GB HBM3`, `llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub name: String,
    /// PCI vendor id (`0x10DE`).
    pub vendor_id: String,
    /// PCI device id.
    pub device_id: String,
    /// `discrete_gpu`, `integrated_gpu`, `virtual_gpu`, `cpu` (software rasteriser) or `other`.
    pub device_type: String,
    /// `vulkan`, `metal`, `dx12` or `gl`.
    pub backend: String,
    /// Driver name and info.
    pub driver: String,
    /// PCI bus id, where the back-end reports one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pci_bus_id: String,
    /// Features of interest that it has (`shader-f16`, `timestamp-query`, `subgroups` …).
    pub features: Vec<String>,
    /// Limits that bound model buffers and kernels.
    pub limits: AdapterLimits,
}

/// The limits that matter for models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AdapterLimits {
    /// Largest buffer, bytes.
    pub max_buffer_size: u64,
    /// Largest storage-buffer binding, bytes.
    pub max_storage_buffer_binding_size: u64,
    /// Workgroup memory, bytes.
    pub max_compute_workgroup_storage_size: u32,
    /// Invocations per workgroup.
    pub max_compute_invocations_per_workgroup: u32,
    /// Workgroups per dispatch dimension.
    pub max_compute_workgroups_per_dimension: u32,
}

impl AdapterReport {
    /// Whether this is the same physical device as `other` seen through another back-end.
    #[must_use]
    pub fn same_device(&self, other: &Self) -> bool {
        if !self.pci_bus_id.is_empty() && !other.pci_bus_id.is_empty() {
            return self.pci_bus_id == other.pci_bus_id;
        }
        self.name == other.name && self.device_type == other.device_type
    }

    /// Back-end preference for benchmarking one physical device: the native APIs before GL.
    #[must_use]
    pub fn backend_rank(&self) -> u8 {
        match self.backend.as_str() {
            "vulkan" | "metal" | "dx12" => 0,
            _ => 1,
        }
    }
}

/// One runtime's presence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuntimeReport {
    /// Whether its library was found.
    pub available: bool,
    /// The library found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// Its version, where readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Where it looked, when it found nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub searched: Vec<String>,
}

/// A framework or engine installed on this machine that runs models (found without loading it into
/// hwfit: its Python package probed in a child process, or its binary asked for its version).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct InstalledRuntime {
    /// The runtime, as predictions name it.
    pub runtime: crate::perf::Runtime,
    /// Its version as it reports it.
    pub version: String,
    /// The back-ends this build can use (`cuda 12.4`, `rocm 6.1`, `mps`, `cpu`; ONNX Runtime's
    /// execution providers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub builds: Vec<String>,
    /// Where: the Python interpreter whose environment has it, or the binary.
    pub location: String,
}

/// Apple's Metal GPU, reported as `mps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// A catalog device with published figures.
    Catalog,
    /// Unknown to the catalog: its measured figures are used.
    Measured,
    /// Unknown to the catalog (or its name undecided): built from the detected facts (units ×
    /// clock, bus width × memory clock).
    Facts,
    /// Unknown to the catalog, without the facts to build it, and not benchmarked yet
    /// (`--benchmark` measures it).
    Unprofiled,
}

/// A device hwfit can predict on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// How its name (and facts) were read into the catalog device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_from: Option<crate::ResolvedFrom>,
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
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Frameworks and engines installed here (PyTorch, ONNX Runtime, OpenVINO's Python package,
    /// MLX, llama.cpp).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub installed_runtimes: Vec<InstalledRuntime>,
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
