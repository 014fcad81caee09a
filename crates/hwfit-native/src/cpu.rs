//! CPU and system memory: sysinfo for brand, vendor, cores and memory; the standard library's run-time
//! feature detection for SIMD; Linux sysfs for sockets and caches.

use std::collections::BTreeSet;
use std::path::Path;

pub use hwfit_core::detect::{CpuCache, CpuInfo, MemoryInfo};
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

/// Probes CPU and memory.
#[must_use]
pub fn detect() -> (CpuInfo, MemoryInfo) {
    let sys = System::new_with_specifics(
        RefreshKind::nothing()
            .with_cpu(CpuRefreshKind::nothing().with_frequency())
            .with_memory(MemoryRefreshKind::nothing().with_ram()),
    );
    let first = sys.cpus().first();
    let sysfs = Path::new("/sys/devices/system/cpu");
    let cpu = CpuInfo {
        brand: first.map(|c| c.brand().trim().to_owned()).unwrap_or_default(),
        vendor: first.map(|c| c.vendor_id().to_owned()).unwrap_or_default(),
        architecture: System::cpu_arch(),
        physical_cores: System::physical_core_count().map(|n| n as u32),
        logical_cores: std::thread::available_parallelism().map_or(sys.cpus().len(), usize::from) as u32,
        sockets: sockets(sysfs),
        frequency_mhz: max_frequency_mhz(sysfs).or_else(|| first.map(sysinfo::Cpu::frequency).filter(|f| *f > 0)),
        simd: simd_features(),
        caches: caches(&sysfs.join("cpu0/cache")),
    };
    let memory = MemoryInfo {
        total_mb: sys.total_memory() >> 20,
        available_mb: sys.available_memory() >> 20,
    };
    (cpu, memory)
}

/// Distinct `physical_package_id`s under a sysfs CPU directory.
#[must_use]
pub fn sockets(sysfs_cpu: &Path) -> Option<u32> {
    let ids: BTreeSet<String> = std::fs::read_dir(sysfs_cpu)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("cpu")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("topology/physical_package_id")).ok())
        .map(|s| s.trim().to_owned())
        .collect();
    (!ids.is_empty()).then_some(ids.len() as u32)
}

fn max_frequency_mhz(sysfs_cpu: &Path) -> Option<u64> {
    let khz: u64 = std::fs::read_to_string(sysfs_cpu.join("cpu0/cpufreq/cpuinfo_max_freq"))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(khz / 1000)
}

/// Caches listed under a sysfs `cpuN/cache` directory.
#[must_use]
pub fn caches(dir: &Path) -> Vec<CpuCache> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let read = |p: &Path, f: &str| std::fs::read_to_string(p.join(f)).ok().map(|s| s.trim().to_owned());
    let mut out: Vec<CpuCache> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .filter_map(|e| {
            let p = e.path();
            Some(CpuCache {
                level: read(&p, "level")?.parse().ok()?,
                kind: read(&p, "type")?,
                size_kb: parse_size_kb(&read(&p, "size")?)?,
            })
        })
        .collect();
    out.sort_by(|a, b| (a.level, &a.kind).cmp(&(b.level, &b.kind)));
    out
}

/// `32K`, `1024K`, `32M` → KiB.
fn parse_size_kb(s: &str) -> Option<u64> {
    let (digits, mult) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1),
        'M' => (&s[..s.len() - 1], 1024),
        'G' => (&s[..s.len() - 1], 1024 * 1024),
        _ => (s, 1),
    };
    Some(digits.parse::<u64>().ok()? * mult)
}

/// The SIMD and matrix extensions this CPU has, by the standard library's run-time detection.
#[must_use]
pub fn simd_features() -> Vec<String> {
    let mut out: Vec<&str> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! x86 {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
                    out.push($f);
                }
            )*};
        }
        x86!(
            "sse4.2",
            "avx",
            "avx2",
            "fma",
            "f16c",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vnni",
            "avx512bf16",
            "avx512fp16"
        );
        // AMX detection is not stable in std yet: the kernel's flags say whether it is enabled.
        let flags = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags: Vec<&str> = flags
            .lines()
            .find(|l| l.starts_with("flags"))
            .map(|l| l.split_whitespace().collect())
            .unwrap_or_default();
        for (flag, name) in [
            ("amx_tile", "amx-tile"),
            ("amx_int8", "amx-int8"),
            ("amx_bf16", "amx-bf16"),
        ] {
            if flags.contains(&flag) {
                out.push(name);
            }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! arm {
            ($($f:tt),*) => {$(
                if std::arch::is_aarch64_feature_detected!($f) {
                    out.push($f);
                }
            )*};
        }
        arm!("neon", "fp16", "dotprod", "i8mm", "bf16", "sve", "sve2", "sme");
    }
    out.into_iter().map(str::to_owned).collect()
}

/// f32 FLOPs per cycle per core this CPU's widest FMA can issue, assuming two FMA pipes (an upper
/// bound: many cores have one 512-bit pipe). Used only for the roofline a measurement must stay under.
#[must_use]
pub fn peak_f32_flops_per_cycle(simd: &[String]) -> f64 {
    let has = |f: &str| simd.iter().any(|s| s == f);
    let lanes = if has("avx512f") {
        16.0
    } else if has("avx2") || has("avx") {
        8.0
    } else {
        4.0
    };
    lanes * 2.0 * 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_sizes_parse() {
        assert_eq!(parse_size_kb("32K"), Some(32));
        assert_eq!(parse_size_kb("32M"), Some(32 * 1024));
        assert_eq!(parse_size_kb("512"), Some(512));
        assert_eq!(parse_size_kb("x"), None);
    }

    #[test]
    fn sysfs_layout_is_read() {
        let dir = tempfile::tempdir().unwrap();
        for (cpu, pkg) in [("cpu0", "0"), ("cpu1", "0"), ("cpu2", "1")] {
            let topo = dir.path().join(cpu).join("topology");
            std::fs::create_dir_all(&topo).unwrap();
            std::fs::write(topo.join("physical_package_id"), format!("{pkg}\n")).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("cpufreq")).unwrap();
        assert_eq!(sockets(dir.path()), Some(2));
        let cache = dir.path().join("cpu0/cache/index0");
        std::fs::create_dir_all(&cache).unwrap();
        std::fs::write(cache.join("level"), "1\n").unwrap();
        std::fs::write(cache.join("type"), "Data\n").unwrap();
        std::fs::write(cache.join("size"), "48K\n").unwrap();
        assert_eq!(
            caches(&dir.path().join("cpu0/cache")),
            vec![CpuCache {
                level: 1,
                kind: "Data".into(),
                size_kb: 48
            }]
        );
        assert_eq!(sockets(&dir.path().join("missing")), None);
    }
}
