//! Reading measurement files into [`BenchmarkRecord`]s: the public measurements in `data/measured/`
//! (llama.cpp and MLPerf tables, WebGPU/WASM comparisons, web-llm's VRAM table), IPFS Accelerate's
//! `aggregated_benchmarks.json`, and hwfit's own export (JSON or CSV). A row that cannot be read is
//! rejected with its line (or, in JSON, its path) and the reason; the others are kept.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};

use hwfit_core::{Catalog, DeviceCatalog, HardwareType, Precision};
use serde_json::Value;

use crate::schema::{COLUMNS, FIRST_COLUMNS};
use crate::{BenchmarkRecord, DbError};

/// A row left out, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Rejected {
    /// Where: `line N` in a CSV file, the JSON path in a JSON file.
    pub at: String,
    /// Why.
    pub reason: String,
}

/// What a file holds.
#[derive(Debug, Clone, Default)]
pub struct FileRecords {
    /// The format recognised.
    pub format: &'static str,
    /// The records read.
    pub records: Vec<BenchmarkRecord>,
    /// The rows left out.
    pub rejected: Vec<Rejected>,
}

/// Reads a measurement file (the format is recognised from its content).
pub fn read_file(path: &Path) -> Result<FileRecords, DbError> {
    let text = std::fs::read_to_string(path).map_err(|source| DbError::Io {
        path: path.display().to_string(),
        source,
    })?;
    read_text(&path.display().to_string(), &text)
}

/// Reads measurement text; `name` names it in errors and sources.
pub fn read_text(name: &str, text: &str) -> Result<FileRecords, DbError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') && serde_json::from_str::<Value>(text).is_err() {
        return read_json_lines(name, text);
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format_error(name, format!("not valid JSON: {e}")))?;
        return read_json(name, &value);
    }
    read_csv(name, text)
}

fn format_error(path: &str, message: String) -> DbError {
    DbError::Format {
        path: path.into(),
        message,
    }
}

/// The device and model catalogs, read once.
fn catalogs() -> &'static (DeviceCatalog, Catalog) {
    static CATALOGS: OnceLock<(DeviceCatalog, Catalog)> = OnceLock::new();
    CATALOGS.get_or_init(|| {
        let devices = DeviceCatalog::bundled().unwrap_or_else(|_| DeviceCatalog::builtin());
        (devices, Catalog::builtin())
    })
}

/// Fills `device` and `hardware_type` from the device catalog when the name resolves, and the
/// model's family and parameters when hwfit knows the model.
#[must_use]
pub fn enrich(mut r: BenchmarkRecord) -> BenchmarkRecord {
    static DEVICES: Memo<ResolvedDevice> = Memo::new();
    static MODELS: Memo<ResolvedModel> = Memo::new();
    // Aliases (`nvidia`, `metal`) stored as hwfit names them; an unknown one is left for
    // `validate` to refuse.
    if let Some(h) = r
        .hardware_type
        .as_deref()
        .and_then(|h| h.trim().parse::<hwfit_core::HardwareType>().ok())
    {
        r.hardware_type = Some(h.as_str().to_owned());
    }
    let device = DEVICES.get(&r.device_name, |name| {
        let (devices, _) = catalogs();
        devices.resolve_measured(name).ok().map(|d| ResolvedDevice {
            id: d.id.clone(),
            hardware_type: d.hardware_type.as_str(),
            class_reference: d.name.ends_with("(class)"),
        })
    });
    if let Some(d) = device {
        r.device = d.id;
        if r.hardware_type.is_none() || !d.class_reference {
            r.hardware_type = r.hardware_type.or_else(|| Some(d.hardware_type.to_owned()));
        }
    }
    let model = MODELS.get(&r.model_name, |name| {
        let (_, models) = catalogs();
        models.resolve(name).ok().map(|m| ResolvedModel {
            family: m.spec.family.as_str(),
            parameters_m: m.spec.parameters() as f64 / 1e6,
        })
    });
    if let Some(m) = model {
        r.model_family = r.model_family.or_else(|| Some(m.family.to_owned()));
        r.model_parameters_m = r.model_parameters_m.or(Some(m.parameters_m));
    }
    r
}

