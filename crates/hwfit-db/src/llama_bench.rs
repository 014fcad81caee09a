//! llama.cpp's `llama-bench -o json` (an array of tests) and `-o jsonl` (one test per line) as
//! records: a prompt test (`n_prompt` tokens, `n_gen` 0) is a prefill step; a generation test
//! (`n_gen` tokens after `n_depth` of context) is decode, its latency per generated token and its
//! context the middle of the generated span. Combined prompt+generation tests (`-pg`) mix the two
//! and are refused.

use serde_json::Value;

use crate::import::{enrich, FileRecords, Rejected};
use crate::BenchmarkRecord;

/// Whether `value` is llama-bench's JSON output: an array of objects with its test fields.
#[must_use]
pub fn is_llama_bench(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| !items.is_empty() && items.iter().all(is_test))
}

/// Whether `value` is one llama-bench test object.
#[must_use]
pub fn is_test(value: &Value) -> bool {
    ["avg_ts", "n_prompt", "n_gen", "model_type"]
        .iter()
        .all(|k| value.get(k).is_some())
}

/// Reads llama-bench tests into `out`; `source` says where they come from.
pub fn read_tests<'a>(tests: impl IntoIterator<Item = (String, &'a Value)>, source: &str, out: &mut FileRecords) {
    out.format = "llama-bench JSON";
    for (at, test) in tests {
        match record(test, source).and_then(|r| r.validate().map(|()| r).map_err(|e| e.to_string())) {
            Ok(r) => out.records.push(enrich(r)),
            Err(reason) => out.rejected.push(Rejected { at, reason }),
        }
    }
}

fn text<'a>(test: &'a Value, key: &str) -> &'a str {
    test.get(key).and_then(Value::as_str).unwrap_or("")
}

fn count(test: &Value, key: &str) -> Result<u64, String> {
    test.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| format!("{key} is not a count"))
}

fn flag(test: &Value, key: &str) -> bool {
    match test.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_i64().is_some_and(|n| n > 0),
        Some(Value::String(s)) => s == "1" || s.eq_ignore_ascii_case("on") || s.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

/// The weights' format in llama.cpp's model type (`llama 8B Q4_K - Medium` → `q4_k_m`,
/// `gpt-oss 20B MXFP4 MoE` → `mxfp4_moe`, `llama 1B all F32` → `fp32`).
#[must_use]
pub fn precision_of(model_type: &str) -> Option<String> {
    let mut words = model_type.split_whitespace();
    let _architecture = words.next()?;
    let _size = words.next()?;
    let rest: Vec<&str> = words.collect();
    let joined = rest.join(" ");
    let lower = joined.to_ascii_lowercase();
    let name = match lower.as_str() {
        "" => return None,
        "all f32" | "f32" => String::from("fp32"),
        "bf16" => String::from("bf16"),
        "mxfp4 moe" => String::from("mxfp4_moe"),
        _ => {
            let (base, size) = lower.split_once(" - ").unwrap_or((lower.as_str(), ""));
            let letter = match size {
                "small" => "_s",
                "medium" if base != "q2_k" => "_m",
                "large" => "_l",
                _ => "",
            };
            format!("{}{letter}", base.trim())
        }
    };
    Some(
        name.parse::<hwfit_core::Precision>()
            .map_or(name, |p| p.as_str().to_owned()),
    )
}

/// The hardware type llama.cpp ran on: its GPU backend when layers were offloaded, else the CPU.
fn hardware_type(backends: &str, gpu_layers: u64) -> &'static str {
    let b = backends.to_ascii_lowercase();
    if gpu_layers == 0 {
        "cpu"
    } else if b.contains("cuda") {
        "cuda"
    } else if b.contains("rocm") || b.contains("hip") {
        "rocm"
    } else if b.contains("metal") {
        "mps"
    } else if b.contains("vulkan") {
        "vulkan"
    } else if b.contains("sycl") {
        "xpu"
    } else {
        "cpu"
    }
}

fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    Some(sorted[((last as f64) * p).round() as usize])
}

