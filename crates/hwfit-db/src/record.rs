//! One measurement, in the one schema every source is imported into.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::DbError;

/// One measurement: what ran (model), where (device, hardware type, runtime), how (precision,
/// workload, batch, sequence), what was measured (throughput, latency, memory) and where the figure
/// comes from (`source`: a URL or reference, or "measured here" with `host` facts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkRecord {
    /// The model as measured (a Hub id or the source's name).
    pub model_name: String,
    /// Its family, when hwfit knows the model (`text_generation`, `embedding`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_family: Option<String>,
    /// Parameters, millions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_parameters_m: Option<f64>,
    /// Architecture facts (hwfit's model spec as JSON), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_architecture: Option<serde_json::Value>,
    /// hwfit's device id when the device resolves, else the device as the source names it.
    pub device: String,
    /// The device as the source names it.
    pub device_name: String,
    /// A measured profile (rates measured on the device) instead of a catalog device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_profile: Option<serde_json::Value>,
    /// Devices used together (1 unless the source says otherwise).
    #[serde(default = "one")]
    pub device_count: u32,
    /// `cuda`, `rocm`, `mps`, `cpu`, `openvino`, `webgpu`, `webnn`, `wasm`, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hardware_type: Option<String>,
    /// `llama.cpp`, `TensorRT-LLM`, `PyTorch`, `ONNX Runtime`, `tract`, `transformers.js`, `web-llm` …
    pub runtime: String,
    /// The runtime's version (`2.9.1`, `1.32.0`, llama.cpp's build `b6000 (abc1234)`), for measurements taken here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_version: Option<String>,
    /// How the runtime executed it: PyTorch `eager` or `torch.compile`, an ONNX Runtime execution
    /// provider (`CUDAExecutionProvider`), tract's optimized plan, llama.cpp's backends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<String>,
    /// `fp32`, `fp16`, `int8`, `q4_k_m` …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<String>,
    /// The arithmetic beyond the weights' format: `fp32`, `fp32 with tf32 matmul`, `autocast bf16` …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub math_mode: Option<String>,
    /// `forward`, `prefill`, `decode`, `train-step`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    /// Items per step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_size: Option<u32>,
    /// Tokens per sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence_length: Option<u32>,
    /// Items or tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<f64>,
    /// `items/s`, `tokens/s`, `samples/s` …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_unit: Option<String>,
    /// Mean latency per step, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_mean_ms: Option<f64>,
    /// Median latency, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_p50_ms: Option<f64>,
    /// 90th-percentile latency, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_p90_ms: Option<f64>,
    /// Memory, MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<f64>,
    /// Peak memory at the device level, MB (GPU memory the process held, or the process's peak
    /// resident memory on a CPU), where `memory_mb` is the framework allocator's peak.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_device_mb: Option<f64>,
    /// Untimed runs before the timed ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup_runs: Option<u32>,
    /// Timed runs the latencies summarise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_runs: Option<u32>,
    /// A URL or reference, or "measured here".
    pub source: String,
    /// Host facts for measurements taken here (CPU, cores, memory, OS, hwfit version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<serde_json::Value>,
    /// When it was measured (RFC 3339 or the date the source gives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_at: Option<String>,
    /// What else the source says (metric, conditions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

fn one() -> u32 {
    1
}

impl BenchmarkRecord {
    /// A record with the required fields and nothing measured yet.
    #[must_use]
    pub fn new(model_name: &str, device_name: &str, runtime: &str, source: &str) -> Self {
        Self {
            model_name: model_name.into(),
            model_family: None,
            model_parameters_m: None,
            model_architecture: None,
            device: device_name.into(),
            device_name: device_name.into(),
            device_profile: None,
            device_count: 1,
            hardware_type: None,
            runtime: runtime.into(),
            runtime_version: None,
            execution: None,
            precision: None,
            math_mode: None,
            workload: None,
            batch_size: None,
            sequence_length: None,
            throughput: None,
            throughput_unit: None,
            latency_mean_ms: None,
            latency_p50_ms: None,
            latency_p90_ms: None,
            memory_mb: None,
            memory_device_mb: None,
            warmup_runs: None,
            timed_runs: None,
            source: source.into(),
            host: None,
            measured_at: None,
            notes: None,
        }
    }

    /// Checks what storage relies on: names present, something measured, every number finite and
    /// positive, counts at least 1.
    pub fn validate(&self) -> Result<(), DbError> {
        let bad = |m: String| Err(DbError::InvalidRecord(m));
        for (field, value) in [
            ("model_name", &self.model_name),
            ("device", &self.device),
            ("device_name", &self.device_name),
            ("runtime", &self.runtime),
            ("source", &self.source),
        ] {
            if value.trim().is_empty() {
                return bad(format!("{field} is empty"));
            }
        }
        let numbers = [
            ("throughput", self.throughput),
            ("latency_mean_ms", self.latency_mean_ms),
            ("latency_p50_ms", self.latency_p50_ms),
            ("latency_p90_ms", self.latency_p90_ms),
            ("memory_mb", self.memory_mb),
            ("memory_device_mb", self.memory_device_mb),
            ("model_parameters_m", self.model_parameters_m),
        ];
        for (field, value) in numbers {
            if let Some(v) = value {
                if !(v.is_finite() && v > 0.0) {
                    return bad(format!("{field} must be a positive number, not {v}"));
                }
            }
        }
        if numbers[..6].iter().all(|(_, v)| v.is_none()) {
            return bad(String::from(
                "nothing measured: a record needs a throughput, a latency or a memory figure",
            ));
        }
        if self.device_count == 0 || self.batch_size == Some(0) || self.sequence_length == Some(0) {
            return bad(String::from("device_count, batch_size and sequence_length must be ≥ 1"));
        }
        if self.timed_runs == Some(0) {
            return bad(String::from("timed_runs must be ≥ 1"));
        }
        if let Some(h) = &self.hardware_type {
            if h.parse::<hwfit_core::HardwareType>().is_err() {
                return bad(format!(
                    "hardware_type '{h}' is not one hwfit knows (cpu, cuda, rocm, mps, openvino, qnn, webnn, webgpu, wasm)"
                ));
            }
        }
        if let Some(t) = &self.measured_at {
            if !is_iso8601(t) {
                return bad(format!(
                    "measured_at '{t}' is not an ISO 8601 date or time (2026-11-23, 2026-11-23T17:30:16Z)"
                ));
            }
        }
        // PostgreSQL's text cannot hold a NUL byte: refused on every backend, so both store the same.
        if serde_json::to_string(self).is_ok_and(|json| json.contains("\\u0000")) {
            return bad(String::from("a text field contains a NUL byte"));
        }
        Ok(())
    }