/// What a measured device name resolved to.
#[derive(Clone)]
struct ResolvedDevice {
    id: String,
    hardware_type: &'static str,
    class_reference: bool,
}

/// What a model name resolved to.
#[derive(Clone)]
struct ResolvedModel {
    family: &'static str,
    parameters_m: f64,
}

/// Names already resolved: the rows of a file name the same few devices and models, and an unknown
/// name costs a search for the closest ones each time. At most [`Memo::CAPACITY`] names are kept
/// (then it starts over), so a file of distinct names cannot grow it without bound.
struct Memo<T>(Mutex<Option<HashMap<String, Option<T>>>>);

impl<T: Clone> Memo<T> {
    const CAPACITY: usize = 4096;

    const fn new() -> Self {
        Self(Mutex::new(None))
    }

    fn get(&self, name: &str, resolve: impl FnOnce(&str) -> Option<T>) -> Option<T> {
        let mut memo = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let memo = memo.get_or_insert_with(HashMap::new);
        if let Some(hit) = memo.get(name) {
            return hit.clone();
        }
        if memo.len() >= Self::CAPACITY {
            memo.clear();
        }
        let found = resolve(name);
        memo.insert(name.to_owned(), found.clone());
        found
    }
}

/// A precision as hwfit spells it (`GGUF Q4_K_M` → `q4_k_m`), or the source's spelling lowercased.
fn precision(text: &str) -> Option<String> {
    let t = text.trim().trim_start_matches("GGUF ").trim();
    if t.is_empty()
        || t.eq_ignore_ascii_case("not stated")
        || t.eq_ignore_ascii_case("unstated")
        || t.eq_ignore_ascii_case("n/a")
    {
        return None;
    }
    Some(
        t.parse::<Precision>()
            .map_or_else(|_| t.to_lowercase(), |p| p.as_str().to_owned()),
    )
}

/// `8B` → 8000, `1.5B` → 1500, `350M` → 350 (millions).
fn parameters_m(text: &str) -> Option<f64> {
    let t = text.trim();
    let (number, scale) = match t.chars().last()? {
        'B' | 'b' => (&t[..t.len() - 1], 1e3),
        'M' | 'm' => (&t[..t.len() - 1], 1.0),
        _ => (t, 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|n| n * scale)
        .filter(|n| *n > 0.0)
}

fn positive(text: &str) -> Option<f64> {
    text.trim()
        .replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// `source — reference`, or whichever is given.
fn source(a: &str, b: &str) -> String {
    match (a.trim(), b.trim()) {
        ("", b) => b.into(),
        (a, "") => a.into(),
        (a, b) => format!("{a} — {b}"),
    }
}

/// One CSV file: its columns by name.
struct Columns {
    names: Vec<String>,
}

impl Columns {
    fn has(&self, wanted: &[&str]) -> bool {
        wanted.iter().all(|w| self.names.iter().any(|n| n == w))
    }
}

/// A CSV row with its columns by name.
struct CsvRow<'a> {
    columns: &'a Columns,
    row: &'a csv::StringRecord,
}

impl CsvRow<'_> {
    fn get(&self, name: &str) -> &str {
        self.columns
            .names
            .iter()
            .position(|n| n == name)
            .and_then(|i| self.row.get(i))
            .unwrap_or("")
    }

    fn number(&self, name: &str) -> Result<f64, String> {
        positive(self.get(name)).ok_or_else(|| format!("{name} '{}' is not a positive number", self.get(name)))
    }

    /// The cell of an optional column, or `None` when it is empty or says "not given".
    fn given(&self, name: &str) -> Option<&str> {
        let text = self.get(name).trim();
        let absent = ["", "-", "n/a", "na", "none", "not stated", "unknown"];
        (!absent.iter().any(|a| text.eq_ignore_ascii_case(a))).then_some(text)
    }

    /// An optional positive number: absent, or a finite number > 0 — anything else rejects the row.
    fn optional_number(&self, name: &str) -> Result<Option<f64>, String> {
        self.given(name).map(|_| self.number(name)).transpose()
    }

    /// An optional count: absent, or a whole number ≥ 1 — anything else rejects the row.
    fn optional_count(&self, name: &str) -> Result<Option<u32>, String> {
        self.given(name)
            .map(|text| {
                text.parse::<u32>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| format!("{name} '{text}' is not a count"))
            })
            .transpose()
    }
}

