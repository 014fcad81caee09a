//! Every GPU wgpu can see (Vulkan, Metal, DX12, GL): identity, type, back-end, the features and
//! limits that matter for models.

pub use hwfit_core::detect::{AdapterLimits, AdapterReport};

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
