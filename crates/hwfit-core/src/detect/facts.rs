//! A detected GPU's facts beyond its name (NVML, KFD): they check the catalog device a name
//! resolves to, decide between the devices a name leaves open (`NVIDIA GeForce RTX 3060`: the 12 GB
//! card has a 192-bit bus, the 8 GB one a 128-bit bus), and where no catalog device fits, the device
//! is built from them — units × clock × the architecture's FLOPs per unit per clock, the derivation
//! the device database uses, and bandwidth from bus width × memory clock. A detected GPU is never
//! dropped for its name.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{DetectionReport, NvidiaGpu, RocmGpu};
use crate::device::{matrix_rates, rule_for, DenseTflops, UnitFacts};
use crate::{Device, DeviceCatalog, DeviceProfile, HardwareType, ResolvedFrom};

/// What detection read about one GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuFacts {
    /// The name the platform reports.
    pub name: String,
    /// Its back-end.
    pub hardware_type: HardwareType,
    /// Device memory, MiB.
    pub memory_mb: u64,
    /// CUDA compute capability (`9.0`).
    pub compute_capability: Option<String>,
    /// AMD LLVM target (`gfx942`).
    pub gfx_target: Option<String>,
    /// CUDA cores (NVML's `nvmlDeviceGetNumGpuCores`) or stream processors.
    pub shaders: Option<u32>,
    /// Compute units (AMD).
    pub compute_units: Option<u32>,
    /// Maximum shader clock, MHz.
    pub max_clock_mhz: Option<u32>,
    /// Maximum memory clock, MHz, as NVML reports it (half the data rate per pin).
    pub max_memory_clock_mhz: Option<u32>,
    /// Memory bus width, bits.
    pub memory_bus_width_bits: Option<u32>,
    /// Default power limit, W.
    pub power_limit_w: Option<f64>,
}

/// How far a fact may be from the catalog's figure and still describe that device: memory (the
/// marketed GB read as GiB; ECC and reserved memory take a few per cent), bandwidth (a memory clock
/// rounds), the FP32 rate (boards clock above the reference), the power limit (the default limit is
/// the TDP; variants of one chip differ by ≥ 15 %, H200 SXM 700 W vs NVL 600 W).
const MEMORY_TOLERANCE: f64 = 0.1;
const BANDWIDTH_TOLERANCE: f64 = 0.1;
const FP32_TOLERANCE: f64 = 0.15;
const POWER_TOLERANCE: f64 = 0.12;

/// The rule named in `resolved_from` when the facts chose among a name's candidates.
pub const FACTS_RULE: &str = "the detected facts decide";

impl GpuFacts {
    /// An NVIDIA GPU's facts as NVML gave them.
    #[must_use]
    pub fn nvidia(g: &NvidiaGpu) -> Self {
        Self {
            name: g.name.clone(),
            hardware_type: HardwareType::Cuda,
            memory_mb: g.memory_total_mb,
            compute_capability: g.compute_capability.clone(),
            gfx_target: None,
            shaders: g.cuda_cores,
            compute_units: None,
            max_clock_mhz: g.max_sm_clock_mhz,
            max_memory_clock_mhz: g.max_memory_clock_mhz,
            memory_bus_width_bits: g.memory_bus_width_bits,
            power_limit_w: g.power_limit_w,
        }
    }

    /// An AMD GPU's facts as KFD gave them.
    #[must_use]
    pub fn rocm(g: &RocmGpu) -> Self {
        Self {
            name: g.name.clone(),
            hardware_type: HardwareType::Rocm,
            memory_mb: g.memory_total_mb.unwrap_or(0),
            compute_capability: None,
            gfx_target: g.gfx_target.clone(),
            // KFD's clock and CU count are read, but AMD's FP32 figures count packed or dual-issue
            // FP32 differently per product, and its memory clock's multiple differs by memory type:
            // AMD GPUs are identified by their facts, not built from them.
            shaders: None,
            compute_units: g.compute_units,
            max_clock_mhz: g.max_clock_mhz,
            max_memory_clock_mhz: None,
            memory_bus_width_bits: None,
            power_limit_w: None,
        }
    }