type RowReader = fn(&CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String>;

/// The line of the file a record starts on, counted by `\n` (the csv crate's count drifts on CRLF
/// files), so a reject names the line an editor shows.
fn physical_line(text: &str, position: &csv::Position) -> u64 {
    let start = usize::try_from(position.byte()).unwrap_or(usize::MAX).min(text.len());
    // On CRLF files the csv crate puts a record's start on the `\n` of the line end before it:
    // the record's first line is after the line ends at `start`.
    let before = text.get(..start).unwrap_or(text);
    let at_line_end = text.as_bytes().get(start..).map_or(0, |rest| {
        rest.iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .filter(|b| **b == b'\n')
            .count()
    });
    1 + (before.matches('\n').count() + at_line_end) as u64
}

fn read_csv(name: &str, text: &str) -> Result<FileRecords, DbError> {
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(text.as_bytes());
    let names: Vec<String> = reader
        .headers()
        .map_err(|e| format_error(name, format!("no CSV header: {e}")))?
        .iter()
        .map(str::to_owned)
        .collect();
    let columns = Columns { names };
    let (format, read): (&'static str, RowReader) = if columns.has(&[
        "metric",
        "value",
        "framework",
        "hardware",
        "n_devices",
    ]) {
        ("llama.cpp/LLM throughput table", llm_row)
    } else if columns.has(&["benchmark", "accelerator", "accelerators_per_node", "value"]) {
        ("MLPerf Inference results", mlperf_row)
    } else if columns.has(&["webgpu_value", "wasm_value", "units"]) {
        ("WebGPU/WASM comparisons", browser_row)
    } else if columns.has(&["quote", "runtime", "workload", "hardware", "metric", "value", "units"]) {
        ("sourced step measurements", step_row)
    } else if columns.has(&["model_id", "vram_required_MB"]) {
        ("web-llm VRAM table", webllm_row)
    } else if columns.has(FIRST_COLUMNS) {
        ("hwfit export (CSV)", export_row)
    } else {
        return Err(format_error(
            name,
            format!(
                "not a measurement table hwfit imports (header: {}); it reads llama.cpp/LLM throughput tables, MLPerf results, hwfit's sourced step tables, WebGPU/WASM comparisons, web-llm's VRAM table, hwfit's export and IPFS Accelerate's aggregated_benchmarks.json",
                columns.names.join(",")
            ),
        ));
    };
    let mut out = FileRecords {
        format,
        ..FileRecords::default()
    };
    for row in reader.records() {
        match row {
            Ok(row) => {
                let at = format!("line {}", row.position().map_or(0, |p| physical_line(text, p)));
                match read(&CsvRow {
                    columns: &columns,
                    row: &row,
                }) {
                    Ok(records) => {
                        for r in records {
                            let r = enrich(r);
                            match r.validate() {
                                Ok(()) => out.records.push(r),
                                Err(e) => out.rejected.push(Rejected {
                                    at: at.clone(),
                                    reason: e.to_string(),
                                }),
                            }
                        }
                    }
                    Err(reason) => out.rejected.push(Rejected { at, reason }),
                }
            }
            Err(e) => out.rejected.push(Rejected {
                at: e
                    .position()
                    .map_or_else(|| String::from("?"), |p| format!("line {}", physical_line(text, p))),
                reason: format!("not a valid CSV row: {e}"),
            }),
        }
    }
    Ok(out)
}