/// One test as a record.
pub fn record(test: &Value, source: &str) -> Result<BenchmarkRecord, String> {
    let n_prompt = count(test, "n_prompt")?;
    let n_gen = count(test, "n_gen")?;
    let n_depth = test.get("n_depth").and_then(Value::as_u64).unwrap_or(0);
    // -1 (the default of recent builds) offloads every layer the GPU backend takes.
    let gpu_layers = match test.get("n_gpu_layers").and_then(Value::as_i64) {
        Some(n) if n < 0 => u64::MAX,
        Some(n) => n.unsigned_abs(),
        None => 0,
    };
    let (workload, tokens, context) = match (n_prompt, n_gen) {
        (p, 0) if p > 0 => ("prefill", p, p + n_depth),
        (0, g) if g > 0 => ("decode", g, n_depth + g.div_ceil(2)),
        _ => {
            return Err(format!(
                "a combined test (pp{n_prompt}+tg{n_gen}) mixes prefill and decode"
            ))
        }
    };
    let avg_ts = test
        .get("avg_ts")
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite() && *v > 0.0)
        .ok_or("avg_ts is not a positive number")?;
    let backends = text(test, "backends");
    let hardware = hardware_type(backends, gpu_layers);
    let device_name = if hardware == "cpu" {
        text(test, "cpu_info")
    } else {
        text(test, "gpu_info")
    };
    let device_name = device_name.split(',').next().unwrap_or("").trim();
    let file = text(test, "model_filename");
    let model = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| text(test, "model_type"));
    let mut r = BenchmarkRecord::new(model, device_name, "llama.cpp", source);
    r.hardware_type = Some(hardware.to_owned());
    r.runtime_version = Some(format!(
        "b{} ({})",
        test.get("build_number").and_then(Value::as_u64).unwrap_or(0),
        text(test, "build_commit")
    ));
    let mut execution = if gpu_layers == u64::MAX {
        format!("{backends}, all layers offloaded")
    } else {
        format!("{backends}, {gpu_layers} layers offloaded")
    };
    if flag(test, "flash_attn") {
        execution.push_str(", flash attention");
    }
    r.execution = Some(execution);
    r.precision = precision_of(text(test, "model_type"));
    r.math_mode = Some(format!("KV cache {}/{}", text(test, "type_k"), text(test, "type_v")));
    r.model_parameters_m = test
        .get("model_n_params")
        .and_then(Value::as_f64)
        .map(|n| n / 1e6)
        .filter(|n| *n > 0.0);
    r.workload = Some(workload.to_owned());
    r.batch_size = Some(1);
    r.sequence_length = u32::try_from(context).ok();
    r.throughput = Some(avg_ts);
    r.throughput_unit = Some(String::from("tokens/s"));
    // A test's latency is one run of `tokens` tokens: the prefill step; per token for decode.
    let per_step = if workload == "decode" { tokens as f64 } else { 1.0 };
    let mut samples: Vec<f64> = test
        .get("samples_ns")
        .and_then(Value::as_array)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_f64)
                .map(|ns| ns / 1e6 / per_step)
                .collect()
        })
        .unwrap_or_default();
    samples.sort_by(f64::total_cmp);
    r.latency_mean_ms = test
        .get("avg_ns")
        .and_then(Value::as_f64)
        .map(|ns| ns / 1e6 / per_step)
        .filter(|v| *v > 0.0);
    r.latency_p50_ms = percentile(&samples, 0.5).filter(|v| *v > 0.0);
    r.latency_p90_ms = percentile(&samples, 0.9).filter(|v| *v > 0.0);
    r.timed_runs = u32::try_from(samples.len()).ok().filter(|&n| n > 0);
    r.measured_at = Some(text(test, "test_time").to_owned()).filter(|t| !t.is_empty());
    r.host = Some(serde_json::json!({
        "cpu": text(test, "cpu_info"),
        "gpu": text(test, "gpu_info"),
        "backends": backends,
        "threads": test.get("n_threads"),
        "n_batch": test.get("n_batch"),
        "n_ubatch": test.get("n_ubatch"),
        "n_gpu_layers": test.get("n_gpu_layers"),
        "model_file": file,
        "model_type": text(test, "model_type"),
        "model_size_bytes": test.get("model_size"),
    }));
    r.notes = Some(format!(
        "llama-bench {}{} (n_depth {n_depth}): avg_ts over the test's runs",
        if workload == "decode" { "tg" } else { "pp" },
        tokens
    ));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_model_types() {
        for (model_type, want) in [
            ("llama 8B Q4_K - Medium", "q4_k_m"),
            ("llama 8B Q4_K - Small", "q4_k_s"),
            ("qwen3moe 30B.A3B Q8_0", "q8_0"),
            ("gpt-oss 20B MXFP4 MoE", "mxfp4_moe"),
            ("llama 1B all F32", "fp32"),
            ("llama 1B F16", "f16"),
            ("llama 1B BF16", "bf16"),
            ("llama 8B IQ4_XS - 4.25 bpw", "iq4_xs"),
            ("llama 8B Q2_K - Medium", "q2_k"),
            ("llama 8B Q3_K - Large", "q3_k_l"),
        ] {
            assert_eq!(precision_of(model_type).as_deref(), Some(want), "{model_type}");
        }
        assert_eq!(precision_of("llama"), None);
    }

    fn test(n_prompt: u64, n_gen: u64) -> Value {
        serde_json::json!({
            "build_commit": "abc1234", "build_number": 6000, "cpu_info": "AMD EPYC 7B13",
            "gpu_info": "NVIDIA H100 80GB HBM3", "backends": "CUDA", "model_filename": "/m/Llama-3.1-8B-Instruct-Q4_K_M.gguf",
            "model_type": "llama 8B Q4_K - Medium", "model_size": 4_920_000_000_u64, "model_n_params": 8_030_000_000_u64,
            "n_batch": 2048, "n_ubatch": 512, "n_threads": 16, "type_k": "f16", "type_v": "f16",
            "n_gpu_layers": 99, "flash_attn": true, "n_prompt": n_prompt, "n_gen": n_gen, "n_depth": 0,
            "test_time": "2026-01-01T00:00:00Z", "avg_ns": 100_000_000_u64, "stddev_ns": 1000,
            "avg_ts": 1000.0, "stddev_ts": 1.0, "samples_ns": [90_000_000_u64, 100_000_000_u64, 110_000_000_u64],
            "samples_ts": [1100.0, 1000.0, 900.0]
        })
    }

    #[test]
    fn prompt_and_generation_tests_become_prefill_and_decode() {
        let prefill = record(&test(512, 0), "x").unwrap();
        assert_eq!(prefill.workload.as_deref(), Some("prefill"));
        assert_eq!(
            (prefill.sequence_length, prefill.hardware_type.as_deref()),
            (Some(512), Some("cuda"))
        );
        assert_eq!(prefill.device_name, "NVIDIA H100 80GB HBM3");
        assert_eq!(prefill.latency_p50_ms, Some(100.0));
        assert_eq!(prefill.precision.as_deref(), Some("q4_k_m"));
        assert!(prefill.execution.as_deref().unwrap().contains("flash attention"));
        let decode = record(&test(0, 128), "x").unwrap();
        assert_eq!(
            (decode.workload.as_deref(), decode.sequence_length),
            (Some("decode"), Some(64))
        );
        // 100 ms for 128 tokens: 0.78 ms per token.
        assert!((decode.latency_p50_ms.unwrap() - 100.0 / 128.0).abs() < 1e-9);
        assert!(record(&test(512, 128), "x").unwrap_err().contains("combined"));
        let mut cpu = test(64, 0);
        cpu["n_gpu_layers"] = Value::from(0);
        let cpu = record(&cpu, "x").unwrap();
        assert_eq!(
            (cpu.hardware_type.as_deref(), cpu.device_name.as_str()),
            (Some("cpu"), "AMD EPYC 7B13")
        );
    }
}