    /// The facts of the device a report lists under `key` (`cuda:0`, `rocm:1`).
    #[must_use]
    pub fn of_report(report: &DetectionReport, key: &str) -> Option<Self> {
        let (kind, index) = key.split_once(':')?;
        let index: u32 = index.parse().ok()?;
        match kind {
            "cuda" => report.cuda.devices.iter().find(|g| g.index == index).map(Self::nvidia),
            "rocm" => report.rocm.devices.iter().find(|g| g.index == index).map(Self::rocm),
            _ => None,
        }
    }

    fn vendor(&self) -> &'static str {
        match self.hardware_type {
            HardwareType::Rocm => "AMD",
            _ => "NVIDIA",
        }
    }

    /// The architecture as the device database names it (TechPowerUp's names), from the compute
    /// capability or the gfx target.
    fn architecture(&self) -> Option<&'static str> {
        if let Some(cc) = &self.compute_capability {
            let (major, minor) = cc.split_once('.')?;
            return Some(match (major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?) {
                (6, _) => "Pascal",
                (7, 0 | 2) => "Volta",
                (7, _) => "Turing",
                (8, 9) => "Ada Lovelace",
                (8, _) => "Ampere",
                (9, _) => "Hopper",
                (10 | 11, _) => "Blackwell",
                (12, _) => "Blackwell 2.0",
                _ => return None,
            });
        }
        let gfx = self.gfx_target.as_deref()?.strip_prefix("gfx")?;
        Some(match gfx {
            "908" => "CDNA 1.0",
            "90a" => "CDNA 2.0",
            "940" | "941" | "942" => "CDNA 3.0",
            g if g.starts_with("110") => "RDNA 3.0",
            g if g.starts_with("115") => "RDNA 3.5",
            g if g.starts_with("120") => "RDNA 4.0",
            g if g.starts_with("103") => "RDNA 2.0",
            _ => return None,
        })
    }

    /// CUDA cores per SM by compute capability (the CUDA programming guide's table).
    fn cores_per_sm(&self) -> Option<u32> {
        let cc = self.compute_capability.as_deref()?;
        Some(if matches!(cc, "6.0" | "7.0" | "7.2" | "7.5" | "8.0") {
            64
        } else {
            128
        })
    }

    /// Peak bandwidth from the bus and the memory clock: bus bytes × clock × 2 (NVML's memory clock
    /// is half the per-pin data rate: an H100 SXM's 2,619 MHz × 5,120 bits = 3.35 TB/s).
    #[must_use]
    pub fn bandwidth_gbs(&self) -> Option<f64> {
        let bus = f64::from(self.memory_bus_width_bits.filter(|b| *b > 0)?);
        let clock = f64::from(self.max_memory_clock_mhz.filter(|c| *c > 0)?);
        Some(bus / 8.0 * clock * 2.0 / 1e3)
    }

    /// FP32 peak from shaders × 2 FLOPs (one FMA) × clock.
    #[must_use]
    pub fn fp32_tflops(&self) -> Option<f64> {
        let shaders = f64::from(self.shaders.filter(|s| *s > 0)?);
        let clock = f64::from(self.max_clock_mhz.filter(|c| *c > 0)?);
        Some(shaders * 2.0 * clock / 1e6)
    }

    fn memory_gib(&self) -> f64 {
        self.memory_mb as f64 / 1024.0
    }

    /// The fact that rules `device` out, if one does.
    fn contradiction(&self, device: &Device) -> Option<String> {
        let off = |have: f64, want: f64, tolerance: f64| (have / want - 1.0).abs() > tolerance;
        if device.hardware_type != self.hardware_type {
            return Some(format!("a {} device", device.hardware_type.as_str()));
        }
        if self.memory_mb > 0 {
            let sizes = if device.memory_options_gb.is_empty() {
                alloc::vec![device.memory_gb]
            } else {
                device.memory_options_gb.clone()
            };
            if sizes.iter().all(|gb| off(self.memory_gib(), *gb, MEMORY_TOLERANCE)) {
                return Some(format!(
                    "memory {:.1} GiB, not {} GB",
                    self.memory_gib(),
                    device.memory_gb
                ));
            }
        }
        if let (Some(w), Some(tdp)) = (self.power_limit_w, device.tdp_w) {
            if off(w, tdp, POWER_TOLERANCE) {
                return Some(format!("power limit {w:.0} W, not {tdp:.0} W"));
            }
        }
        if let Some(gbs) = self.bandwidth_gbs() {
            if off(gbs, device.memory_bandwidth_gbs, BANDWIDTH_TOLERANCE) {
                return Some(format!(
                    "bandwidth {gbs:.0} GB/s, not {:.0}",
                    device.memory_bandwidth_gbs
                ));
            }
        }
        if let Some(fp32) = self.fp32_tflops() {
            if off(fp32, device.dense_tflops.fp32, FP32_TOLERANCE) {
                return Some(format!("FP32 {fp32:.1} TFLOP/s, not {:.1}", device.dense_tflops.fp32));
            }
        }
        None
    }

    /// The facts that were compared, as `resolved_from.facts` lists them.
    fn stated(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.memory_mb > 0 {
            out.push(format!("memory {:.1} GiB", self.memory_gib()));
        }
        if let Some(w) = self.power_limit_w {
            out.push(format!("power limit {w:.0} W"));
        }
        if let (Some(gbs), Some(bus), Some(clock)) = (
            self.bandwidth_gbs(),
            self.memory_bus_width_bits,
            self.max_memory_clock_mhz,
        ) {
            out.push(format!("bandwidth {gbs:.0} GB/s from a {bus}-bit bus at {clock} MHz"));
        }
        if let (Some(fp32), Some(shaders), Some(clock)) = (self.fp32_tflops(), self.shaders, self.max_clock_mhz) {
            out.push(format!("FP32 {fp32:.1} TFLOP/s from {shaders} shaders at {clock} MHz"));
        }
        out
    }

    /// The device these facts describe, built from them alone, or what is missing.
    pub fn device(&self) -> Result<Device, String> {
        let (architecture, fp32, memory_bandwidth_gbs) =
            match (self.architecture(), self.fp32_tflops(), self.bandwidth_gbs()) {
                (Some(a), Some(f), Some(b)) if self.memory_mb > 0 => (a, f, b),
                (a, f, b) => {
                    let missing: Vec<&str> = [
                        (a.is_none(), "a known architecture (compute capability)"),
                        (f.is_none(), "a shader count and clock"),
                        (b.is_none(), "a memory bus width and clock"),
                        (self.memory_mb == 0, "a memory size"),
                    ]
                    .iter()
                    .filter(|(absent, _)| *absent)
                    .map(|(_, what)| *what)
                    .collect();
                    return Err(format!("the facts lack {}", missing.join(", ")));
                }
            };
        let shaders = self.shaders.unwrap_or(0);
        let sms = self
            .compute_units
            .or_else(|| Some(shaders / self.cores_per_sm()?))
            .unwrap_or(0);
        let no_tensor_cores = self.name.contains("GTX 16");
        let unit = UnitFacts {
            vendor: self.vendor(),
            architecture,
            compute_capability: self.compute_capability.as_deref().unwrap_or(""),
            name: &self.name,
            shaders,
            sms,
            tensor_cores: if no_tensor_cores { 0 } else { sms },
            boost_mhz: f64::from(self.max_clock_mhz.unwrap_or(0)),
        };
        let mut notes = Vec::new();
        let dense_tflops = match matrix_rates(&unit, fp32) {
            Some(rates) => {
                if let Some(rule) = rule_for(&unit) {
                    notes.push(format!("matrix rates from units × clock ({})", rule.source));
                }
                rates.rounded()
            }
            None => DenseTflops {
                fp32,
                fp16: Some(fp32),
                fp16_acc16: None,
                bf16: None,
                fp8: None,
                int8: None,
            }
            .rounded(),
        };
        let slug = crate::text::slug(&self.name);
        let what = match self.hardware_type {
            HardwareType::Rocm => "KFD",
            _ => "NVML",
        };
        Ok(Device {
            id: format!("detected-{slug}"),
            name: self.name.clone(),
            vendor: self.vendor().to_ascii_lowercase(),
            hardware_type: self.hardware_type,
            class: String::from("detected_gpu"),
            memory_gb: self.memory_gib(),
            memory_bandwidth_gbs,
            tdp_w: self.power_limit_w,
            dense_tflops,
            aliases: Vec::new(),
            source: format!("built from the detected facts ({what}: {})", self.stated().join(", ")),
            source_url: String::new(),
            notes: (!notes.is_empty()).then(|| notes.join("; ")),
            profile: DeviceProfile::Catalog,
            architecture: Some(architecture.to_string()),
            gpu_cores: None,
            cpu_cores: None,
            memory_options_gb: Vec::new(),
            released: None,
            measured_as: Vec::new(),
            browser_engine: None,
            page_threads: None,
        })
    }
}

