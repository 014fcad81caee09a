//! The measurement set the performance model is fitted to: public llama.cpp and MLPerf figures from
//! `data/measured/` (embedded), turned into samples by stated rules. Rows the model cannot represent
//! are excluded with the reason.
//!
//! Rules:
//! - `llm_tokens_per_second.csv`: single-device, batch-1 rows with a stated GGUF precision;
//!   `ppN` → prefill of N tokens; `tgN` → decode with N/2 cached tokens on average (N tokens generated
//!   from an empty prompt); tokens/s as measured.
//! - `mlperf_inference_v4_1_offline.csv`: ResNet-50 and BERT-large (SQuAD, 384 tokens) samples/s
//!   divided by the accelerators per node; the Offline scenario runs large batches (256 assumed).
//!   LLM rows are excluded: their throughput depends on the dataset's input/output lengths, which the
//!   rows do not give.

use anyhow::{Context, Result};
use hwfit_core::perf::fit::Sample;
use hwfit_core::{Catalog, DeviceCatalog, PerfRequest, Precision, Workload};
use serde::Serialize;

const LLM: &str = include_str!("../../../data/measured/llm_tokens_per_second.csv");
const MLPERF: &str = include_str!("../../../data/measured/mlperf_inference_v4_1_offline.csv");

/// Batch assumed for MLPerf Offline rows.
const OFFLINE_BATCH: u32 = 256;

/// A row left out, and why.
#[derive(Debug, Serialize)]
pub struct Excluded {
    /// Which row.
    pub row: String,
    /// Why.
    pub reason: String,
}

/// The samples and the rows left out.
pub struct Dataset {
    pub samples: Vec<Sample>,
    pub excluded: Vec<Excluded>,
}

fn records(csv_text: &str) -> Result<Vec<csv::StringRecord>> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let headers = reader.headers()?.clone();
    reader
        .records()
        .map(|r| {
            let r = r?;
            anyhow::ensure!(
                r.len() == headers.len(),
                "a row has {} fields, the header {}",
                r.len(),
                headers.len()
            );
            Ok(r)
        })
        .collect()
}

fn field<'a>(headers: &csv::StringRecord, row: &'a csv::StringRecord, name: &str) -> Result<&'a str> {
    let i = headers
        .iter()
        .position(|h| h == name)
        .with_context(|| format!("no column '{name}'"))?;
    Ok(row.get(i).unwrap_or_default())
}

struct Row<'a> {
    model: &'a str,
    device: &'a str,
    precision: Precision,
    workload: Workload,
    batch: u32,
    seq: u32,
    value: f64,
    label: String,
}

fn llm_row<'a>(h: &csv::StringRecord, r: &'a csv::StringRecord) -> Result<std::result::Result<Row<'a>, String>> {
    let (model, hardware, metric) = (field(h, r, "model")?, field(h, r, "hardware")?, field(h, r, "metric")?);
    let label = format!("{model} {} {metric} on {hardware}", field(h, r, "precision")?);
    if field(h, r, "n_devices")? != "1" || field(h, r, "batch_size")? != "1" {
        return Ok(Err(format!("{label}: not a single-device batch-1 row")));
    }
    let Some(precision) = field(h, r, "precision")?
        .strip_prefix("GGUF ")
        .and_then(|p| p.parse::<Precision>().ok())
    else {
        return Ok(Err(format!("{label}: precision not stated")));
    };
    let (workload, seq) = if let Some(n) = metric.strip_prefix("tg").and_then(|n| n.parse::<u32>().ok()) {
        (Workload::Decode, n / 2)
    } else if let Some(n) = metric.strip_prefix("pp").and_then(|n| n.parse::<u32>().ok()) {
        (Workload::Prefill, n)
    } else {
        return Ok(Err(format!("{label}: metric '{metric}' is not ppN or tgN")));
    };
    let value: f64 = field(h, r, "value")?
        .parse()
        .with_context(|| format!("{label}: value"))?;
    Ok(Ok(Row {
        model,
        device: hardware,
        precision,
        workload,
        batch: 1,
        seq,
        value,
        label,
    }))
}

fn mlperf_row<'a>(h: &csv::StringRecord, r: &'a csv::StringRecord) -> Result<std::result::Result<Row<'a>, String>> {
    let (benchmark, accelerator, units) = (
        field(h, r, "benchmark")?,
        field(h, r, "accelerator")?,
        field(h, r, "units")?,
    );
    let label = format!("MLPerf {benchmark} on {accelerator} ({units})");
    let (model, seq) = match benchmark {
        "resnet50" => ("resnet-50", 1),
        "bert-99" => ("bert-large-uncased", 384),
        _ => {
            return Ok(Err(format!(
                "{label}: LLM offline throughput depends on dataset input/output lengths"
            )))
        }
    };
    let per_node: f64 = field(h, r, "accelerators_per_node")?.parse().unwrap_or(0.0);
    if accelerator == "N/A" || per_node < 1.0 {
        return Ok(Err(format!("{label}: accelerator not stated")));
    }
    if units != "samples/s" {
        return Ok(Err(format!("{label}: not samples/s")));
    }
    let precision: Precision = field(h, r, "weight_data_types")?
        .parse()
        .map_err(|e| anyhow::anyhow!("{label}: {e}"))?;
    let value: f64 = field(h, r, "value")?
        .parse::<f64>()
        .with_context(|| format!("{label}: value"))?
        / per_node;
    Ok(Ok(Row {
        model,
        device: accelerator,
        precision,
        workload: Workload::Forward,
        batch: OFFLINE_BATCH,
        seq,
        value,
        label,
    }))
}

