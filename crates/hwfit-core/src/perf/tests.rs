use super::*;
use crate::{Catalog, DeviceCatalog};

fn predict(model: &str, device: &str, precision: Precision, workload: Workload, batch: u32, seq: u32) -> Prediction {
    let spec = Catalog::builtin().resolve(model).unwrap().spec;
    let device = DeviceCatalog::builtin().resolve(device).unwrap().clone();
    PerfModel::builtin()
        .unwrap()
        .predict(
            &spec,
            &device,
            &PerfRequest {
                precision,
                workload,
                batch_size: batch,
                seq_length: seq,
                runtime: None,
                prompt_chunk: None,
                mixed_precision: None,
            },
        )
        .unwrap()
}

#[test]
fn decode_cost_by_hand() {
    // Llama 2 7B (32 layers, hidden 4096, 32 KV heads of 128, gated FFN 11008, vocab 32000, untied)
    // at Q4_0, one sequence decoding one token with 256 tokens cached.
    // Weights: 32 × (4 × 4096² attention + 3 × 4096 × 11008 FFN) + 2 × 32000 × 4096 embeddings
    //   = 32 × 202,375,168 + 262,144,000 = 6,738,149,376 parameters (the published 6,738,415,616
    //   less 266,240 norm weights, which hwfit leaves out). The step's products read all but the
    //   input embedding table (one row gathered): 6,738,149,376 − 131,072,000 = 6,607,077,376
    //   × 4.5 bits / 8 = 3,716,481,024 bytes.
    // KV cache: 2 (K, V) × 32 layers × 32 heads × 128 dims × 2 bytes (fp16) = 524,288 B per token;
    //   × 256 tokens = 134,217,728 bytes.
    // Total read per step: 3,850,698,752 bytes.
    let spec = Catalog::builtin().resolve("llama-2-7b").unwrap().spec;
    assert_eq!(spec.parameters(), 6_738_149_376);
    let cost = step_cost(&spec, Precision::Q4_0, Workload::Decode, 1, 256).unwrap();
    assert!((cost.bytes - 3_850_698_752.0).abs() < 1.0, "{}", cost.bytes);
    assert!((cost.items - 1.0).abs() < f64::EPSILON);
}

#[test]
fn moe_decode_reads_only_the_routed_experts() {
    let spec = Catalog::builtin().resolve("mixtral").unwrap().spec;
    let one = step_cost(&spec, Precision::Fp16, Workload::Decode, 1, 1).unwrap();
    let many = step_cost(&spec, Precision::Fp16, Workload::Decode, 64, 1).unwrap();
    // 2 of 8 experts at batch 1: about 13 B of 46.7 B parameters are read
    assert!(one.bytes / 2.0 < 14e9 && one.bytes / 2.0 > 12e9, "{}", one.bytes);
    assert!(many.bytes / 2.0 > 46e9);
}

