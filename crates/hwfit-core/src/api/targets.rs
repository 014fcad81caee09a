//! Which hardware a question is about: hardware types (each on its reference device), concrete
//! devices, or — when the request names neither — the devices the face found on this machine or in
//! this browser, and failing those every hardware type the device catalog has a reference for.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::question::Targets;
use crate::{Candidate, CoreError, DeviceCatalog, HardwareType};

/// Hardware types named in a request: a list (`["cuda", "cpu"]`), a comma-separated string
/// (`"cuda,cpu"`), one type (`"cuda"`), or `"all"` (every type with a reference device).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HardwareList {
    /// `all` was given.
    pub all: bool,
    /// The types named, in order.
    pub types: Vec<HardwareType>,
}

impl HardwareList {
    /// These types.
    #[must_use]
    pub fn of(types: &[HardwareType]) -> Self {
        Self {
            all: false,
            types: types.to_vec(),
        }
    }

    /// Every type with a reference device.
    #[must_use]
    pub fn all() -> Self {
        Self {
            all: true,
            types: Vec::new(),
        }
    }

    /// Whether nothing is named.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.all && self.types.is_empty()
    }

    /// Parses `"cuda,cpu"`, `"all"`; a list that names nothing is an error.
    pub fn parse(text: &str) -> Result<Self, CoreError> {
        let mut out = Self::default();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            out.push(item)?;
        }
        if out.is_empty() {
            return Err(CoreError::EmptyList { what: "hardware" });
        }
        Ok(out)
    }

    fn push(&mut self, item: &str) -> Result<(), CoreError> {
        if item.eq_ignore_ascii_case("all") {
            self.all = true;
        } else {
            self.types.push(item.parse()?);
        }
        Ok(())
    }
}

impl Serialize for HardwareList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.all {
            return s.serialize_str("all");
        }
        self.types.serialize(s)
    }
}

impl<'de> Deserialize<'de> for HardwareList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = HardwareList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a hardware type, a comma-separated list, \"all\", or an array of hardware types")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<HardwareList, E> {
                HardwareList::parse(v).map_err(E::custom)
            }
            fn visit_unit<E: de::Error>(self) -> Result<HardwareList, E> {
                Ok(HardwareList::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<HardwareList, A::Error> {
                let mut out = HardwareList::default();
                while let Some(item) = seq.next_element::<alloc::borrow::Cow<'de, str>>()? {
                    out.push(&item).map_err(de::Error::custom)?;
                }
                Ok(out)
            }
        }
        d.deserialize_any(ListVisitor)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for HardwareList {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "HardwareList".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let item = g.subschema_for::<HardwareType>();
        schemars::json_schema!({
            "description": "Hardware types: an array, a comma-separated string, one type, or \"all\" (every type with a reference device).",
            "anyOf": [
                { "type": "array", "items": item },
                { "type": "string" }
            ]
        })
    }
}