    /// The content key: SHA-256 of the record's canonical JSON. The same measurement imported twice
    /// has the same key, so the database keeps it once.
    #[must_use]
    pub fn key(&self) -> String {
        // serde_json writes struct fields in declaration order and `Value` maps sorted: canonical.
        let text = serde_json::to_string(self).unwrap_or_default();
        let digest = Sha256::digest(text.as_bytes());
        digest.iter().fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
    }
}

/// Whether `text` is an ISO 8601 / RFC 3339 date or date-time as measurement files write them:
/// `YYYY-MM-DD`, then optionally `T` or a space, `HH:MM[:SS[.fraction]]` and `Z` or `±HH[:]MM`.
fn is_iso8601(text: &str) -> bool {
    fn number(s: &str, digits: usize, max: u32, min: u32) -> bool {
        s.len() == digits
            && s.bytes().all(|b| b.is_ascii_digit())
            && s.parse::<u32>().is_ok_and(|n| (min..=max).contains(&n))
    }
    let (date, time) = match text.find(['T', 't', ' ']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let mut parts = date.split('-');
    let date_ok = matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some(y), Some(m), Some(d), None) if number(y, 4, 9999, 1) && number(m, 2, 12, 1) && number(d, 2, 31, 1)
    );
    let Some(time) = time else { return date_ok };
    let (clock, zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(i) => (&time[..i], &time[i..]),
        None => (time, ""),
    };
    let zone_ok = match zone {
        "" | "Z" | "z" => true,
        z => {
            let offset = z[1..].replace(':', "");
            number(&offset[..offset.len().min(2)], 2, 23, 0) && number(offset.get(2..).unwrap_or(""), 2, 59, 0)
        }
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let mut hms = hms.split(':');
    let clock_ok = matches!(
        (hms.next(), hms.next(), hms.next(), hms.next()),
        (Some(h), Some(m), s, None) if number(h, 2, 23, 0) && number(m, 2, 59, 0) && s.is_none_or(|s| number(s, 2, 60, 0))
    ) && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit());
    date_ok && clock_ok && zone_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurement_times_are_iso_8601() {
        for ok in [
            "2026-11-23",
            "2026-11-23T17:30:16Z",
            "2026-11-23T17:30:16.112414909Z",
            "2026-11-23 17:30:16",
            "2026-11-23T17:30",
            "2026-11-23T17:30:16+05:30",
            "2026-11-23T17:30:16-0800",
        ] {
            assert!(is_iso8601(ok), "{ok}");
        }
        for bad in [
            "yesterday-ish",
            "2026-13-01",
            "2026-11-23T25:00:00Z",
            "2026-11-23T17:30:16.Z",
            "23/11/2026",
            "2026-11-23T",
            "2026-11-23T17:30:16+5",
            "",
        ] {
            assert!(!is_iso8601(bad), "{bad}");
        }
    }

    #[test]
    fn a_record_names_a_known_hardware_type_and_a_readable_time() {
        let mut r = BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
        r.throughput = Some(1.0);
        r.hardware_type = Some(String::from("tpu"));
        assert!(r.validate().unwrap_err().to_string().contains("hardware_type 'tpu'"));
        r.hardware_type = Some(String::from("cuda"));
        r.measured_at = Some(String::from("last tuesday"));
        assert!(r.validate().unwrap_err().to_string().contains("measured_at"));
        r.measured_at = Some(String::from("2026-11-23T17:30:16Z"));
        r.validate().unwrap();
    }

    #[test]
    fn a_record_needs_a_measurement_and_sane_numbers() {
        let mut r = BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
        assert!(r.validate().unwrap_err().to_string().contains("nothing measured"));
        r.throughput = Some(12.5);
        r.validate().unwrap();
        r.latency_mean_ms = Some(-1.0);
        assert!(r.validate().unwrap_err().to_string().contains("latency_mean_ms"));
        r.latency_mean_ms = None;
        r.batch_size = Some(0);
        assert!(r.validate().is_err());
        let mut nul = BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
        nul.throughput = Some(1.0);
        nul.validate().unwrap();
        nul.notes = Some(String::from("a\0b"));
        assert!(nul.validate().unwrap_err().to_string().contains("NUL"));
    }

    #[test]
    fn the_key_follows_the_content() {
        let mut a = BenchmarkRecord::new("gpt2", "cpu", "tract", "measured here");
        a.throughput = Some(1.0);
        let b = a.clone();
        assert_eq!(a.key(), b.key());
        assert_eq!(a.key().len(), 64);
        a.throughput = Some(2.0);
        assert_ne!(a.key(), b.key());
    }
}
