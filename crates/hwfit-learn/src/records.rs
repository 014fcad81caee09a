//! Database records as training measurements: the model from the record's architecture (or the
//! catalog), the device from its profile (or the device catalog), the step from its fields.

use hwfit_core::perf::fitting::{measured_steps, MeasuredData, MeasuredStep};
use hwfit_core::perf::{PerfRequest, Runtime};
use hwfit_core::spec::{Component, Modality, ModelSpec, TransformerStack};
use hwfit_core::{Catalog, Device, DeviceCatalog, Precision, Workload};
use hwfit_db::BenchmarkRecord;

/// The public throughput measurements the analytic model is fitted to (llama.cpp, MLPerf), as the
/// learned predictor trains on them: the accelerator rows (the CPU rows of `llamacpp_cpu.csv` fit the
/// analytic model's CPU coefficients, which the learned correction starts from).
pub const PUBLIC_MEASUREMENTS: MeasuredData<'static> = MeasuredData {
    llm_tokens_per_second: include_str!("../../../data/measured/llm_tokens_per_second.csv"),
    llamacpp_cpu: "",
    mlperf_offline: include_str!("../../../data/measured/mlperf_inference_v4_1_offline.csv"),
    webllm_vram: "",
    browser_measurements: "",
    browser_cases: "",
    browser_engines: "",
    llamacpp_wasm: "",
    runtime_steps: "",
    moe_steps: "",
    runner_steps: &[],
};

/// `hwfit bench`'s measurements, per runtime and machine, in hwfit's export format (file name,
/// text): this project's CI machine kind (2-core AMD EPYC VM; tract, ONNX Runtime, PyTorch on the
/// CPU), and GPU machines (PyTorch on NVIDIA H200s and H100s; ONNX Runtime, tract, PyTorch and
/// llama.cpp on the H200 machines' 16-core Xeon hosts). The default model's training data, and each
/// runtime's rows in its step-model fit (llama.cpp's join its llama-bench rows).
pub const RUNNER_MEASUREMENTS: [(&str, &str); 15] = [
    (
        "hwfit_bench_tract_cpu.json",
        include_str!("../../../data/measured/hwfit_bench_tract_cpu.json"),
    ),
    (
        "hwfit_bench_onnxruntime_cpu.json",
        include_str!("../../../data/measured/hwfit_bench_onnxruntime_cpu.json"),
    ),
    (
        "hwfit_bench_pytorch_cpu.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cpu.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200_eager.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200_eager.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h100_eager.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h100_eager.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200_more.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200_more.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h100_more.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h100_more.json"),
    ),
    (
        "hwfit_bench_onnxruntime_cpu_xeon16.json",
        include_str!("../../../data/measured/hwfit_bench_onnxruntime_cpu_xeon16.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200_fp16.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200_fp16.json"),
    ),
    (
        "hwfit_bench_tract_cpu_xeon16.json",
        include_str!("../../../data/measured/hwfit_bench_tract_cpu_xeon16.json"),
    ),
    (
        "hwfit_bench_pytorch_cpu_xeon16.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cpu_xeon16.json"),
    ),
    (
        "hwfit_bench_llamacpp_cpu_xeon16.json",
        include_str!("../../../data/measured/hwfit_bench_llamacpp_cpu_xeon16.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200_compiled.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200_compiled.json"),
    ),
    (
        "hwfit_bench_pytorch_cuda_h200_graphs_moe.json",
        include_str!("../../../data/measured/hwfit_bench_pytorch_cuda_h200_graphs_moe.json"),
    ),
];

/// The records of [`RUNNER_MEASUREMENTS`].
pub fn runner_records() -> Result<Vec<BenchmarkRecord>, crate::LearnError> {
    let mut out = Vec::new();
    for (name, text) in RUNNER_MEASUREMENTS {
        let read = hwfit_db::read_text(name, text).map_err(|e| crate::LearnError::Training(e.to_string()))?;
        if let Some(bad) = read.rejected.first() {
            return Err(crate::LearnError::Training(format!(
                "{name} {}: {}",
                bad.at, bad.reason
            )));
        }
        out.extend(read.records);
    }
    Ok(out)
}