#[test]
fn a_prompt_fed_in_chunks_reads_the_weights_once_per_chunk() {
    let moe = Catalog::builtin().resolve("Qwen/Qwen3-30B-A3B").unwrap().spec;
    let chunked = |seq: u32, chunk: Option<u32>| {
        let req = PerfRequest {
            prompt_chunk: chunk,
            ..PerfRequest::new(Precision::Q8_0, Workload::Prefill, 1, seq)
        };
        runtime_step_cost(&moe, &req, Runtime::LlamaCpp).unwrap()
    };
    // 2,048 tokens in llama.cpp's 512-token physical batches: four passes, each reaching every
    // expert (512 tokens × 8 of 128 experts), so the weights are read four times; the FLOPs stay.
    let whole = step_cost(&moe, Precision::Q8_0, Workload::Prefill, 1, 2048).unwrap();
    let four = chunked(2048, None);
    assert_eq!((whole.passes, four.passes), (1, 4));
    assert!(
        (four.weight_bytes / whole.weight_bytes - 4.0).abs() < 1e-3,
        "{}",
        four.weight_bytes / whole.weight_bytes
    );
    assert!((four.bytes - four.weight_bytes - (whole.bytes - whole.weight_bytes)).abs() < 1.0);
    assert!((four.flops - whole.flops).abs() < 1.0);
    // A prompt no longer than a chunk is one pass; a runtime without chunks reads once.
    assert_eq!(
        chunked(512, None),
        step_cost(&moe, Precision::Q8_0, Workload::Prefill, 1, 512).unwrap()
    );
    let req = PerfRequest::new(Precision::Q8_0, Workload::Prefill, 1, 2048);
    assert_eq!(runtime_step_cost(&moe, &req, Runtime::TensorRt).unwrap(), whole);
    // Eager PyTorch reads the weights once too, and streams each call's tensors besides.
    let eager = runtime_step_cost(&moe, &req, Runtime::Pytorch).unwrap();
    assert_eq!((eager.weight_bytes, eager.passes), (whole.weight_bytes, 1));
    assert!(eager.bytes > whole.bytes);
    // One token per pass: each pass reads what a decode step reads (the 8 experts one token picks).
    let decode = step_cost(&moe, Precision::Q8_0, Workload::Decode, 1, 1).unwrap();
    let single = chunked(64, Some(1));
    assert_eq!(single.passes, 64);
    assert!((single.weight_bytes / 64.0 - decode.weight_bytes).abs() / decode.weight_bytes < 1e-9);
    // The prediction says so, and each pass pays the per-pass overhead.
    let device = DeviceCatalog::builtin().resolve("GB10").unwrap().clone();
    let model = PerfModel::builtin().unwrap();
    let p = model
        .predict(
            &moe,
            &device,
            &PerfRequest::new(Precision::Q8_0, Workload::Prefill, 1, 2048),
        )
        .unwrap();
    assert_eq!(p.prompt_passes, Some(super::PromptPasses { chunk: 512, passes: 4 }));
    assert!(p
        .prompt_passes_explanation()
        .unwrap()
        .starts_with("prompt in 4 passes of 512 tokens"));
    let err = model
        .predict(
            &moe,
            &device,
            &PerfRequest {
                prompt_chunk: Some(0),
                ..PerfRequest::new(Precision::Q8_0, Workload::Prefill, 1, 2048)
            },
        )
        .unwrap_err();
    assert!(
        alloc::string::ToString::to_string(&err).contains("must be at least 1"),
        "{err}"
    );
}

/// An explicit prompt chunk is the asked runtime's setting: in the comparison it also applies to
/// runtimes that feed prompts in chunks, while runtimes that take a prompt whole keep it whole.
#[test]
fn a_prompt_chunk_applies_to_the_runtimes_that_feed_chunks() {
    let spec = Catalog::builtin().resolve("llama 3 8b").unwrap().spec;
    let device = DeviceCatalog::builtin().resolve("H100 SXM").unwrap().clone();
    let model = PerfModel::builtin().unwrap();
    let req = PerfRequest {
        runtime: Some(Runtime::LlamaCpp),
        prompt_chunk: Some(128),
        ..PerfRequest::new(Precision::Fp16, Workload::Prefill, 1, 2048)
    };
    let on = |runtime: Runtime, prompt_chunk: Option<u32>| {
        model
            .predict(
                &spec,
                &device,
                &PerfRequest {
                    runtime: Some(runtime),
                    prompt_chunk,
                    ..req
                },
            )
            .unwrap()
            .throughput
    };
    let comparison = model.runtime_comparison(&spec, &device, &req);
    let of = |runtime: Runtime| comparison.iter().find(|o| o.runtime == runtime).unwrap().throughput;
    assert!((of(Runtime::LlamaCpp) - on(Runtime::LlamaCpp, Some(128))).abs() < 1e-9);
    assert!((of(Runtime::Pytorch) - on(Runtime::Pytorch, None)).abs() < 1e-9);
    assert!((on(Runtime::Pytorch, Some(128)) - on(Runtime::Pytorch, None)).abs() > 1e-6);
    // Asked of PyTorch itself, the chunk is PyTorch's.
    let asked = PerfRequest {
        runtime: Some(Runtime::Pytorch),
        ..req
    };
    let comparison = model.runtime_comparison(&spec, &device, &asked);
    let pytorch = comparison.iter().find(|o| o.runtime == Runtime::Pytorch).unwrap();
    assert!((pytorch.throughput - on(Runtime::Pytorch, Some(128))).abs() < 1e-9);
}

