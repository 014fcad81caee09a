//! AMD GPUs through the kernel's KFD topology (`/sys/class/kfd/kfd/topology/nodes/*/properties`) and
//! DRM (`/sys/class/drm/card*/device`): name and VRAM without rocm-smi.

use std::path::Path;

pub use hwfit_core::detect::{RocmGpu, RocmReport};

/// AMD's PCI vendor id.
const AMD_VENDOR: u64 = 0x1002;

/// Probes the real sysfs.
#[must_use]
pub fn detect() -> RocmReport {
    detect_in(Path::new("/sys"))
}

/// Probes a sysfs tree rooted at `sys` (tests pass a fixture).
#[must_use]
pub fn detect_in(sys: &Path) -> RocmReport {
    let nodes = sys.join("class/kfd/kfd/topology/nodes");
    let Ok(entries) = std::fs::read_dir(&nodes) else {
        return RocmReport {
            available: false,
            reason: Some(format!("{} not present (no amdgpu KFD driver)", nodes.display())),
            devices: Vec::new(),
        };
    };
    let mut numbered: Vec<(u32, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name().to_string_lossy().parse().ok()?, e.path())))
        .collect();
    numbered.sort();
    let mut devices = Vec::new();
    for (_, node) in numbered {
        let Ok(props) = std::fs::read_to_string(node.join("properties")) else {
            continue;
        };
        let prop = |key: &str| {
            props.lines().find_map(|l| {
                let mut it = l.split_whitespace();
                (it.next() == Some(key))
                    .then(|| it.next()?.parse::<u64>().ok())
                    .flatten()
            })
        };
        // CPU nodes have no SIMD units; GPUs from other vendors are not AMD's.
        if prop("simd_count").unwrap_or(0) == 0 || prop("vendor_id") != Some(AMD_VENDOR) {
            continue;
        }
        let gfx_target = prop("gfx_target_version").filter(|v| *v > 0).map(gfx_name);
        let drm = prop("drm_render_minor").and_then(|m| drm_device(sys, m));
        let read = |f: &str| {
            drm.as_ref()
                .and_then(|d| std::fs::read_to_string(d.join(f)).ok())
                .map(|s| s.trim().to_owned())
        };
        let name = read("product_name")
            .filter(|s| !s.is_empty())
            .or_else(|| gfx_target.clone())
            .unwrap_or_else(|| String::from("AMD GPU"));
        devices.push(RocmGpu {
            index: devices.len() as u32,
            name,
            gfx_target,
            pci_device_id: prop("device_id").map(|d| format!("0x{d:04X}")),
            compute_units: prop("simd_count")
                .zip(prop("simd_per_cu"))
                .map(|(s, per)| (s / per.max(1)) as u32),
            memory_total_mb: read("mem_info_vram_total")
                .and_then(|v| v.parse::<u64>().ok())
                .map(|b| b >> 20),
            max_clock_mhz: prop("max_engine_clk_fcompute")
                .filter(|c| *c > 0)
                .and_then(|c| u32::try_from(c).ok()),
        });
    }
    RocmReport {
        available: !devices.is_empty(),
        reason: devices.is_empty().then(|| String::from("KFD lists no AMD GPU")),
        devices,
    }
}

/// `gfx_target_version` 90402 → `gfx942`, 110000 → `gfx1100`, 90010 → `gfx90a`.
fn gfx_name(v: u64) -> String {
    let (major, minor, step) = (v / 10000, (v / 100) % 100, v % 100);
    format!("gfx{major}{minor}{step:x}")
}

/// The DRM device directory whose render node has minor `minor` (`renderD128` → `/sys/class/drm/renderD128/device`).
fn drm_device(sys: &Path, minor: u64) -> Option<std::path::PathBuf> {
    let dir = sys.join(format!("class/drm/renderD{minor}/device"));
    dir.exists().then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx_names() {
        assert_eq!(gfx_name(90_402), "gfx942");
        assert_eq!(gfx_name(110_000), "gfx1100");
        assert_eq!(gfx_name(90_010), "gfx90a");
    }

    #[test]
    fn absent_kfd_is_a_clean_not_present() {
        let dir = tempfile::tempdir().unwrap();
        let r = detect_in(dir.path());
        assert!(!r.available && r.devices.is_empty());
        assert!(r.reason.unwrap().contains("not present"));
    }

    #[test]
    fn kfd_and_drm_fixture_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let nodes = dir.path().join("class/kfd/kfd/topology/nodes");
        // Node 0: a CPU (no SIMD units). Node 1: an MI300X as KFD lists it.
        std::fs::create_dir_all(nodes.join("0")).unwrap();
        std::fs::write(
            nodes.join("0/properties"),
            "cpu_cores_count 96\nsimd_count 0\nvendor_id 0\n",
        )
        .unwrap();
        std::fs::create_dir_all(nodes.join("1")).unwrap();
        std::fs::write(
            nodes.join("1/properties"),
            "simd_count 1216\nsimd_per_cu 4\nvendor_id 4098\ndevice_id 29857\ngfx_target_version 90402\ndrm_render_minor 128\n",
        )
        .unwrap();
        let drm = dir.path().join("class/drm/renderD128/device");
        std::fs::create_dir_all(&drm).unwrap();
        std::fs::write(drm.join("product_name"), "AMD Instinct MI300X\n").unwrap();
        std::fs::write(drm.join("mem_info_vram_total"), format!("{}\n", 192u64 << 30)).unwrap();
        let r = detect_in(dir.path());
        assert!(r.available);
        assert_eq!(r.devices.len(), 1);
        let g = &r.devices[0];
        assert_eq!(g.name, "AMD Instinct MI300X");
        assert_eq!(g.gfx_target.as_deref(), Some("gfx942"));
        assert_eq!(g.compute_units, Some(304));
        assert_eq!(g.memory_total_mb, Some(192 * 1024));
        assert_eq!(g.pci_device_id.as_deref(), Some("0x74A1"));
    }
}
