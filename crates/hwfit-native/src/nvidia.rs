//! NVIDIA GPUs through NVML, loaded at run time: no NVIDIA library means "not present", never an error.

pub use hwfit_core::detect::{NvidiaGpu, NvidiaReport};
use nvml_wrapper::enum_wrappers::device::Clock;
use nvml_wrapper::Nvml;

fn absent(reason: String) -> NvidiaReport {
    NvidiaReport {
        available: false,
        reason: Some(reason),
        driver_version: None,
        cuda_version: None,
        devices: Vec::new(),
    }
}

/// Probes NVML.
#[must_use]
pub fn detect() -> NvidiaReport {
    let nvml = match Nvml::init() {
        Ok(n) => n,
        Err(e) => return absent(format!("NVML not usable: {e}")),
    };
    let count = match nvml.device_count() {
        Ok(c) => c,
        Err(e) => return absent(format!("NVML device count failed: {e}")),
    };
    let devices: Vec<NvidiaGpu> = (0..count).filter_map(|i| gpu(&nvml, i)).collect();
    let cuda = nvml.sys_cuda_driver_version().ok();
    NvidiaReport {
        available: !devices.is_empty(),
        reason: devices.is_empty().then(|| String::from("NVML found no GPU")),
        driver_version: nvml.sys_driver_version().ok(),
        cuda_version: cuda.map(|v| format!("{}.{}", v / 1000, (v % 1000) / 10)),
        devices,
    }
}

fn gpu(nvml: &Nvml, index: u32) -> Option<NvidiaGpu> {
    let d = nvml.device_by_index(index).ok()?;
    let memory = d.memory_info().ok();
    let pci = d.pci_info().ok();
    let nvlink_active_links = (0..18)
        .filter(|l| d.link_wrapper_for(*l).is_active().unwrap_or(false))
        .count() as u32;
    Some(NvidiaGpu {
        index,
        name: d.name().ok()?,
        uuid: d.uuid().ok(),
        memory_total_mb: memory.as_ref().map_or(0, |m| m.total >> 20),
        memory_free_mb: memory.as_ref().map_or(0, |m| m.free >> 20),
        compute_capability: d
            .cuda_compute_capability()
            .ok()
            .map(|c| format!("{}.{}", c.major, c.minor)),
        max_sm_clock_mhz: d.max_clock_info(Clock::SM).ok(),
        max_memory_clock_mhz: d.max_clock_info(Clock::Memory).ok(),
        memory_bus_width_bits: d.memory_bus_width().ok(),
        pci_bus_id: pci.as_ref().map(|p| p.bus_id.clone()),
        pci_device_id: pci.as_ref().map(|p| format!("0x{:08X}", p.pci_device_id)),
        pcie_link: match (d.current_pcie_link_gen(), d.current_pcie_link_width()) {
            (Ok(g), Ok(w)) => Some(format!("{g}x{w}")),
            _ => None,
        },
        nvlink_active_links,
        power_limit_w: d.power_management_limit_default().ok().map(|mw| f64::from(mw) / 1e3),
        cuda_cores: d.num_cores().ok().filter(|c| *c > 0),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn absence_is_clean() {
        // On a machine without the NVIDIA driver this must be a clean "not present"; with one, a list.
        let r = super::detect();
        if r.available {
            assert!(!r.devices.is_empty());
        } else {
            assert!(r.reason.as_deref().is_some_and(|s| !s.is_empty()));
            assert!(r.devices.is_empty());
        }
    }
}