#[test]
fn throughput_never_exceeds_the_roofline_and_units_follow_the_workload() {
    let p = predict("llama 3 8b", "RTX 4090", Precision::Q4KM, Workload::Decode, 1, 512);
    assert!(p.throughput <= p.roofline_throughput);
    assert_eq!(p.throughput_unit, ThroughputUnit::Tokens);
    assert_eq!(p.bound, Bound::Memory);
    let f = predict("bert-base-uncased", "T4", Precision::Fp16, Workload::Forward, 32, 128);
    assert_eq!(f.throughput_unit, ThroughputUnit::Items);
    assert!(f.throughput <= f.roofline_throughput);
}

#[test]
fn big_models_do_not_fit_small_cards() {
    let p = predict("llama 3 70b", "RTX 4090", Precision::Fp16, Workload::Decode, 1, 512);
    assert!(!p.fits_in_memory);
    assert!(p.memory_usage > 130_000.0);
    let q = predict("llama 3 70b", "H200", Precision::Fp16, Workload::Decode, 1, 512);
    assert!(q.fits_in_memory);
}

#[test]
fn decode_on_an_encoder_is_refused() {
    let spec = Catalog::builtin().resolve("bert-base-uncased").unwrap().spec;
    let err = step_cost(&spec, Precision::Fp32, Workload::Decode, 1, 128).unwrap_err();
    assert!(alloc::string::ToString::to_string(&err).contains("workload decode needs a model that generates text"));
}

#[test]
fn fitting_recovers_known_coefficients() {
    // Synthetic samples generated from known coefficients must give them back.
    let truth = Efficiency {
        compute: 0.4,
        memory: 0.7,
        overhead_ms: 2.0,
    };
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let mut samples = alloc::vec::Vec::new();
    for (i, device) in ["RTX 4090", "A100 PCIe", "L40", "RTX 3090"].iter().enumerate() {
        let device = devices.resolve(device).unwrap();
        for (model, workload, seq) in [
            ("llama 2 7b", Workload::Decode, 64),
            ("llama 3 8b", Workload::Prefill, 512),
            ("llama 3 8b", Workload::Decode, 256),
        ] {
            let spec = catalog.resolve(model).unwrap().spec;
            let req = PerfRequest {
                precision: Precision::Q4_0,
                workload,
                batch_size: 1,
                seq_length: seq,
                runtime: None,
                prompt_chunk: None,
                mixed_precision: None,
            };
            let mut s = fit::Sample::new(&spec, device, &req, 1.0, alloc::format!("{i}")).unwrap();
            s.measured = s.predict(&truth);
            samples.push(s);
        }
    }
    let fitted = fit::fit(&samples, "synthetic");
    let got = fitted.generate.by_hardware[&HardwareType::Cuda];
    assert!(
        (got.compute - 0.4).abs() < 0.01 && (got.memory - 0.7).abs() < 0.01 && (got.overhead_ms - 2.0).abs() < 0.05,
        "{got:?}"
    );
    assert!(fit::accuracy(&fitted, &samples).within_25_percent > 0.99);
}

/// A residual model with a fixed answer, for the rules around it.
#[derive(Debug)]
struct FixedCorrection {
    correction: Result<f64, String>,
    domain: learned::LearnedDomain,
}

impl ResidualModel for FixedCorrection {
    fn log_correction(&self, _features: &[f32]) -> Result<f64, String> {
        self.correction.clone()
    }
    fn admits(&self, hardware: HardwareType, class: WorkloadClass, features: &[f32]) -> bool {
        self.domain.admits(hardware, class, features).is_ok()
    }
    fn describe(&self) -> &'static str {
        "fixed"
    }
}

