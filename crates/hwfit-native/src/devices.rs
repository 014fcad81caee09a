//! The devices hwfit can predict on, matched to the catalog and linked to their wgpu adapter.

use hwfit_core::detect::{identify, GpuFacts};
use hwfit_core::{DeviceCatalog, HardwareType};

use crate::cpu::{CpuInfo, MemoryInfo};
use crate::nvidia::NvidiaReport;
use crate::report::{DetectedDevice, GpuAdapter, MpsReport, Profile};
use crate::rocm::RocmReport;
use crate::runtimes::RuntimeReport;

/// `00000000:01:00.0` (NVML) and `0000:01:00.0` (Vulkan) → `0:01:00.0`.
fn normalize_bus_id(id: &str) -> Option<String> {
    let (domain, rest) = id.split_once(':')?;
    let domain = u32::from_str_radix(domain, 16).ok()?;
    Some(format!("{domain:x}:{}", rest.to_ascii_lowercase()))
}

fn device(
    catalog: &DeviceCatalog,
    key: String,
    name: &str,
    hw: HardwareType,
    memory_mb: u64,
    adapter: Option<usize>,
) -> DetectedDevice {
    let catalog_id = catalog.match_detected(name, hw).map(|d| d.id.clone());
    DetectedDevice {
        key,
        name: name.to_owned(),
        hardware_type: hw,
        memory_mb,
        profile: if catalog_id.is_some() {
            Profile::Catalog
        } else {
            Profile::Unprofiled
        },
        catalog_id,
        resolved_from: None,
        adapter,
        benchmark: None,
    }
}

/// A GPU identified by its name checked against its facts, or by its facts alone; one that no
/// catalog device fits is built from them (never dropped).
fn gpu(catalog: &DeviceCatalog, key: String, facts: &GpuFacts, adapter: Option<usize>) -> DetectedDevice {
    let identified = identify(catalog, facts);
    let profile = identified.profile(facts);
    DetectedDevice {
        key,
        name: facts.name.clone(),
        hardware_type: facts.hardware_type,
        memory_mb: facts.memory_mb,
        catalog_id: identified.device.map(|d| d.id.clone()),
        resolved_from: identified.resolved_from,
        profile,
        adapter,
        benchmark: None,
    }
}

/// CPU first, then NVIDIA, AMD and Apple GPUs.
pub(crate) fn list(
    cpu: &CpuInfo,
    memory: &MemoryInfo,
    cuda: &NvidiaReport,
    rocm: &RocmReport,
    mps: &MpsReport,
    gpus: &[GpuAdapter],
) -> Vec<DetectedDevice> {
    let catalog = DeviceCatalog::bundled().unwrap_or_else(|_| DeviceCatalog::builtin());
    let mut out = vec![device(
        &catalog,
        "cpu".into(),
        &cpu.brand,
        HardwareType::Cpu,
        memory.total_mb,
        None,
    )];
    for g in &cuda.devices {
        let bus = g.pci_bus_id.as_deref().and_then(normalize_bus_id);
        let adapter = gpus
            .iter()
            .enumerate()
            .filter(|(_, a)| bus.is_some() && normalize_bus_id(&a.adapter.pci_bus_id) == bus)
            .min_by_key(|(_, a)| a.adapter.backend_rank())
            .map(|(i, _)| i);
        out.push(gpu(
            &catalog,
            format!("cuda:{}", g.index),
            &GpuFacts::nvidia(g),
            adapter,
        ));
    }
    // KFD and wgpu both list AMD GPUs in PCI order: the i-th AMD adapter (native back-end) is rocm:i.
    let amd: Vec<usize> = gpus
        .iter()
        .enumerate()
        .filter(|(_, a)| a.adapter.vendor_id == "0x1002" && a.adapter.backend_rank() == 0)
        .map(|(i, _)| i)
        .collect();
    for g in &rocm.devices {
        let adapter = amd.get(g.index as usize).copied();
        out.push(gpu(&catalog, format!("rocm:{}", g.index), &GpuFacts::rocm(g), adapter));
    }
    if let (true, Some(name)) = (mps.available, &mps.name) {
        let adapter = gpus
            .iter()
            .position(|a| &a.adapter.name == name && a.adapter.backend == "metal");
        out.push(device(
            &catalog,
            "mps".into(),
            name,
            HardwareType::Mps,
            mps.unified_memory_mb.unwrap_or(0),
            adapter,
        ));
    }
    out
}

/// Device counts per hardware type, for IPFS Accelerate's availability map.
pub(crate) fn counts(
    devices: &[DetectedDevice],
    openvino: &RuntimeReport,
    qnn: &RuntimeReport,
) -> Vec<(HardwareType, u32)> {
    let mut out: Vec<(HardwareType, u32)> = devices.iter().map(|d| (d.hardware_type, 1)).collect();
    if openvino.available {
        out.push((HardwareType::Openvino, 1));
    }
    if qnn.available {
        out.push((HardwareType::Qnn, 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize_bus_id;

    #[test]
    fn nvml_and_vulkan_bus_ids_agree() {
        assert_eq!(normalize_bus_id("00000000:01:00.0"), normalize_bus_id("0000:01:00.0"));
        assert_ne!(normalize_bus_id("00000000:02:00.0"), normalize_bus_id("0000:01:00.0"));
        assert_eq!(normalize_bus_id(""), None);
    }
}
