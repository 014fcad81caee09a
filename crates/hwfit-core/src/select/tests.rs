use alloc::string::ToString;
use alloc::vec::Vec;

use super::*;
use crate::Catalog;

fn request(hw: &[HardwareType], devices: &[&str], precision: Precision, batch: u32) -> SelectionInput {
    let catalog = DeviceCatalog::builtin();
    let mut candidates: Vec<Candidate> = hw.iter().map(|h| Candidate::hardware(&catalog, *h).unwrap()).collect();
    candidates.extend(devices.iter().map(|d| Candidate::device(catalog.resolve(d).unwrap())));
    SelectionInput {
        batch_size: batch,
        seq_length: 128,
        mode: Mode::Inference,
        precision,
        task_type: None,
        mixed_precision: None,
        candidates,
    }
}

fn select(model: &str, req: &SelectionInput) -> Result<Selection, CoreError> {
    let spec = Catalog::builtin().resolve(model).unwrap().spec;
    select_hardware(&spec, req, &PerfModel::builtin().unwrap(), &SelectionConfig::default())
}

#[test]
fn gpus_beat_cpus_for_vision_unlike_the_python_original() {
    let s = select(
        "vit-base-patch16-224",
        &request(&[HardwareType::Cpu, HardwareType::Cuda], &[], Precision::Fp16, 16),
    )
    .unwrap();
    assert_eq!(s.primary_recommendation.as_deref(), Some("cuda"));
    assert_eq!(s.fallback_options, ["cpu"]);
    assert_eq!(s.model_size_category, "small");
}

#[test]
fn a_model_that_does_not_fit_is_excluded_with_the_numbers() {
    let s = select(
        "llama 3 70b",
        &request(&[HardwareType::Cpu], &["RTX 4090", "H200"], Precision::Fp16, 1),
    )
    .unwrap();
    assert_eq!(s.primary_recommendation.as_deref(), Some("nvidia-h200-sxm"));
    let why = s.all_scores["nvidia-rtx-4090"].excluded.as_deref().unwrap();
    assert!(why.starts_with("does not fit in 24.0 GB (needs 13"), "{why}");
    assert!(
        s.explanation.contains("nvidia-rtx-4090: does not fit in 24.0 GB"),
        "{}",
        s.explanation
    );
    assert!(
        s.explanation
            .starts_with("nvidia-h200-sxm (NVIDIA H200 SXM 141GB) ranks first"),
        "{}",
        s.explanation
    );
    assert!(!s.compatible_hardware.contains(&"nvidia-rtx-4090".to_string()));
}

#[test]
fn unsupported_precision_excludes_only_that_candidate() {
    let s = select(
        "bert-base-uncased",
        &request(&[HardwareType::Cpu, HardwareType::Cuda], &[], Precision::Fp8, 8),
    )
    .unwrap();
    assert_eq!(s.primary_recommendation.as_deref(), Some("cuda"));
    assert!(s.all_scores["cpu"]
        .excluded
        .as_deref()
        .unwrap()
        .contains("cpu does not support precision fp8"));
}

#[test]
fn request_errors_are_errors() {
    let mut req = request(&[], &[], Precision::Fp32, 1);
    assert!(matches!(select("gpt2", &req), Err(CoreError::NoCandidates)));
    req = request(&[HardwareType::Cuda], &[], Precision::Int4, 1);
    req.mode = Mode::Training;
    assert!(select("gpt2", &req)
        .unwrap_err()
        .to_string()
        .contains("training at int4"));
    req = request(&[HardwareType::Cuda], &[], Precision::Fp32, 0);
    assert!(select("gpt2", &req)
        .unwrap_err()
        .to_string()
        .contains(&*crate::error::field_name("batch_size")));
    req = request(&[HardwareType::Cuda], &[], Precision::Fp32, 1);
    req.task_type = Some(TaskType::Generation);
    assert!(select("bert-base-uncased", &req)
        .unwrap_err()
        .to_string()
        .contains("needs a model that generates text"));
}

#[test]
fn training_task_types_select_for_training() {
    let mut req = request(&[HardwareType::Cuda, HardwareType::Cpu], &[], Precision::Bf16, 8);
    req.task_type = Some(TaskType::FineTuning);
    let s = select("gpt2", &req).unwrap();
    assert_eq!(s.mode, Mode::Training);
    assert_eq!(s.workload, Workload::TrainStep);
    assert_eq!(s.primary_recommendation.as_deref(), Some("cuda"));
}