/// The steps of [`RUNNER_MEASUREMENTS`] the performance model can use (the microbenchmark records
/// are not steps).
pub fn runner_steps(catalog: &Catalog, devices: &DeviceCatalog) -> Result<Vec<MeasuredStep>, crate::LearnError> {
    Ok(steps(&runner_records()?, catalog, devices).0)
}

fn parsed<T: core::str::FromStr>(value: Option<&String>, field: &str) -> Result<T, String> {
    value
        .ok_or_else(|| format!("no {field}"))?
        .parse()
        .map_err(|_| format!("{field} '{}' is not understood", value.map_or("", |v| v.as_str())))
}

/// The precision a record's step computes in: the autocast type of a mixed-precision step
/// (`math_mode` "autocast bf16": fp32 master weights, matrix products in bf16), as the public rows'
/// "fp16 (amp)" are read, else the weights' precision.
fn computed_precision(record: &BenchmarkRecord) -> Result<Precision, String> {
    if record.math_mode.as_deref().is_some_and(|m| m.contains("tf32")) {
        return Err(String::from("TF32 math mode is not modelled (fp32 means IEEE fp32)"));
    }
    match record.math_mode.as_deref().and_then(|m| m.strip_prefix("autocast ")) {
        Some(autocast) => autocast.trim().parse().map_err(|_| {
            format!(
                "math_mode '{}' is not understood",
                record.math_mode.as_deref().unwrap_or("")
            )
        }),
        None => parsed::<Precision>(record.precision.as_ref(), "precision"),
    }
}

/// Whether a record's step ran under autocast (mixed precision: fp32 weights, gradients and
/// optimizer state); a 16-bit record without it trained its weights at their own precision.
fn is_autocast(record: &BenchmarkRecord) -> bool {
    record.math_mode.as_deref().is_some_and(|m| m.starts_with("autocast "))
}

/// The runtime a record's step ran on: its `runtime`, or compiled PyTorch where the record's
/// `execution` says the model went through `torch.compile` (in any mode: `torch.compile
/// (reduce-overhead)` replays CUDA graphs).
fn runtime_of(record: &BenchmarkRecord) -> Result<Runtime, String> {
    let runtime = parsed::<Runtime>(Some(&record.runtime), "runtime")?;
    let compiled = record.execution.as_deref().is_some_and(|e| {
        let how = e.split_once(" (").map_or(e, |(how, _)| how);
        matches!(how.parse::<Runtime>(), Ok(Runtime::PytorchCompiled))
    });
    Ok(if runtime == Runtime::Pytorch && compiled {
        Runtime::PytorchCompiled
    } else {
        runtime
    })
}

/// Each transformer stack of `spec` beside the same stack (by position) of `known`.
fn stacks_beside<'a>(
    spec: &'a mut ModelSpec,
    known: &'a ModelSpec,
) -> impl Iterator<Item = (&'a mut TransformerStack, &'a TransformerStack)> {
    spec.components
        .iter_mut()
        .filter_map(|c| match c {
            Component::Transformer(t) => Some(t),
            _ => None,
        })
        .zip(known.stacks())
}

/// The fields of a transformer stack that hwfit began recording after the first runner records
/// (how a layer normalises and encodes positions: what eager runtimes dispatch).
const LAYER_OPERATION_FIELDS: [&str; 4] = ["norm", "norms_per_layer", "qk_norm", "rotary"];

/// A record's architecture, completed from the catalog's spec of the same model where the record
/// was written before hwfit recorded a stack's layer operations (`LAYER_OPERATION_FIELDS`) and the
/// catalog's spec has the same stacks.
fn with_layer_operations(mut spec: ModelSpec, recorded: &serde_json::Value, known: Option<&ModelSpec>) -> ModelSpec {
    let states_any = recorded["components"].as_array().is_some_and(|parts| {
        parts
            .iter()
            .any(|p| LAYER_OPERATION_FIELDS.iter().any(|f| p.get(f).is_some()))
    });
    let Some(known) = known.filter(|_| !states_any) else {
        return spec;
    };
    if spec.stacks().count() != known.stacks().count() {
        return spec;
    }
    for (part, from) in stacks_beside(&mut spec, known) {
        part.norm = from.norm;
        part.norms_per_layer = from.norms_per_layer;
        part.qk_norm = from.qk_norm;
        part.rotary = from.rotary;
    }
    spec
}