fn with_correction(correction: Result<f64, String>, cells: Vec<(HardwareType, WorkloadClass)>) -> PerfModel {
    let domain = learned::LearnedDomain {
        cells,
        ranges: Vec::new(),
        margin: 0.0,
    };
    PerfModel::builtin()
        .unwrap()
        .with_learned(Some(Arc::new(FixedCorrection { correction, domain })))
}

#[test]
fn the_learned_correction_applies_inside_its_domain_only() {
    let spec = Catalog::builtin().resolve("gpt2").unwrap().spec;
    let cuda = DeviceCatalog::builtin().resolve("rtx-4090").unwrap().clone();
    let cpu = DeviceCatalog::builtin().resolve("amd-epyc-9654").unwrap().clone();
    let req = PerfRequest::new(Precision::Fp16, Workload::Decode, 1, 128);
    let decode = WorkloadClass::of(Workload::Decode);
    // ln 2 (rounded to 1e-4): twice the analytic throughput, on CUDA decode only.
    let model = with_correction(Ok(core::f64::consts::LN_2), alloc::vec![(HardwareType::Cuda, decode)]);
    let analytic = PerfModel::builtin().unwrap().predict(&spec, &cuda, &req).unwrap();
    let learned = model.predict(&spec, &cuda, &req).unwrap();
    assert_eq!(learned.source, PredictionSource::Learned);
    assert_eq!(learned.analytic_throughput, Some(analytic.throughput));
    let ratio = learned.throughput / analytic.throughput;
    assert!((ratio - 2.0).abs() < 1e-3, "{ratio}");
    assert_eq!(learned.runtime, Runtime::LlamaCpp);
    // Outside the domain (CPU), the analytic model answers.
    let on_cpu = model.predict(&spec, &cpu, &req).unwrap();
    assert_ne!(on_cpu.source, PredictionSource::Learned);
    assert_eq!(on_cpu.analytic_throughput, None);
    // An error or a non-finite answer falls back; a huge one is clamped to ×e³.
    let failing = with_correction(Err("boom".into()), alloc::vec![(HardwareType::Cuda, decode)]);
    assert_eq!(failing.predict(&spec, &cuda, &req).unwrap().source, analytic.source);
    let nan = with_correction(Ok(f64::NAN), alloc::vec![(HardwareType::Cuda, decode)]);
    assert_eq!(nan.predict(&spec, &cuda, &req).unwrap(), analytic);
    let huge = with_correction(Ok(50.0), alloc::vec![(HardwareType::Cuda, decode)])
        .predict(&spec, &cuda, &req)
        .unwrap();
    // A huge correction is clamped to ×e³, and never lifts the step above its roofline.
    let clamped = huge.throughput / analytic.throughput;
    let expected = libm::fmin(
        libm::exp(learned::MAX_LOG_CORRECTION),
        analytic.roofline_throughput / analytic.throughput,
    );
    assert!((clamped - expected).abs() / clamped < 1e-3, "{clamped} vs {expected}");
    assert!(huge.throughput <= huge.roofline_throughput);
}