/// How a detected GPU maps to the catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct Identified<'a> {
    /// The catalog device it is, when its name (checked by its facts) or its facts decide.
    pub device: Option<&'a Device>,
    /// How it was decided.
    pub resolved_from: Option<ResolvedFrom>,
}

impl Identified<'_> {
    /// How predictions treat the GPU: the catalog device, else the device its facts build, else
    /// unprofiled (the microbenchmark measures it).
    #[must_use]
    pub fn profile(&self, facts: &GpuFacts) -> super::Profile {
        match (self.device, facts.device()) {
            (Some(_), _) => super::Profile::Catalog,
            (None, Ok(_)) => super::Profile::Facts,
            (None, Err(_)) => super::Profile::Unprofiled,
        }
    }
}

/// The catalog device a detected GPU is: the one its name resolves to when the facts agree; where
/// the name is ambiguous (or its match contradicts the facts), the one candidate the facts agree
/// with (variants of one product that compute alike: the closest memory). `None` where the facts
/// leave no single device — then [`GpuFacts::device`] builds it.
#[must_use]
pub fn identify<'a>(catalog: &'a DeviceCatalog, facts: &GpuFacts) -> Identified<'a> {
    use crate::device::Resolution;
    let (resolution, read) = catalog.resolution_read(&facts.name);
    let named = match &resolution {
        Resolution::Unique(d) => Some(*d),
        Resolution::MemoryVariants(v) => v.first().copied(),
        Resolution::Ambiguous(_) | Resolution::Unknown => None,
    };
    if let Some(d) = named.filter(|d| facts.contradiction(d).is_none() && usable(d, facts)) {
        let resolved_from = read.map(|r| ResolvedFrom {
            facts: facts.stated(),
            ..r
        });
        return Identified {
            device: Some(d),
            resolved_from,
        };
    }
    let mut candidates: Vec<&Device> = match resolution {
        Resolution::Ambiguous(v) | Resolution::MemoryVariants(v) => v,
        Resolution::Unique(_) => catalog.holding_tokens(&facts.name, 24),
        Resolution::Unknown => Vec::new(),
    };
    candidates.retain(|d| usable(d, facts));
    let (agree, ruled_out): (Vec<&Device>, Vec<&Device>) =
        candidates.into_iter().partition(|d| facts.contradiction(d).is_none());
    let same_rates = |a: &Device, b: &Device| {
        let near = |x: f64, y: f64| (x / y - 1.0).abs() <= 0.01;
        near(a.memory_bandwidth_gbs, b.memory_bandwidth_gbs) && near(a.dense_tflops.fp32, b.dense_tflops.fp32)
    };
    let chosen = match agree.as_slice() {
        [first, rest @ ..] if rest.iter().all(|d| same_rates(first, d)) => agree
            .iter()
            .min_by(|a, b| {
                let gap = |d: &Device| (d.memory_gb - facts.memory_gib()).abs();
                gap(a).total_cmp(&gap(b))
            })
            .copied(),
        _ => None,
    };
    let Some(device) = chosen else {
        return Identified {
            device: None,
            resolved_from: None,
        };
    };
    let read = crate::device::read_name(&facts.name);
    Identified {
        device: Some(device),
        resolved_from: Some(ResolvedFrom {
            name: facts.name.clone(),
            rule: String::from(FACTS_RULE),
            tokens: read.tokens,
            memory_gb: read.memory_gb,
            gpu_cores: read.gpu_cores,
            vendor: read.vendor.map(String::from),
            alternatives: ruled_out
                .iter()
                .chain(agree.iter())
                .filter(|d| d.id != device.id)
                .map(|d| d.name.clone())
                .collect(),
            facts: facts.stated(),
        }),
    }
}