fn llm_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let metric = r.get("metric");
    let mut rec = BenchmarkRecord::new(
        r.get("model"),
        r.get("hardware"),
        if r.get("framework").is_empty() {
            "llama.cpp"
        } else {
            r.get("framework")
        },
        &source(r.get("source"), r.get("source_ref")),
    );
    rec.model_parameters_m = r
        .given("params")
        .map(|p| parameters_m(p).ok_or_else(|| format!("params '{p}' is not a parameter count (8B, 350M)")))
        .transpose()?;
    rec.precision = precision(r.get("precision"));
    rec.device_count = r
        .get("n_devices")
        .trim()
        .parse()
        .map_err(|_| format!("n_devices '{}' is not a count", r.get("n_devices")))?;
    rec.batch_size = r.optional_count("batch_size")?;
    let (workload, tokens) = if let Some(n) = metric.strip_prefix("tg") {
        ("decode", n)
    } else if let Some(n) = metric.strip_prefix("pp") {
        ("prefill", n)
    } else {
        ("", "")
    };
    if !workload.is_empty() {
        rec.workload = Some(workload.into());
        rec.sequence_length = tokens.parse().ok();
    }
    rec.throughput = Some(r.number("value")?);
    rec.throughput_unit = Some(if r.get("units").contains("t/s") || r.get("units").contains("tok") {
        String::from("tokens/s")
    } else {
        r.get("units").to_owned()
    });
    rec.hardware_type = match r.get("hardware_kind").to_lowercase().as_str() {
        "cpu" => Some(String::from("cpu")),
        "apple" | "apple silicon" => Some(String::from("mps")),
        _ => None,
    };
    rec.notes = Some(
        format!("metric {metric}; {}", r.get("notes"))
            .trim_end_matches("; ")
            .to_owned(),
    );
    Ok(vec![rec])
}

fn mlperf_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let reference = format!("{} @ {} {}", r.get("repo"), r.get("commit"), r.get("path"));
    let mut rec = BenchmarkRecord::new(
        r.get("benchmark"),
        r.get("accelerator"),
        r.get("framework"),
        &source(r.get("source"), reference.trim()),
    );
    if r.get("accelerator") == "N/A" {
        return Err(String::from("accelerator not stated"));
    }
    rec.device_count = r.get("accelerators_per_node").trim().parse().map_err(|_| {
        format!(
            "accelerators_per_node '{}' is not a count",
            r.get("accelerators_per_node")
        )
    })?;
    rec.precision = precision(r.get("weight_data_types"));
    rec.workload = matches!(r.get("benchmark"), "resnet50" | "bert-99" | "retinanet").then(|| String::from("forward"));
    rec.throughput = Some(r.number("value")?);
    rec.throughput_unit = Some(r.get("units").to_owned());
    rec.notes = Some(format!(
        "{} ({}, {}); system {}",
        r.get("metric"),
        r.get("submitter"),
        r.get("result_validity"),
        r.get("system")
    ));
    Ok(vec![rec])
}

fn browser_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let units = r.get("units").to_lowercase();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (hardware, column) in [("webgpu", "webgpu_value"), ("wasm", "wasm_value")] {
        let Some(value) = positive(r.get(column)) else {
            problems.push(format!("{column} '{}' is not a positive number", r.get(column)));
            continue;
        };
        let device = format!("{} ({})", r.get("hardware"), r.get("browser")).replace(" ()", "");
        let mut rec = BenchmarkRecord::new(
            r.get("model"),
            &device,
            r.get("runtime"),
            &source(r.get("source"), r.get("source_ref")),
        );
        rec.hardware_type = Some(hardware.into());
        rec.model_parameters_m = r.optional_number("params_millions")?;
        rec.precision = precision(r.get("precision"));
        rec.batch_size = r.optional_count("batch_size")?;
        rec.sequence_length = r.optional_count("seq_length")?;
        if units.starts_with("ms") || units.contains(" ms") {
            rec.latency_mean_ms = Some(value);
        } else if units.starts_with('s') && !units.contains('/') {
            rec.latency_mean_ms = Some(value * 1e3);
        } else {
            rec.throughput = Some(value);
            rec.throughput_unit = Some(r.get("units").to_owned());
        }
        rec.notes = Some(
            [r.get("metric"), r.get("units"), r.get("notes")]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("; "),
        );
        out.push(rec);
    }
    if out.is_empty() {
        return Err(problems.join("; "));
    }
    Ok(out)
}