/// The candidates a request is about. Named types, devices, a device spec and a browser win; with
/// none named, `local` (what the face detected or probed); with no local devices either, every type
/// with a reference device. A browser's back-ends ([`crate::browser::browser_candidates`]) come
/// first and take their keys (`webgpu`, `wasm`, `webnn-cpu` …): a hardware type of the same name
/// is the browser's.
pub fn resolve_candidates(
    catalog: &DeviceCatalog,
    targets: Targets<'_>,
    local: &[Candidate],
) -> Result<Vec<Candidate>, CoreError> {
    let named = targets.names_any();
    if !named && !local.is_empty() {
        return Ok(local.to_vec());
    }
    let mut out = targets
        .browser
        .map(|caps| crate::browser::browser_candidates(caps, catalog))
        .unwrap_or_default();
    let types: Vec<HardwareType> = targets
        .hardware
        .types
        .iter()
        .copied()
        .filter(|hw| !out.iter().any(|c| c.key == hw.as_str()))
        .collect();
    out.extend(crate::candidates_from(catalog, &types, targets.devices)?);
    if let Some(spec) = targets.device_spec {
        out.push(Candidate::device(&spec.to_device()?));
    }
    if targets.hardware.all || !named {
        for hw in HardwareType::ALL {
            if out.iter().any(|c| c.key == hw.as_str()) {
                continue;
            }
            if let Ok(c) = Candidate::hardware(catalog, *hw) {
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// `candidates` with each CPU run on `threads` threads ([`crate::Device::on_threads`], at the fitted
/// per-core bandwidth); a thread count with no CPU among the candidates is refused.
pub(crate) fn on_threads(
    candidates: Vec<Candidate>,
    threads: Option<u32>,
    perf: &crate::perf::PerfModel,
) -> Result<Vec<Candidate>, CoreError> {
    let Some(threads) = threads else {
        return Ok(candidates);
    };
    if !candidates.iter().any(|c| c.device.hardware_type == HardwareType::Cpu) {
        return Err(CoreError::InvalidRequest(alloc::format!(
            "threads: {threads} threads describe a CPU run, and no target is a CPU"
        )));
    }
    let coefficients = perf.coefficients();
    let per_core = coefficients
        .cpu_core_bandwidth_gbs
        .ok_or(CoreError::MissingCoefficients)?;
    // The rate was fitted as a peak, to which the CPU cell's memory share applies; a measured
    // profile's bandwidth is already an achieved rate, so its cores' cap is the achieved one.
    let achieved = coefficients
        .efficiency(HardwareType::Cpu, crate::perf::WorkloadClass::Generate)
        .map_or(1.0, |(e, _)| e.memory);
    candidates
        .into_iter()
        .map(|mut c| {
            if c.device.hardware_type == HardwareType::Cpu {
                let cap = if c.device.profile == crate::device::DeviceProfile::Measured {
                    per_core * achieved
                } else {
                    per_core
                };
                c.device = c.device.on_threads(threads, cap)?;
            }
            Ok(c)
        })
        .collect()
}

/// A concrete device or hardware type in a request that names one (`compatible`, `distributed`).
pub(crate) fn one_candidate(
    catalog: &DeviceCatalog,
    hardware: Option<HardwareType>,
    device: Option<&str>,
) -> Result<Candidate, CoreError> {
    match (hardware, device) {
        (_, Some(name)) => Ok(Candidate::device(catalog.resolve(name)?)),
        (Some(hw), None) => Candidate::hardware(catalog, hw),
        (None, None) => Err(CoreError::MissingField {
            field: "hardware or device",
        }),
    }
}

/// The names of candidates, for answers.
pub(crate) fn keys(candidates: &[Candidate]) -> Vec<String> {
    candidates.iter().map(|c| c.key.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn lists_parse_from_strings_and_arrays() {
        let l: HardwareList = serde_json::from_str(r#""cuda, cpu""#).unwrap();
        assert_eq!(l.types, [HardwareType::Cuda, HardwareType::Cpu]);
        let l: HardwareList = serde_json::from_str(r#"["webgpu","wasm"]"#).unwrap();
        assert_eq!(l.types, [HardwareType::Webgpu, HardwareType::Wasm]);
        let l: HardwareList = serde_json::from_str(r#""all""#).unwrap();
        assert!(l.all && l.types.is_empty());
        let err = serde_json::from_str::<HardwareList>(r#"["tpu"]"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown hardware type 'tpu'"), "{err}");
        assert!(serde_json::from_str::<HardwareList>("3").is_err());
    }

    #[test]
    fn threads_divide_every_cpu_and_a_measured_one_at_its_achieved_rate() {
        let catalog = DeviceCatalog::builtin();
        let perf = crate::perf::PerfModel::builtin().unwrap();
        let per_core = perf.coefficients().cpu_core_bandwidth_gbs.unwrap();
        let (memory_share, _) = perf
            .coefficients()
            .efficiency(HardwareType::Cpu, crate::perf::WorkloadClass::Generate)
            .unwrap();
        let epyc = catalog.resolve("EPYC 9654").unwrap().clone();
        let mut measured = epyc.clone();
        measured.profile = crate::device::DeviceProfile::Measured;
        let gpu = catalog.resolve("rtx 4090").unwrap();
        let targets = on_threads(
            alloc::vec![
                Candidate::device(&epyc),
                Candidate::device(&measured),
                Candidate::device(gpu)
            ],
            Some(2),
            &perf,
        )
        .unwrap();
        assert!((targets[0].device.memory_bandwidth_gbs - 2.0 * per_core).abs() < 1e-9);
        assert!((targets[1].device.memory_bandwidth_gbs - 2.0 * per_core * memory_share.memory).abs() < 1e-9);
        assert_eq!(&targets[2].device, gpu);
        assert_eq!(on_threads(targets.clone(), None, &perf).unwrap(), targets);
    }

    fn named<'a>(hardware: &'a HardwareList, devices: &'a [String]) -> Targets<'a> {
        Targets {
            hardware,
            devices,
            device_spec: None,
            browser: None,
        }
    }

    #[test]
    fn named_hardware_wins_over_local_devices() {
        let catalog = DeviceCatalog::builtin();
        let local = [Candidate::device(catalog.resolve("rtx 4090").unwrap())];
        let (none, cpu, all) = (
            HardwareList::default(),
            HardwareList::of(&[HardwareType::Cpu]),
            HardwareList::all(),
        );
        let named_cpu = resolve_candidates(&catalog, named(&cpu, &[]), &local).unwrap();
        assert_eq!(keys(&named_cpu), ["cpu"]);
        let detected = resolve_candidates(&catalog, named(&none, &[]), &local).unwrap();
        assert_eq!(detected, local);
        let fallback = resolve_candidates(&catalog, named(&none, &[]), &[]).unwrap();
        assert!(
            fallback.len() >= 5,
            "every type with a reference device: {:?}",
            keys(&fallback)
        );
        let rtx = [String::from("rtx 4090")];
        let every = resolve_candidates(&catalog, named(&all, &rtx), &[]).unwrap();
        assert_eq!(every[0].key, "nvidia-rtx-4090");
        assert_eq!(every.iter().filter(|c| c.key == "cuda").count(), 1);
    }

    #[test]
    fn a_browser_brings_its_back_ends_and_keeps_their_keys() {
        let catalog = DeviceCatalog::builtin();
        let caps =
            crate::browser::BrowserCapabilities::describe("chrome, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16")
                .unwrap();
        let hardware = HardwareList::of(&[HardwareType::Webgpu, HardwareType::Cuda]);
        let targets = Targets {
            browser: Some(&caps),
            ..named(&hardware, &[])
        };
        let local = [Candidate::device(catalog.resolve("rtx 4090").unwrap())];
        let out = resolve_candidates(&catalog, targets, &local).unwrap();
        assert_eq!(
            keys(&out),
            ["webgpu", "wasm", "cuda"],
            "the browser's webgpu, not the class's"
        );
        assert!(
            out[0].device.name.starts_with("WebGPU on NVIDIA GeForce RTX 3080"),
            "{}",
            out[0].device.name
        );
        assert_eq!(
            out[1].device.id, "wasm-4t-simd",
            "isolated: ONNX Runtime Web's 4 threads"
        );
    }
}