/// Whether a probe may be this catalog device: of its back-end, a concrete device (never a class).
fn usable(d: &Device, facts: &GpuFacts) -> bool {
    d.hardware_type == facts.hardware_type && !d.class.ends_with("class") && !d.name.ends_with("(class)")
}

/// Every test here identifies against the bundled device database.
#[cfg(all(test, feature = "device-db"))]
mod tests {
    use super::*;

    fn h200() -> (DetectionReport, GpuFacts) {
        let text = include_str!("../../../hwfit-cli/tests/fixtures/detection_h200.json");
        let report: DetectionReport = serde_json::from_str(text).unwrap();
        let facts = GpuFacts::of_report(&report, "cuda:0").unwrap();
        (report, facts)
    }

    /// The H200's own NVML facts (first-hand, 2026-11-26): `NVIDIA H200` at its 700 W default
    /// limit is the SXM module, and the facts agree with it (memory, power, 4.8 TB/s).
    #[test]
    fn the_h200s_facts_confirm_the_sxm_module() {
        let (_, facts) = h200();
        let catalog = DeviceCatalog::bundled().unwrap();
        let found = identify(&catalog, &facts);
        assert_eq!(found.device.map(|d| d.id.as_str()), Some("nvidia-h200-sxm"));
        let read = found.resolved_from.unwrap();
        assert!(read.facts.iter().any(|f| f == "power limit 700 W"), "{:?}", read.facts);
        let bandwidth = facts.bandwidth_gbs().unwrap();
        assert!((bandwidth / 4800.0 - 1.0).abs() < 0.01, "{bandwidth}");
    }

