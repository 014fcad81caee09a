//! Every GPU wgpu can see (Vulkan, Metal, DX12, GL): identity, type, back-end, the features and
//! limits that matter for models.

use serde::{Deserialize, Serialize};

/// One wgpu adapter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// A fresh wgpu instance over `backends`.
fn instance(backends: wgpu::Backends) -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = backends;
    wgpu::Instance::new(desc)
}

/// Every adapter on the primary back-ends (Vulkan, Metal, DX12); GL only where those find none (GL
/// adapters duplicate the Vulkan ones, and probing EGL prints platform noise on headless servers).
#[must_use]
pub fn enumerate() -> Vec<(wgpu::Adapter, AdapterReport)> {
    let mut adapters =
        pollster::block_on(instance(wgpu::Backends::PRIMARY).enumerate_adapters(wgpu::Backends::PRIMARY));
    if adapters.is_empty() {
        adapters = pollster::block_on(instance(wgpu::Backends::GL).enumerate_adapters(wgpu::Backends::GL));
    }
    adapters
        .into_iter()
        .map(|a| {
            let report = report(&a);
            (a, report)
        })
        .collect()
}

fn report(adapter: &wgpu::Adapter) -> AdapterReport {
    let info = adapter.get_info();
    let limits = adapter.limits();
    let features = adapter.features();
    let named = [
        (wgpu::Features::SHADER_F16, "shader-f16"),
        (wgpu::Features::TIMESTAMP_QUERY, "timestamp-query"),
        (wgpu::Features::SUBGROUP, "subgroups"),
        (wgpu::Features::SHADER_INT64, "shader-int64"),
        (wgpu::Features::SHADER_F64, "shader-f64"),
    ];
    AdapterReport {
        name: info.name,
        vendor_id: format!("0x{:04X}", info.vendor),
        device_id: format!("0x{:04X}", info.device),
        device_type: match info.device_type {
            wgpu::DeviceType::DiscreteGpu => "discrete_gpu",
            wgpu::DeviceType::IntegratedGpu => "integrated_gpu",
            wgpu::DeviceType::VirtualGpu => "virtual_gpu",
            wgpu::DeviceType::Cpu => "cpu",
            wgpu::DeviceType::Other => "other",
        }
        .to_owned(),
        backend: info.backend.to_str().to_owned(),
        driver: [info.driver, info.driver_info]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" "),
        pci_bus_id: info.device_pci_bus_id,
        features: named
            .iter()
            .filter(|(f, _)| features.contains(*f))
            .map(|(_, n)| (*n).to_owned())
            .collect(),
        limits: AdapterLimits {
            max_buffer_size: limits.max_buffer_size,
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_compute_workgroup_storage_size: limits.max_compute_workgroup_storage_size,
            max_compute_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
            max_compute_workgroups_per_dimension: limits.max_compute_workgroups_per_dimension,
        },
    }
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