/// hwfit's sourced step tables (`data/measured/runtime_steps.csv`, `moe_steps.csv`): one measured
/// figure per row — a latency in ms or a throughput — with the source's verbatim quote.
fn step_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let mut rec = BenchmarkRecord::new(
        r.get("model"),
        r.get("hardware"),
        r.get("runtime"),
        &source(r.get("source"), r.get("source_ref")),
    );
    rec.runtime_version = r.given("runtime_version").map(str::to_owned);
    rec.precision = precision(r.get("precision"));
    rec.workload = Some(match r.get("workload") {
        "train_step" | "train-step" | "training" => String::from("train-step"),
        w @ ("forward" | "prefill" | "decode") => w.to_owned(),
        other => {
            return Err(format!(
                "workload '{other}' is not forward, prefill, decode or train_step"
            ))
        }
    });
    rec.batch_size = r.optional_count("batch_size")?;
    rec.sequence_length = r.optional_count("seq_length")?;
    let value = r.number("value")?;
    match (r.get("metric"), r.get("units")) {
        ("latency_ms", "ms") => rec.latency_mean_ms = Some(value),
        (_, units) if units.ends_with("/s") => {
            rec.throughput = Some(value);
            rec.throughput_unit = Some(units.to_owned());
        }
        (metric, units) => {
            return Err(format!(
                "metric '{metric}' in '{units}' is neither a latency in ms nor a rate"
            ))
        }
    }
    let quote = r.get("quote");
    rec.notes = Some(match r.given("notes") {
        Some(notes) => format!("\"{quote}\" — {notes}"),
        None => format!("\"{quote}\""),
    });
    Ok(vec![rec])
}

fn webllm_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let mut rec = BenchmarkRecord::new(
        r.get("model_id"),
        "any WebGPU device",
        "web-llm",
        &source(r.get("source"), r.get("source_ref")),
    );
    rec.hardware_type = Some(String::from("webgpu"));
    rec.precision = Some(r.get("mlc_quantization").to_owned()).filter(|p| !p.is_empty());
    rec.sequence_length = r.optional_count("context_window_size")?;
    rec.memory_mb = Some(r.number("vram_required_MB")?);
    rec.notes = Some(String::from(
        "VRAM the runtime requires (web-llm's prebuilt model list)",
    ));
    Ok(vec![rec])
}

fn export_row(r: &CsvRow<'_>) -> Result<Vec<BenchmarkRecord>, String> {
    let mut object = serde_json::Map::new();
    for &column in COLUMNS {
        let text = r.get(column);
        if text.is_empty() {
            continue;
        }
        let value = match column {
            "model_architecture" | "device_profile" | "host" => {
                serde_json::from_str(text).map_err(|e| format!("{column}: {e}"))?
            }
            // serde_json writes NaN and infinities as null: refuse them here, or they vanish.
            "model_parameters_m" | "throughput" | "latency_mean_ms" | "latency_p50_ms" | "latency_p90_ms"
            | "memory_mb" | "memory_device_mb" => Value::from(
                text.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("{column} '{text}' is not a finite number"))?,
            ),
            "device_count" | "batch_size" | "sequence_length" | "warmup_runs" | "timed_runs" => Value::from(
                text.parse::<u32>()
                    .map_err(|_| format!("{column} '{text}' is not a count"))?,
            ),
            _ => Value::from(text),
        };
        object.insert(column.into(), value);
    }
    serde_json::from_value(Value::Object(object))
        .map(|r| vec![r])
        .map_err(|e| e.to_string())
}

/// JSON lines: llama-bench's `-o jsonl` (one test per line).
fn read_json_lines(name: &str, text: &str) -> Result<FileRecords, DbError> {
    let mut tests = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let value: Value = serde_json::from_str(line)
            .map_err(|e| format_error(name, format!("line {}: not valid JSON: {e}", i + 1)))?;
        if !crate::llama_bench::is_test(&value) {
            return Err(format_error(
                name,
                format!("line {}: JSON lines that are not llama-bench tests", i + 1),
            ));
        }
        tests.push((format!("line {}", i + 1), value));
    }
    let mut out = FileRecords::default();
    crate::llama_bench::read_tests(
        tests.iter().map(|(at, v)| (at.clone(), v)),
        &format!("llama-bench output ({name})"),
        &mut out,
    );
    Ok(out)
}