    /// The same facts at the NVL's 600 W default limit contradict the SXM module the name alone
    /// resolves to; the facts then pick the H200 NVL among the devices named H200.
    #[test]
    fn a_power_limit_that_contradicts_the_name_is_decided_by_the_facts() {
        let (_, mut facts) = h200();
        facts.power_limit_w = Some(600.0);
        let catalog = DeviceCatalog::bundled().unwrap();
        let found = identify(&catalog, &facts);
        let device = found.device.expect("decided");
        assert!(device.name.contains("NVL"), "{}", device.name);
        let read = found.resolved_from.unwrap();
        assert_eq!(read.rule, FACTS_RULE);
        assert!(
            read.alternatives.iter().any(|a| a.contains("SXM")),
            "{:?}",
            read.alternatives
        );
    }

    /// A name no catalog device has is built from the facts and says so.
    #[test]
    fn an_unknown_name_is_built_from_its_facts() {
        let (report, _) = h200();
        let mut facts = GpuFacts::nvidia(&report.cuda.devices[0]);
        facts.name = String::from("NVIDIA Future Accelerator X");
        facts.shaders = Some(132 * 128);
        let catalog = DeviceCatalog::bundled().unwrap();
        assert_eq!(identify(&catalog, &facts).device, None);
        let built = facts.device().unwrap();
        assert!(
            built.source.starts_with("built from the detected facts (NVML"),
            "{}",
            built.source
        );
        assert_eq!(built.architecture.as_deref(), Some("Hopper"));
        let h200 = catalog.by_id("nvidia-h200-sxm").unwrap();
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 0.05;
        assert!(close(built.memory_bandwidth_gbs, h200.memory_bandwidth_gbs));
        assert!(
            close(built.dense_tflops.fp32, h200.dense_tflops.fp32),
            "{:?}",
            built.dense_tflops
        );
        assert!(close(built.dense_tflops.bf16.unwrap(), h200.dense_tflops.bf16.unwrap()));
        assert!(close(built.dense_tflops.fp8.unwrap(), h200.dense_tflops.fp8.unwrap()));
        // Without the core count, nothing is built, and the reason says what is missing.
        facts.shaders = None;
        assert!(facts.device().unwrap_err().contains("shader"));
    }