/// A record's architecture with `attention_sinks` taken from the catalog's spec of the same model
/// where no recorded stack states it (hwfit records it since 2026-11-27, and only when set).
fn with_attention_sinks(mut spec: ModelSpec, recorded: &serde_json::Value, known: Option<&ModelSpec>) -> ModelSpec {
    let states = recorded["components"]
        .as_array()
        .is_some_and(|parts| parts.iter().any(|p| p.get("attention_sinks").is_some()));
    let Some(known) = known.filter(|k| !states && k.stacks().count() == spec.stacks().count()) else {
        return spec;
    };
    for (part, from) in stacks_beside(&mut spec, known) {
        part.attention_sinks = from.attention_sinks;
    }
    spec
}

/// The measurement a record describes, or why it cannot be trained on.
pub fn step(record: &BenchmarkRecord, catalog: &Catalog, devices: &DeviceCatalog) -> Result<MeasuredStep, String> {
    let spec: ModelSpec = match &record.model_architecture {
        Some(a) => {
            let spec = serde_json::from_value(a.clone()).map_err(|e| format!("model_architecture: {e}"))?;
            let known = catalog
                .lookup(&record.model_name)
                .or_else(|| catalog.lookup_repackaged(&record.model_name));
            let known = known.as_ref().map(|m| &m.spec);
            with_attention_sinks(with_layer_operations(spec, a, known), a, known)
        }
        None => catalog
            .lookup(&record.model_name)
            .map(|m| m.spec.clone())
            .ok_or_else(|| format!("model '{}' is not in the catalog", record.model_name))?,
    };
    let device: Device = match &record.device_profile {
        Some(p) => serde_json::from_value(p.clone()).map_err(|e| format!("device_profile: {e}"))?,
        None => devices.resolve(&record.device).map_err(|e| e.to_string())?.clone(),
    };
    if record.device_count != 1 {
        return Err(String::from("more than one device"));
    }
    let request = PerfRequest {
        precision: computed_precision(record)?,
        workload: parsed::<Workload>(record.workload.as_ref(), "workload")?,
        batch_size: record.batch_size.ok_or("no batch size")?,
        seq_length: match record.sequence_length {
            Some(seq) => seq,
            // An image or audio model's step does not depend on it (its input size is the spec's).
            None if !spec.stacks().any(|s| s.input == Modality::Text) => hwfit_core::api::defaults::SEQUENCE_LENGTH,
            None => return Err(String::from("no sequence length")),
        },
        runtime: Some(runtime_of(record)?),
        prompt_chunk: None,
        mixed_precision: Some(is_autocast(record)),
    };
    Ok(MeasuredStep {
        spec,
        device,
        request,
        measured: record.throughput.ok_or("no throughput")?,
        threads: None,
        label: format!(
            "{} {} b{} s{} {} on {} ({})",
            record.model_name,
            request.workload,
            request.batch_size,
            request.seq_length,
            request.precision,
            record.device_name,
            record.runtime
        ),
    })
}