#[test]
fn no_runtime_lifts_a_step_above_its_roofline() {
    let catalog = Catalog::builtin();
    let devices = DeviceCatalog::builtin();
    let model = PerfModel::builtin().unwrap();
    let mut checked = 0;
    for entry in catalog.entries().iter().step_by(3) {
        let spec = entry.spec();
        for device in devices.curated().iter().step_by(4) {
            for &runtime in Runtime::ALL {
                for workload in [Workload::Forward, Workload::Decode, Workload::TrainStep] {
                    for batch in [1, 32] {
                        let req = PerfRequest {
                            runtime: Some(runtime),
                            ..PerfRequest::new(Precision::Fp16, workload, batch, 128)
                        };
                        let Ok(p) = model.predict(spec, device, &req) else {
                            continue;
                        };
                        assert!(
                            p.throughput <= p.roofline_throughput * (1.0 + 1e-9),
                            "{} on {} with {runtime}: {} above its roofline {}",
                            spec.name,
                            device.id,
                            p.throughput,
                            p.roofline_throughput
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn eager_pytorch_at_batch_1_is_host_bound_and_slower_than_tensorrt() {
    let spec = Catalog::builtin().resolve("bert-base-uncased").unwrap().spec;
    let h100 = DeviceCatalog::builtin().resolve("h100-sxm").unwrap().clone();
    let model = PerfModel::builtin().unwrap();
    let on = |runtime| {
        let req = PerfRequest {
            runtime: Some(runtime),
            ..PerfRequest::new(Precision::Fp32, Workload::Forward, 1, 128)
        };
        model.predict(&spec, &h100, &req).unwrap()
    };
    let (eager, tensorrt) = (on(Runtime::Pytorch), on(Runtime::TensorRt));
    assert_eq!(eager.bound, Bound::Host);
    // TensorRT runs a built engine: far less host time per operator than eager dispatch.
    let (e, t) = (eager.host_costs.unwrap(), tensorrt.host_costs.unwrap());
    assert!(t.operator_us < e.operator_us / 4.0, "{t:?} vs {e:?}");
    assert!(
        eager.bound_explanation().starts_with("host-bound: 285 operators"),
        "{}",
        eager.bound_explanation()
    );
    assert!(eager.throughput < tensorrt.throughput);
    assert_eq!(eager.coefficient_source, CoefficientSource::Runtime);
    // Its eager step is no faster at batch 1 than the fitted per-step host cost allows (the latency
    // is rounded to four significant digits).
    let h = eager.host_costs.unwrap();
    assert!(eager.latency >= (h.step_ms + h.operators_ms) * (1.0 - 1e-3));
}

#[test]
fn a_runtime_fitted_on_forward_passes_answers_decode_with_the_class_coefficients() {
    let model = PerfModel::builtin().unwrap();
    let fit = model
        .coefficients()
        .runtime(Runtime::TensorRt, HardwareType::Cuda)
        .unwrap();
    assert!(
        !fit.covers(Workload::Decode),
        "TensorRT's rows are forward passes: {:?}",
        fit.workloads
    );
    let spec = Catalog::builtin().resolve("meta-llama/Llama-3.1-8B").unwrap().spec;
    let h100 = DeviceCatalog::builtin().resolve("h100-sxm").unwrap().clone();
    let on = |workload| {
        let req = PerfRequest {
            runtime: Some(Runtime::TensorRt),
            ..PerfRequest::new(Precision::Bf16, workload, 1, 512)
        };
        model.predict(&spec, &h100, &req).unwrap()
    };
    assert_eq!(on(Workload::Prefill).coefficient_source, CoefficientSource::Runtime);
    let decode = on(Workload::Decode);
    assert_ne!(decode.coefficient_source, CoefficientSource::Runtime);
    // Decode streams the weights, at a share its forward passes never measured.
    assert!(decode.throughput < decode.roofline_throughput * 0.95, "{decode:?}");
}

#[test]
fn mlx_formats_are_answered_by_mlx_on_apple_gpus_only() {
    let model = PerfModel::builtin().unwrap();
    let spec = Catalog::builtin().resolve("meta-llama/Llama-3.1-8B").unwrap().spec;
    let devices = DeviceCatalog::builtin();
    let req = PerfRequest::new(Precision::Mlx4, Workload::Decode, 1, 1024);
    let mac = devices.resolve("apple-m2-max-38c").unwrap();
    let p = model.predict(&spec, mac, &req).unwrap();
    assert_eq!(p.runtime, Runtime::Mlx);
    assert_eq!(
        p.coefficient_source,
        CoefficientSource::Runtime,
        "MLX is fitted on Apple GPUs"
    );
    // 4 bits + a 16-bit scale and bias per 64 weights.
    assert!(p.bytes_per_step > spec.parameters() as f64 * 4.5 / 8.0 * 0.9, "{p:?}");
    assert!(p.throughput <= p.roofline_throughput);
    let h100 = devices.resolve("h100-sxm").unwrap();
    assert!(model.predict(&spec, h100, &req).is_err(), "MLX runs on Apple silicon");
}

#[test]
fn a_training_step_names_a_runtime_that_trains() {
    let spec = Catalog::builtin().resolve("bert-base-uncased").unwrap().spec;
    let h100 = DeviceCatalog::builtin().resolve("h100-sxm").unwrap().clone();
    let p = PerfModel::builtin()
        .unwrap()
        .predict(
            &spec,
            &h100,
            &PerfRequest::new(Precision::Fp16, Workload::TrainStep, 32, 128),
        )
        .unwrap();
    assert_eq!(p.runtime, Runtime::Pytorch);
    assert_eq!(p.source, PredictionSource::AnalyticModel);
    // The comparison lists only runtimes that train: an inference engine's "training step" would
    // be the forward pass's physics with nothing to say it cannot happen.
    let model = PerfModel::builtin().unwrap();
    let req = PerfRequest::new(Precision::Fp16, Workload::TrainStep, 32, 128);
    let compared = model.runtime_comparison(&spec, &h100, &req);
    assert!(compared.iter().any(|o| o.runtime == Runtime::Pytorch), "{compared:?}");
    assert!(compared.iter().all(|o| o.runtime.trains()), "{compared:?}");
    assert!(
        compared.iter().all(|o| o.runtime != Runtime::OnnxRuntime),
        "ONNX Runtime trains but was never measured training: {compared:?}"
    );
    // Asked of TensorRT, a training step is refused with the runtimes that train.
    let err = model
        .predict(
            &spec,
            &h100,
            &PerfRequest {
                runtime: Some(Runtime::TensorRt),
                ..req
            },
        )
        .unwrap_err();
    assert_eq!(
        alloc::string::ToString::to_string(&err),
        "tensorrt does not train: a training step runs on pytorch, pytorch-compiled, onnxruntime, onnxruntime-web, mlx"
    );
}

#[test]
fn a_cnn_ignores_the_sequence_length() {
    let spec = Catalog::builtin().resolve("microsoft/resnet-50").unwrap().spec;
    let devices = DeviceCatalog::builtin();
    let model = PerfModel::builtin().unwrap();
    for id in ["h100-sxm", "rtx-4090", "amd-epyc-9654"] {
        let device = devices.resolve(id).unwrap();
        let at = |seq| {
            model
                .predict(
                    &spec,
                    device,
                    &PerfRequest::new(Precision::Fp16, Workload::Forward, 8, seq),
                )
                .unwrap()
        };
        assert_eq!(at(1), at(512), "{id}");
        // Nor does the learned model's view of the step.
        let features = |seq| {
            let req = PerfRequest::new(Precision::Fp16, Workload::Forward, 8, seq);
            model.analytic_with_features(&spec, device, &req).unwrap().1
        };
        assert_eq!(features(1), features(512), "{id}");
    }
}

#[test]
fn compatibility_follows_the_runtime_not_only_the_hardware_type() {
    // An Intel Arc is an `openvino` device: OpenVINO reads no GGUF file, llama.cpp (SYCL, Vulkan)
    // does, so `q4_k_m` on it is answered under llama.cpp and refused under OpenVINO.
    let spec = Catalog::builtin()
        .resolve("meta-llama/Llama-3.1-8B-Instruct")
        .unwrap()
        .spec;
    let arc = DeviceCatalog::builtin().resolve("intel-arc-b580").unwrap().clone();
    assert_eq!(arc.hardware_type, HardwareType::Openvino);
    let model = PerfModel::builtin().unwrap();
    let on = |runtime| {
        let req = PerfRequest {
            runtime,
            ..PerfRequest::new(Precision::Q4KM, Workload::Decode, 1, 512)
        };
        model.predict(&spec, &arc, &req)
    };
    for runtime in [Some(Runtime::LlamaCpp), None] {
        let p = on(runtime).unwrap();
        assert_eq!(p.runtime, Runtime::LlamaCpp);
        assert!(p.throughput > 0.0);
    }
    let refused = alloc::format!("{}", on(Some(Runtime::OpenVino)).unwrap_err());
    assert!(
        refused.contains("openvino does not support precision q4_k_m"),
        "{refused}"
    );
    // The hardware type's own list still decides for runtimes that use its stack, and for what
    // is not llama.cpp's own format.
    assert!(!Runtime::TensorRt.brings_kernels_for(Precision::Q4KM, HardwareType::Openvino));
    assert!(!Runtime::LlamaCpp.brings_kernels_for(Precision::Fp8, HardwareType::Cpu));
}

/// GGUF files in a browser's WebAssembly run on llama.cpp's WebAssembly build: its own threads
/// (wllama's half of the page's cores), its kernels' fitted shares (a k-quant's SIMD kernel beats
/// Q4_0's and an i-quant's generic C on one thread), and an estimate, never the learned correction.
#[test]
fn gguf_in_a_browsers_webassembly_runs_llama_cpps_build() {
    let catalog = DeviceCatalog::builtin();
    let model = PerfModel::builtin().unwrap();
    let spec = Catalog::builtin()
        .resolve("meta-llama/Llama-3.2-1B-Instruct")
        .unwrap()
        .spec;
    let shares = model
        .coefficients()
        .browser
        .as_ref()
        .and_then(|b| b.llama_cpp_wasm.as_ref())
        .expect("fitted llama.cpp WebAssembly kernels");
    let view = |words: &str| {
        let caps = crate::browser::BrowserCapabilities::describe(words).unwrap();
        crate::browser::browser_candidates(&caps, &catalog)
            .into_iter()
            .find(|c| c.key == "wasm")
            .unwrap()
            .device
    };
    let step = |device: &Device, precision: Precision, runtime: Option<Runtime>| {
        model
            .predict(
                &spec,
                device,
                &PerfRequest {
                    precision,
                    workload: Workload::Decode,
                    batch_size: 1,
                    seq_length: 100,
                    runtime,
                    prompt_chunk: None,
                    mixed_precision: None,
                },
            )
            .unwrap()
    };
    let one_thread = view("chromium");
    let k_quant = step(&one_thread, Precision::Q4KM, None);
    assert_eq!(k_quant.runtime, Runtime::LlamaCpp);
    assert_eq!(k_quant.source, PredictionSource::Estimate);
    assert!(k_quant.analytic_throughput.is_none(), "no learned correction");
    let legacy = step(&one_thread, Precision::Q4_0, None);
    let i_quant = step(&one_thread, Precision::Iq4Xs, None);
    assert!(k_quant.throughput > 1.5 * legacy.throughput, "{k_quant:?} {legacy:?}");
    assert!(k_quant.throughput > 1.5 * i_quant.throughput);
    // The share is the fitted one: compute time at the share is the step's time (compute-bound).
    let share = shares.share(Precision::Q4KM).unwrap();
    let peak = one_thread.dense_tflops.for_precision(Precision::Q4KM).0 * 1e12;
    let expected_ms = k_quant.flops_per_step / (peak * share) * 1e3;
    assert!(
        (k_quant.latency / expected_ms - 1.0).abs() < 1e-3,
        "{} vs {expected_ms}",
        k_quant.latency
    );
    // ONNX Runtime Web keeps its own share, whatever the format.
    let ort = step(&one_thread, Precision::Q4KM, Some(Runtime::OnnxRuntimeWeb));
    assert!((ort.throughput - k_quant.throughput).abs() > 0.1);
    // An isolated 16-core page: ONNX Runtime Web threads 4, wllama 8.
    let isolated = view("chromium, isolated, cores=16");
    assert_eq!(isolated.id, "wasm-4t-simd");
    let threaded = crate::browser::wasm_view_for(&isolated, Runtime::LlamaCpp);
    assert_eq!(threaded.id, "wasm-8t-simd");
    assert!(threaded.name.contains("8 threads"));
    let eight = step(&isolated, Precision::Q4KM, None);
    let four = step(&isolated, Precision::Q4KM, Some(Runtime::OnnxRuntimeWeb));
    assert!(eight.throughput > four.throughput);
    assert_eq!(
        crate::browser::wasm_view_for(&isolated, Runtime::OnnxRuntimeWeb).id,
        "wasm-4t-simd"
    );
}