    /// CUDA's `deviceQuery` output as posted publicly (`tests/data/gpu_facts/*.devicequery.txt`,
    /// each with its source): the facts NVML gives, read from the lines deviceQuery prints.
    fn device_query(text: &str) -> GpuFacts {
        let after = |key: &str| {
            text.lines()
                .find_map(|l| l.split_once(key).map(|(_, rest)| rest.trim().to_string()))
                .unwrap_or_default()
        };
        let first_number = |s: &str| -> Option<u32> {
            s.split(|c: char| !c.is_ascii_digit())
                .find(|p| !p.is_empty())?
                .parse()
                .ok()
        };
        let name = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Device 0:")
                    .or_else(|| l.trim().strip_prefix("Device 2:"))
            })
            .unwrap()
            .trim()
            .trim_matches(|c| c == '"' || c == '“' || c == '”')
            .to_string();
        GpuFacts {
            name,
            hardware_type: HardwareType::Cuda,
            memory_mb: u64::from(first_number(&after("global memory:")).unwrap()),
            compute_capability: Some(after("version number:")),
            gfx_target: None,
            shaders: first_number(&after("CUDA Cores/MP:")),
            compute_units: None,
            max_clock_mhz: first_number(&after("GPU Max Clock rate:")),
            max_memory_clock_mhz: first_number(&after("Memory Clock rate:")),
            memory_bus_width_bits: first_number(&after("Memory Bus Width:")),
            power_limit_w: None,
        }
    }

    /// Eighteen GPUs' real deviceQuery facts, Volta to Blackwell: each (name checked by its facts)
    /// is the catalog device it is, and the device built from the facts alone computes and reads
    /// memory within 5 % of that device's published figures (FP32, dense FP16/BF16 tensor rates,
    /// bandwidth) — the derivation a GPU the catalog cannot name gets.
    #[test]
    fn device_query_facts_identify_and_rebuild_real_gpus() {
        macro_rules! fixture {
            ($file:literal, $id:literal) => {
                (
                    $file,
                    $id,
                    include_str!(concat!(
                        "../../../../tests/data/gpu_facts/",
                        $file,
                        ".devicequery.txt"
                    )),
                )
            };
        }
        let fixtures = [
            fixture!("a10", "nvidia-a10"),
            fixture!("a100-sxm4-40gb", "nvidia-a100-sxm-40gb"),
            fixture!("a100-sxm4-80gb", "nvidia-a100-sxm-80gb"),
            fixture!("a40", "nvidia-a40"),
            fixture!("h100-nvl", "nvidia-h100-nvl"),
            fixture!("h100-sxm5-80gb", "nvidia-h100-sxm"),
            fixture!("h200", "nvidia-h200-sxm"),
            fixture!("l4", "nvidia-l4"),
            fixture!("l40s", "nvidia-l40s"),
            fixture!("rtx3080", "nvidia-rtx-3080"),
            fixture!("rtx3090", "nvidia-rtx-3090"),
            fixture!("rtx4060ti", "nvidia-geforce-rtx-4060-ti"),
            fixture!("rtx4090", "nvidia-rtx-4090"),
            fixture!("rtx5090", "nvidia-rtx-5090"),
            fixture!("rtx6000ada", "nvidia-rtx-6000-ada"),
            fixture!("rtxa6000", "nvidia-rtx-a6000"),
            fixture!("t4", "nvidia-t4"),
            fixture!("v100-sxm2-16gb", "nvidia-tesla-v100-sxm2-16-gb"),
        ];
        let catalog = DeviceCatalog::bundled().unwrap();
        let mut report = Vec::new();
        for (file, _, text) in &fixtures {
            let facts = device_query(text);
            let found = identify(&catalog, &facts).device.map(|d| d.id.clone());
            let built = facts.device().unwrap();
            report.push((file, found, built, facts));
        }
        let mut wrong = Vec::new();
        for ((file, found, built, facts), (_, want, _)) in report.iter().zip(&fixtures) {
            let Some(id) = found else {
                wrong.push(format!("{file}: '{}' not identified", facts.name));
                continue;
            };
            let spec = catalog.by_id(id).unwrap();
            if !id.starts_with(want) {
                wrong.push(format!("{file}: '{}' → {id}, want {want}", facts.name));
            }
            let off = |have: f64, want: f64| (have / want - 1.0).abs();
            let rates = [
                ("fp32", built.dense_tflops.fp32, spec.dense_tflops.fp32),
                ("bandwidth", built.memory_bandwidth_gbs, spec.memory_bandwidth_gbs),
                (
                    "fp16",
                    built.dense_tflops.fp16.unwrap_or(0.0),
                    spec.dense_tflops.fp16.unwrap_or(0.0),
                ),
            ];
            for (what, have, want) in rates {
                if off(have, want) > 0.05 {
                    wrong.push(format!("{file}: built {what} {have:.1} vs {id}'s {want:.1}"));
                }
            }
            if let (Some(have), Some(want)) = (built.dense_tflops.bf16, spec.dense_tflops.bf16) {
                if off(have, want) > 0.05 {
                    wrong.push(format!("{file}: built bf16 {have:.1} vs {id}'s {want:.1}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