#[test]
fn weights_steer_the_ranking() {
    // Memory headroom alone: the 192 GB M2 Ultra beats the 24 GB RTX 4090 for a 7 B model.
    let spec = Catalog::builtin().resolve("llama 2 7b").unwrap().spec;
    let req = request(&[], &["RTX 4090", "M2 Ultra 76-core"], Precision::Q4_0, 1);
    let mut config = SelectionConfig::default();
    let perf = PerfModel::builtin().unwrap();
    assert_eq!(
        select_hardware(&spec, &req, &perf, &config)
            .unwrap()
            .primary_recommendation
            .as_deref(),
        Some("nvidia-rtx-4090")
    );
    config.selection_criteria.inference = config::InferenceWeights {
        latency_weight: 0.0,
        throughput_weight: 0.0,
        memory_weight: 1.0,
        compatibility_weight: 0.0,
    };
    assert_eq!(
        select_hardware(&spec, &req, &perf, &config)
            .unwrap()
            .primary_recommendation
            .as_deref(),
        Some("apple-m2-ultra-76c")
    );
}

#[test]
fn nothing_eligible_is_an_answer_without_a_recommendation() {
    let s = select("llama 3.1 405b", &request(&[], &["RTX 4090"], Precision::Fp16, 1)).unwrap();
    assert_eq!(s.primary_recommendation, None);
    assert!(
        s.explanation.starts_with("No candidate can run this request."),
        "{}",
        s.explanation
    );
}

fn browser_request(caps: &crate::browser::BrowserCapabilities, batch: u32, seq: u32) -> SelectionInput {
    SelectionInput {
        batch_size: batch,
        seq_length: seq,
        mode: Mode::Inference,
        precision: Precision::Fp32,
        task_type: None,
        mixed_precision: None,
        candidates: crate::browser::browser_candidates(caps, &DeviceCatalog::builtin()),
    }
}

#[test]
fn a_software_webgpu_adapter_never_beats_webassembly() {
    use crate::browser::{BrowserCapabilities, WebGpuAdapterFacts};
    let caps = BrowserCapabilities {
        webgpu: Some(WebGpuAdapterFacts {
            is_fallback: true,
            vendor: "google".into(),
            architecture: "swiftshader".into(),
            ..Default::default()
        }),
        wasm: true,
        hardware_concurrency: Some(2),
        ..Default::default()
    };
    for model in [
        "bert-base-uncased",
        "sentence-transformers/all-MiniLM-L6-v2",
        "resnet-50",
    ] {
        for batch in [1, 64] {
            let s = select(model, &browser_request(&caps, batch, 128)).unwrap();
            assert_eq!(
                s.primary_recommendation.as_deref(),
                Some("wasm"),
                "{model} at batch {batch}"
            );
        }
    }
}

#[test]
fn fixed_costs_decide_small_steps_and_the_explanation_says_so() {
    use crate::browser::{BrowserCapabilities, WebGpuAdapterFacts};
    let caps = BrowserCapabilities {
        webgpu: Some(WebGpuAdapterFacts {
            vendor: "nvidia".into(),
            architecture: "ampere".into(),
            ..Default::default()
        }),
        wasm: true,
        cross_origin_isolated: true,
        hardware_concurrency: Some(8),
        ..Default::default()
    };
    // A short sentence through MiniLM: dispatches and the readback outweigh WebGPU's compute.
    let small = select("sentence-transformers/all-MiniLM-L6-v2", &browser_request(&caps, 1, 8)).unwrap();
    assert_eq!(small.primary_recommendation.as_deref(), Some("wasm"));
    assert!(
        small.explanation.contains("dispatches") && small.explanation.contains("outweigh"),
        "{}",
        small.explanation
    );
    // Batched, the same model is compute-bound and WebGPU wins.
    let batched = select(
        "sentence-transformers/all-MiniLM-L6-v2",
        &browser_request(&caps, 64, 128),
    )
    .unwrap();
    assert_eq!(batched.primary_recommendation.as_deref(), Some("webgpu"));
    let p = batched.all_scores["webgpu"].predictions.unwrap();
    let f = p.fixed_costs.unwrap();
    assert!(f.kernels > 0 && f.first_run_ms > 0.0 && (p.latency - f.compute_ms - f.overhead_ms()).abs() < 0.01);
}