/// A row parser: a sample description, or the reason the row is left out.
type Parse = for<'a> fn(&csv::StringRecord, &'a csv::StringRecord) -> Result<std::result::Result<Row<'a>, String>>;

/// Loads the embedded measurement set.
pub fn load() -> Result<Dataset> {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let mut samples = Vec::new();
    let mut excluded = Vec::new();
    for (name, text, parse) in [
        ("llm_tokens_per_second.csv", LLM, llm_row as Parse),
        ("mlperf_inference_v4_1_offline.csv", MLPERF, mlperf_row as Parse),
    ] {
        let headers = csv::Reader::from_reader(text.as_bytes()).headers()?.clone();
        for (i, record) in records(text).with_context(|| name.to_string())?.iter().enumerate() {
            let where_ = format!("{name} row {}", i + 2);
            let row = match parse(&headers, record)? {
                Ok(row) => row,
                Err(reason) => {
                    excluded.push(Excluded { row: where_, reason });
                    continue;
                }
            };
            let resolved = catalog
                .lookup(row.model)
                .with_context(|| format!("{where_}: model '{}' not in the catalog", row.model))?;
            let device = match devices.resolve(row.device) {
                Ok(d) => d,
                Err(e) => {
                    excluded.push(Excluded {
                        row: where_,
                        reason: format!("{}: {e}", row.label),
                    });
                    continue;
                }
            };
            let req = PerfRequest {
                precision: row.precision,
                workload: row.workload,
                batch_size: row.batch,
                seq_length: row.seq,
            };
            samples
                .push(Sample::new(&resolved.spec, device, &req, row.value, row.label).with_context(|| where_.clone())?);
        }
    }
    Ok(Dataset { samples, excluded })
}

const WEBLLM: &str = include_str!("../../../data/measured/webllm_vram_requirements.csv");

/// One web-llm memory figure against hwfit's estimate.
#[derive(Debug, Serialize)]
pub struct MemorySample {
    /// The web-llm model id.
    pub model_id: String,
    /// The catalog model it maps to.
    pub model: String,
    /// hwfit's estimate without the runtime allowance, MB.
    pub estimate_without_overhead_mb: f64,
    /// web-llm's `vram_required_MB`.
    pub measured_mb: f64,
}

/// web-llm's VRAM figures for catalog models at precisions hwfit represents: `q4f16_1` (4-bit
/// weights in groups of 32 with an fp16 scale: 4.5 bits, as Q4_0), `q0f16` and `q0f32`.
pub fn webllm_memory() -> Result<(Vec<MemorySample>, Vec<Excluded>)> {
    let catalog = Catalog::builtin();
    let headers = csv::Reader::from_reader(WEBLLM.as_bytes()).headers()?.clone();
    let mut samples = Vec::new();
    let mut excluded = Vec::new();
    for (i, r) in records(WEBLLM)?.iter().enumerate() {
        let row = format!("webllm_vram_requirements.csv row {}", i + 2);
        let id = field(&headers, r, "model_id")?;
        let precision = match field(&headers, r, "mlc_quantization")? {
            "q4f16_1" => Precision::Q4_0,
            "q0f16" => Precision::Fp16,
            "q0f32" => Precision::Fp32,
            other => {
                excluded.push(Excluded {
                    row,
                    reason: format!("{id}: quantization {other} has no hwfit precision"),
                });
                continue;
            }
        };
        let Ok(context) = field(&headers, r, "context_window_size")?.parse::<u32>() else {
            excluded.push(Excluded {
                row,
                reason: format!("{id}: no context window"),
            });
            continue;
        };
        let base = id.split("-q").next().unwrap_or(id);
        let Some(model) = catalog
            .lookup(base)
            .or_else(|| catalog.lookup(&base.replace("-Instruct", "").replace("-instruct", "")))
        else {
            excluded.push(Excluded {
                row,
                reason: format!("{id}: '{base}' is not in the catalog"),
            });
            continue;
        };
        let req = hwfit_core::ResourceRequest {
            hardware: hwfit_core::HardwareType::Webgpu,
            precision,
            mode: hwfit_core::Mode::Inference,
            batch_size: 1,
            seq_length: context,
        };
        let estimate = match hwfit_core::estimate_resources(&model.spec, &req) {
            Ok(e) => e,
            Err(e) => {
                excluded.push(Excluded {
                    row,
                    reason: format!("{id}: {e}"),
                });
                continue;
            }
        };
        samples.push(MemorySample {
            model_id: id.to_string(),
            model: model.spec.name.clone(),
            estimate_without_overhead_mb: estimate.breakdown.total_mb() - estimate.breakdown.runtime_overhead_mb,
            measured_mb: field(&headers, r, "vram_required_MB")?.parse()?,
        });
    }
    Ok((samples, excluded))
}