/// The measurements of `records` that can be trained on, and `record: why` for the rest.
#[must_use]
pub fn steps(
    records: &[BenchmarkRecord],
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> (Vec<MeasuredStep>, Vec<String>) {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for r in records {
        match step(r, catalog, devices) {
            Ok(s) => out.push(s),
            Err(why) => skipped.push(format!("{} on {}: {why}", r.model_name, r.device_name)),
        }
    }
    (out, skipped)
}

/// The default training set: [`PUBLIC_MEASUREMENTS`] plus [`RUNNER_MEASUREMENTS`] plus `records`
/// (deduplicated by content).
pub fn training_set(
    mut records: Vec<BenchmarkRecord>,
    catalog: &Catalog,
    devices: &DeviceCatalog,
) -> Result<Vec<MeasuredStep>, crate::LearnError> {
    let (mut out, _) = measured_steps(&PUBLIC_MEASUREMENTS, catalog, devices, devices)?;
    records.extend(runner_records()?);
    records.sort_by_key(BenchmarkRecord::key);
    records.dedup_by_key(|r| r.key());
    out.extend(steps(&records, catalog, devices).0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hwfit_core::resources::{estimate_resources, ResourceInput};
    use hwfit_core::{HardwareType, Mode};

    fn record(precision: &str, math_mode: Option<&str>) -> BenchmarkRecord {
        let mut r = BenchmarkRecord::new(
            "HuggingFaceTB/SmolLM2-135M-Instruct",
            "nvidia-h200-sxm",
            "PyTorch",
            "test",
        );
        r.precision = Some(String::from(precision));
        r.math_mode = math_mode.map(String::from);
        r
    }

    #[test]
    fn an_autocast_step_computes_in_its_autocast_type() {
        assert_eq!(
            computed_precision(&record("fp32", Some("autocast bf16"))),
            Ok(Precision::Bf16)
        );
        assert_eq!(
            computed_precision(&record("fp32", Some("autocast fp16"))),
            Ok(Precision::Fp16)
        );
        assert_eq!(computed_precision(&record("bf16", Some("bf16"))), Ok(Precision::Bf16));
        assert_eq!(computed_precision(&record("fp32", None)), Ok(Precision::Fp32));
        assert!(computed_precision(&record("fp32", Some("fp32 with tf32 matmul"))).is_err());
        assert!(computed_precision(&record("fp32", Some("autocast fp7"))).is_err());
    }

    #[test]
    fn compiled_records_in_any_mode_are_compiled_pytorch() {
        let mut r = record("bf16", None);
        for (execution, runtime) in [
            (None, Runtime::Pytorch),
            (Some("eager"), Runtime::Pytorch),
            (Some("torch.compile"), Runtime::PytorchCompiled),
            (Some("torch.compile (reduce-overhead)"), Runtime::PytorchCompiled),
        ] {
            r.execution = execution.map(String::from);
            assert_eq!(runtime_of(&r), Ok(runtime), "{execution:?}");
        }
    }

    #[test]
    fn records_written_before_attention_sinks_were_recorded_get_them_from_the_catalog() {
        let catalog = Catalog::builtin();
        let devices = DeviceCatalog::builtin();
        let records = runner_records().expect("the committed records parse");
        let gpt_oss: Vec<_> = records
            .iter()
            .filter(|r| r.model_name == "openai/gpt-oss-20b")
            .collect();
        assert!(!gpt_oss.is_empty());
        for r in gpt_oss {
            assert!(r
                .model_architecture
                .as_ref()
                .is_some_and(|a| !a.to_string().contains("attention_sinks")));
            let step = step(r, &catalog, &devices).expect("a gpt-oss step");
            assert!(step.spec.stacks().all(|s| s.attention_sinks), "{}", step.label);
        }
    }

    #[test]
    fn training_memory_estimates_hold_the_runners_allocator_peaks() {
        // Every committed PyTorch training step on a GPU: the allocator's peak
        // (`torch.cuda.max_memory_allocated`) against the estimate without the runtime's allowance
        // (the CUDA context is not the allocator's), mixed precision where the step ran under autocast.
        let catalog = Catalog::builtin();
        let records = runner_records().expect("the committed records parse");
        let mut errors = Vec::new();
        for r in records
            .iter()
            .filter(|r| r.workload.as_deref() == Some("train-step") && r.hardware_type.as_deref() == Some("cuda"))
        {
            let spec = &catalog.lookup(&r.model_name).expect("a catalog model").spec;
            let input = ResourceInput {
                hardware: HardwareType::Cuda,
                precision: computed_precision(r).expect("a precision"),
                mode: Mode::Training,
                batch_size: r.batch_size.expect("a batch size"),
                seq_length: r.sequence_length.unwrap_or(hwfit_core::api::defaults::SEQUENCE_LENGTH),
                mixed_precision: Some(is_autocast(r)),
            };
            let b = estimate_resources(spec, &input).expect("an estimate").breakdown;
            let estimate = b.total_mb() - b.runtime_overhead_mb;
            let measured = r.memory_mb.expect("the allocator's peak");
            errors.push((
                (estimate / measured).ln(),
                format!("{} b{:?} {input:?}", r.model_name, r.batch_size),
            ));
        }
        assert!(errors.len() >= 30, "{} training records", errors.len());
        for (error, case) in &errors {
            assert!(
                error.abs() < 1.25_f64.ln(),
                "{case}: estimate ×{:.2} of the peak",
                error.exp()
            );
        }
    }

    #[test]
    fn every_committed_runner_record_is_read() {
        let records = runner_records().expect("the committed records parse");
        assert!(records
            .iter()
            .any(|r| r.hardware_type.as_deref() == Some("cuda") && r.runtime == "PyTorch"));
    }
}