fn read_json(name: &str, value: &Value) -> Result<FileRecords, DbError> {
    let mut out = FileRecords::default();
    match value {
        Value::Array(items) if crate::llama_bench::is_llama_bench(value) => {
            crate::llama_bench::read_tests(
                items.iter().enumerate().map(|(i, v)| (format!("[{i}]"), v)),
                &format!("llama-bench output ({name})"),
                &mut out,
            );
        }
        Value::Array(items) => {
            out.format = "hwfit export (JSON)";
            for (i, item) in items.iter().enumerate() {
                let at = format!("[{i}]");
                match serde_json::from_value::<BenchmarkRecord>(item.clone()) {
                    Ok(r) => match r.validate() {
                        Ok(()) => out.records.push(r),
                        Err(e) => out.rejected.push(Rejected { at, reason: e.to_string() }),
                    },
                    Err(e) => out.rejected.push(Rejected { at, reason: e.to_string() }),
                }
            }
        }
        Value::Object(modes) if modes.keys().any(|k| k == "inference" || k == "training") => {
            out.format = "IPFS Accelerate aggregated_benchmarks.json";
            read_aggregated(name, modes, &mut out);
        }
        _ => {
            return Err(format_error(
                name,
                String::from("JSON that is neither hwfit's export (an array of records), llama-bench's output nor IPFS Accelerate's aggregated_benchmarks.json ({inference, training})"),
            ))
        }
    }
    Ok(out)
}

/// IPFS Accelerate's `{mode: {family: {"family/model": {hardware: [metrics…]}}}}` (its hardware
/// selector's `processed_results/aggregated_benchmarks.json`): latency in ms, throughput in items/s,
/// memory in MB; a 0 is IPFS Accelerate's "not measured".
fn read_aggregated(name: &str, modes: &serde_json::Map<String, Value>, out: &mut FileRecords) {
    for (mode, families) in modes {
        let workload = match mode.as_str() {
            "inference" => "forward",
            "training" => "train-step",
            _ => continue,
        };
        let Some(families) = families.as_object() else { continue };
        for (family, entries) in families {
            let Some(entries) = entries.as_object() else { continue };
            for (model_key, hardware) in entries {
                let model_name = model_key.split_once('/').map_or(model_key.as_str(), |(_, m)| m);
                let Some(hardware) = hardware.as_object() else { continue };
                for (hw, runs) in hardware {
                    for (i, metrics) in runs.as_array().into_iter().flatten().enumerate() {
                        let at = format!("{mode}.{family}.{model_key}.{hw}[{i}]");
                        match aggregated_record(name, workload, family, model_name, hw, metrics) {
                            Ok(r) => out.records.push(r),
                            Err(reason) => out.rejected.push(Rejected { at, reason }),
                        }
                    }
                }
            }
        }
    }
}

fn aggregated_record(
    name: &str,
    workload: &str,
    family: &str,
    model: &str,
    hw: &str,
    m: &Value,
) -> Result<BenchmarkRecord, String> {
    let number = |key: &str| m.get(key).and_then(Value::as_f64).filter(|v| v.is_finite() && *v > 0.0);
    let count = |key: &str| m.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    if !m.is_object() {
        return Err(String::from("not a metrics object"));
    }
    let hardware = hw.parse::<HardwareType>().map_err(|e| e.to_string())?;
    let mut r = BenchmarkRecord::new(
        model,
        hw,
        "IPFS Accelerate benchmark runner",
        &format!("IPFS Accelerate aggregated_benchmarks.json ({name})"),
    );
    r.hardware_type = Some(hardware.as_str().to_owned());
    r.model_family = Some(family.to_owned());
    r.workload = Some(workload.to_owned());
    r.batch_size = count("batch_size");
    r.sequence_length = count("sequence_length");
    r.throughput = number("throughput");
    r.throughput_unit = r.throughput.map(|_| String::from("items/s"));
    if workload == "forward" {
        r.latency_mean_ms = number("latency");
    } else if let Some(t) = number("training_time") {
        r.notes = Some(format!("training_time {t} (IPFS Accelerate's unit, not stated)"));
    }
    r.memory_mb = number("memory_usage");
    r.precision = m.get("precision").and_then(Value::as_str).and_then(precision);
    r.measured_at = m.get("timestamp").and_then(Value::as_str).map(str::to_owned);
    let r = enrich(r);
    r.validate().map_err(|e| e.to_string())?;
    Ok(r)
}
