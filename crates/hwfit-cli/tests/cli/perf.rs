use crate::{run_err, run_json, run_ok};

/// Every curated device has an id, a hardware type, memory, bandwidth, an FP32 rate and a source;
/// the digest counts them per hardware type.
#[test]
fn devices_json() {
    let v = run_json(&["devices", "--json"]);
    let mut ids = std::collections::BTreeSet::new();
    let mut per_type = std::collections::BTreeMap::<String, usize>::new();
    for d in v.as_array().unwrap() {
        assert!(ids.insert(d["id"].as_str().unwrap().to_owned()), "{} twice", d["id"]);
        assert!(d["memory_gb"].as_f64().unwrap() > 0.0, "{d}");
        assert!(d["memory_bandwidth_gbs"].as_f64().unwrap() > 0.0, "{d}");
        assert!(d["dense_tflops"]["fp32"].as_f64().unwrap() > 0.0, "{d}");
        assert!(!d["source"].as_str().unwrap_or_default().is_empty(), "{d}");
        *per_type
            .entry(d["hardware_type"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    insta::assert_json_snapshot!(per_type);
}

#[test]
fn devices_table_filters_by_hardware() {
    let text = run_ok(&["devices", "--hardware", "mps"]);
    assert!(text.contains("apple-m2-ultra-76c"), "{text}");
    assert!(!text.contains("nvidia-h100-sxm"), "{text}");
}

#[test]
fn predict_llama_on_devices_and_hardware_json() {
    insta::assert_json_snapshot!(run_json(&[
        "predict",
        "--model",
        "Llama 3 8B",
        "--device",
        "RTX 4090",
        "--device",
        "M2 Ultra 76-core",
        "--hardware",
        "cuda,cpu",
        "--precision",
        "q4_k_m",
        "--workload",
        "decode",
        "--seq-length",
        "512",
        "--json"
    ]));
}

#[test]
fn predict_bert_forward_json() {
    insta::assert_json_snapshot!(run_json(&[
        "predict",
        "--model",
        "bert-base-uncased",
        "--device",
        "T4",
        "--precision",
        "fp16",
        "--batch-size",
        "32",
        "--json"
    ]));
}

/// PyTorch's fp32 convolutions run on TF32 tensor cores where the GPU has them (cuDNN's default):
/// ResNet-50 in fp32 on an H200 is faster than at the FP32 rate, says why, and stays under the
/// roofline of the rates it runs at; a T4 (no TF32) and BERT (matmuls stay fp32) do not move.
#[test]
fn pytorch_fp32_convolutions_run_at_the_tf32_rate() {
    let ask = |model: &str, device: &str| {
        run_json(&[
            "predict",
            model,
            "--device",
            device,
            "--runtime",
            "pytorch",
            "--precision",
            "fp32",
            "--batch-size",
            "256",
            "--no-detect",
            "--json",
        ])
    };
    let h200 = ask("microsoft/resnet-50", "nvidia-h200-sxm");
    let p = &h200["predictions"]["nvidia-h200-sxm"];
    let notes = h200["notes"].to_string();
    assert!(notes.contains("TF32"), "{notes}");
    let images_per_s = p["throughput"].as_f64().unwrap();
    // 8.18 GFLOP per image: the FP32 peak (67 TFLOP/s) alone would allow 8,200 images/s at most.
    assert!(images_per_s > 0.0 && images_per_s <= p["roofline_throughput"].as_f64().unwrap());
    assert!(p["roofline_throughput"].as_f64().unwrap() > 67e12 / 8.18e9, "{p}");
    for (model, device) in [("microsoft/resnet-50", "T4"), ("bert-base-uncased", "nvidia-h200-sxm")] {
        let other = ask(model, device);
        assert!(
            !other["notes"].to_string().contains("TF32"),
            "{model} on {device}: {other}"
        );
    }
}

#[test]
fn predict_reports_out_of_memory_with_the_numbers() {
    let v = run_json(&[
        "predict",
        "--model",
        "llama 3 70b",
        "--device",
        "RTX 4090",
        "--precision",
        "fp16",
        "--json",
    ]);
    let p = &v["predictions"]["nvidia-rtx-4090"];
    assert_eq!(p["fits_in_memory"], false);
    assert!(p["memory_usage"].as_f64().unwrap() > p["memory_capacity"].as_f64().unwrap());
    let text = run_ok(&[
        "predict",
        "--model",
        "llama 3 70b",
        "--device",
        "RTX 4090",
        "--precision",
        "fp16",
    ]);
    assert!(text.contains("NO"), "{text}");
}

#[test]
fn predict_errors() {
    assert!(run_err(&["predict", "--model", "gpt2", "--device", "RTX 9090"]).contains("unknown device 'RTX 9090'"));
    assert!(run_err(&["predict", "--model", "gpt2", "--device", "A100"]).contains("ambiguous device 'A100'"));
    assert!(run_err(&[
        "predict",
        "--model",
        "bert-base-uncased",
        "--hardware",
        "cuda",
        "--workload",
        "decode"
    ])
    .contains("needs a model that generates text"));
    assert!(run_err(&["predict", "--model", "gpt2", "--hardware", "qnn"]).contains("no reference device for qnn"));
    assert!(
        run_err(&["predict", "--model", "gpt2", "--device", "cpu", "--precision", "fp8"])
            .contains("cpu does not support precision fp8")
    );
}

/// A target that cannot run the step is listed with why, the others answered; a question no
/// target can answer is refused with the first one's error.
#[test]
fn a_target_that_refuses_leaves_the_others_answered() {
    const ASK: [&str; 6] = [
        "predict",
        "Qwen/Qwen3-8B",
        "--device",
        "EPYC 9654,H100 SXM",
        "--precision",
        "fp8",
    ];
    let answer = run_json(&[&ASK[..], &["--json"]].concat());
    assert!(answer["predictions"]["nvidia-h100-sxm"]["throughput"].as_f64().unwrap() > 0.0);
    assert!(answer["predictions"].get("amd-epyc-9654").is_none(), "{answer}");
    let why = answer["refused"]["amd-epyc-9654"].as_str().unwrap();
    assert!(why.starts_with("cpu does not support precision fp8"), "{why}");
    let text = run_ok(&ASK);
    assert!(
        text.contains("amd-epyc-9654: not predicted: cpu does not support precision fp8"),
        "{text}"
    );
    // Every target refusing: the error, not an empty answer.
    assert!(run_err(&[
        "predict",
        "Qwen/Qwen3-8B",
        "--hardware",
        "cpu,wasm",
        "--precision",
        "fp8"
    ])
    .contains("cpu does not support precision fp8"));
}

/// A CPU run on fewer threads than cores computes and reads at the part of the CPU it uses; GPUs
/// beside it are not touched, and a thread count with no CPU to describe is refused.
#[test]
fn threads_predict_the_part_of_a_cpu_a_run_uses() {
    let predict = |threads: Option<&str>| {
        let mut args = vec![
            "predict",
            "llama-3.1-8b",
            "--precision",
            "q4_k_m",
            "--device",
            "EPYC 9654,H100 SXM",
            "--json",
        ];
        if let Some(t) = threads {
            args.extend(["--threads", t]);
        }
        run_json(&args)
    };
    let (all, four) = (predict(None), predict(Some("4")));
    let throughput = |v: &serde_json::Value, key: &str| v["predictions"][key]["throughput"].as_f64().unwrap();
    let (cpu_all, cpu_four) = (throughput(&all, "amd-epyc-9654"), throughput(&four, "amd-epyc-9654"));
    assert!(cpu_four < cpu_all / 2.0, "4 of 96 cores: {cpu_four} vs {cpu_all}");
    assert_eq!(
        four["predictions"]["amd-epyc-9654"]["device"],
        "AMD EPYC 9654 (Genoa) (4 of 96 cores)"
    );
    let value = |v: &serde_json::Value, key: &str| v["predictions"][key]["throughput"].clone();
    assert_eq!(value(&all, "nvidia-h100-sxm"), value(&four, "nvidia-h100-sxm"));
    // Every core (or more threads than cores) is the whole CPU.
    assert_eq!(
        value(&predict(Some("192")), "amd-epyc-9654"),
        value(&all, "amd-epyc-9654")
    );
    assert!(run_err(&["predict", "gpt2", "--device", "H100 SXM", "--threads", "8"]).contains("no target is a CPU"));
    assert!(run_err(&["predict", "gpt2", "--device", "EPYC 9654", "--threads", "0"]).contains("at least 1"));
}

/// The coefficients the core embeds must be exactly what the documented fit produces from the
/// measured data (so no one tunes them by hand), and the fit's accuracy is reported.
#[test]
#[allow(clippy::print_stdout)]
fn stored_coefficients_are_the_fit_and_accuracy_is_reported() {
    let report = run_json(&["fit", "--json"]);
    check_fit_report(&report);
    let stored: serde_json::Value =
        serde_json::from_str(include_str!("../../../hwfit-core/data/perf_fit.json")).unwrap();
    assert_eq!(
        report["coefficients"], stored,
        "run `hwfit fit --write crates/hwfit-core/data/perf_fit.json`"
    );
    let (ins, cv) = (&report["in_sample"], &report["cross_validated_by_device"]);
    println!(
        "performance model fit on {} measurements: in-sample {:.0} % within ±25 %, median |ln error| {:.3}; leave-one-device-out {:.0} % within ±25 %, median |ln error| {:.3}",
        ins["samples"], ins["within_25_percent"].as_f64().unwrap() * 100.0, ins["median_abs_log_error"].as_f64().unwrap(),
        cv["within_25_percent"].as_f64().unwrap() * 100.0, cv["median_abs_log_error"].as_f64().unwrap()
    );
    for r in report["runtimes"]["runtimes"].as_array().unwrap() {
        let share = |a: &serde_json::Value| {
            format!(
                "{:.0} % within ±25 % (median ×{:.2})",
                a["within_25_percent"].as_f64().unwrap() * 100.0,
                a["median_abs_log_error"].as_f64().unwrap().exp()
            )
        };
        let what = format!(
            "runtime step model {} on {}: {} rows, {} devices, {} sources",
            r["runtime"], r["hardware"], r["rows"], r["devices"], r["sources"]
        );
        let median = |k: &str| r[k]["median_abs_log_error"].as_f64().unwrap();
        let held_out_beats_class = |k: &str| r[k]["samples"].as_u64().unwrap() > 0 && median(k) < median("class_model");
        let beats = held_out_beats_class("leave_one_source_out") || held_out_beats_class("leave_one_device_out");
        if r["fitted"] == true {
            // A runtime keeps coefficients of its own only where they predict held-out rows better
            // than the class model.
            assert!(beats, "{r}");
            println!(
                "{what}: in-sample {}; leave-one-source-out {}; leave-one-device-out {}",
                share(&r["in_sample"]),
                share(&r["leave_one_source_out"]),
                share(&r["leave_one_device_out"])
            );
        } else if r["leave_one_device_out"]["samples"].as_u64().unwrap() > 0 {
            assert!(!beats, "{r}");
            println!(
                "{what}: its own fit predicts held-out rows worse than the class model (leave-one-device-out {} against {}): class coefficients",
                share(&r["leave_one_device_out"]),
                share(&r["class_model"])
            );
        } else {
            println!("{what}: too few for a fit of its own (6 rows from 2 devices and 2 sources)");
        }
    }
    let pytorch = report["runtimes"]["runtimes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["runtime"] == "pytorch" && r["hardware"] == "cuda")
        .expect("PyTorch on CUDA has measurements");
    assert_eq!(pytorch["fitted"], true);
    assert!(pytorch["sources"].as_u64().unwrap() >= 5, "{pytorch}");
    // Each source's harness has its own per-step cost; a prediction carries the model call's, a
    // weighted mean of the runner records' machines.
    let harness = pytorch["harness_costs"].as_array().unwrap();
    assert_eq!(harness.len() as u64, pytorch["sources"].as_u64().unwrap());
    let runner: Vec<f64> = harness
        .iter()
        .filter(|h| h["source"].as_str().unwrap().starts_with("hwfit bench, "))
        .map(|h| h["step_ms"].as_f64().unwrap())
        .collect();
    let step = stored["runtimes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == "pytorch" && c["hardware"] == "cuda")
        .unwrap()["step_ms"]
        .as_f64()
        .unwrap();
    let (lo, hi) = runner
        .iter()
        .fold((f64::MAX, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
    assert!(runner.len() >= 2 && (lo..=hi).contains(&step), "{step} vs {runner:?}");
    let browser = &report["browser"];
    let right = browser["right_leave_one_source_out"].as_f64().unwrap();
    println!(
        "browser step model against {} WebGPU/WASM pairs ({} with a faster back-end): right back-end {:.0} % in-sample, {:.0} % leaving each source out; median |ln speed-up error| {:.2}",
        browser["cases"], browser["decided"],
        browser["right_in_sample"].as_f64().unwrap() * 100.0, right * 100.0,
        browser["median_abs_log_error"].as_f64().unwrap()
    );
    assert!(browser["cases"].as_u64().unwrap() >= 30, "at least 30 measured pairs");
    assert!(
        right >= 0.8,
        "the faster back-end must be the measured one in ≥ 80 % of the pairs"
    );
    let memory = &report["memory"];
    println!(
        "memory estimates against {} web-llm figures: {:.0} % within ±25 %, median |ln error| {:.3}; fitted WebGPU allowance {} MB",
        memory["samples"].as_array().unwrap().len(),
        memory["within_25_percent"].as_f64().unwrap() * 100.0,
        memory["median_abs_log_error"].as_f64().unwrap(),
        memory["webgpu_runtime_overhead_mb"]
    );
    let fitted = memory["webgpu_runtime_overhead_mb"].as_f64().unwrap();
    assert!(
        (fitted - hwfit_core_webgpu_overhead()).abs() < 0.5,
        "update HardwareType::runtime_overhead_mb to {fitted}"
    );
    assert!(memory["median_abs_log_error"].as_f64().unwrap() <= 0.1);
    // The device database predicts nearly as well as the curated catalog: each measured curated
    // device predicted from its database row alone (specs and derived rates only).
    let twins = &report["database_twins"];
    let (database, curated) = (
        twins["database"]["within_25_percent"].as_f64().unwrap(),
        twins["curated"]["within_25_percent"].as_f64().unwrap(),
    );
    println!(
        "device database: {} measured curated devices ({} measurements) predicted from their database rows alone: {:.1} % within ±25 % (median |ln error| {:.3}); on the curated entries {:.1} % ({:.3}); leave-one-device-out",
        twins["devices"].as_array().unwrap().len(),
        twins["curated"]["samples"],
        database * 100.0,
        twins["database"]["median_abs_log_error"].as_f64().unwrap(),
        curated * 100.0,
        twins["curated"]["median_abs_log_error"].as_f64().unwrap(),
    );
    assert!(twins["devices"].as_array().unwrap().len() >= 10, "{twins}");
    assert!(
        curated - database <= 0.05,
        "a database device must predict within 5 points of a curated one: {twins}"
    );
    // Regression guard at the accuracy recorded in the README.
    assert!(cv["within_25_percent"].as_f64().unwrap() >= 0.52);
    assert!(cv["median_abs_log_error"].as_f64().unwrap() <= 0.2);
}

/// The WebGPU allowance the core uses, as `hwfit resources` reports it.
fn hwfit_core_webgpu_overhead() -> f64 {
    let v = run_json(&["resources", "gpt2", "--hardware", "webgpu", "--json"]);
    v["resource_requirements"]["breakdown"]["runtime_overhead_mb"]
        .as_f64()
        .unwrap()
}

/// The fit's report (`v`, from the stored-coefficients test: the fit takes a minute or two in a
/// debug build, so it runs once): accuracy figures are shares and errors in range, every residual
/// names its device; the digest is the summary (samples and accuracy of each part), not the residuals.
fn check_fit_report(v: &serde_json::Value) {
    let share = |x: &serde_json::Value| {
        let x = x.as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x) || (0.0..=100.0).contains(&x), "{x}");
    };
    for part in ["in_sample", "cross_validated_by_device", "memory"] {
        share(&v[part]["within_25_percent"]);
        assert!(v[part]["median_abs_log_error"].as_f64().unwrap() >= 0.0);
    }
    for r in v["residuals"].as_array().unwrap() {
        assert!(r.is_object(), "{r}");
    }
    assert_eq!(
        v["residuals"].as_array().unwrap().len() as u64,
        v["in_sample"]["samples"].as_u64().unwrap()
    );
    let r3 = |x: &serde_json::Value| (x.as_f64().unwrap() * 1000.0).round() / 1000.0;
    let accuracy = |a: &serde_json::Value| {
        serde_json::json!({ "samples": a["samples"], "within_25_percent": r3(&a["within_25_percent"]),
                            "median_abs_log_error": r3(&a["median_abs_log_error"]) })
    };
    let digest = serde_json::json!({
        "in_sample": accuracy(&v["in_sample"]),
        "cross_validated_by_device": accuracy(&v["cross_validated_by_device"]),
        "memory": { "samples": v["memory"]["samples"].as_array().unwrap().len(),
                    "within_25_percent": r3(&v["memory"]["within_25_percent"]) },
        "browser": { "cases": v["browser"]["cases"], "right_in_sample": r3(&v["browser"]["right_in_sample"]),
                     "right_leave_one_source_out": r3(&v["browser"]["right_leave_one_source_out"]) },
        "excluded": v["excluded"].as_array().unwrap().len(),
    });
    insta::assert_json_snapshot!("fit_json", digest);
}

#[test]
fn a_device_spec_is_predicted_on_beside_catalog_devices() {
    let spec = r#"{"name": "Lab Box", "hardware_type": "cuda", "memory_gb": 48, "memory_bandwidth_gbs": 864,
        "dense_tflops": {"fp32": 91.6, "fp16": 181}}"#;
    let v = run_json(&[
        "predict",
        "gpt2",
        "--device-spec",
        spec,
        "--device",
        "rtx 4090",
        "--json",
    ]);
    let lab = &v["predictions"]["spec-lab-box"];
    assert_eq!(lab["device"], "Lab Box");
    assert!(lab["throughput"].as_f64().unwrap() > 0.0);
    assert!(v["predictions"]["nvidia-rtx-4090"].is_object());
    // From a file too; select ranks it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("box.json");
    std::fs::write(&path, spec).unwrap();
    let s = run_json(&[
        "select",
        "gpt2",
        "--device-spec",
        path.to_str().unwrap(),
        "--hardware",
        "cpu",
        "--json",
    ]);
    assert!(s["all_scores"]["spec-lab-box"].is_object(), "{s}");
    let e = run_err(&[
        "predict",
        "gpt2",
        "--device-spec",
        r#"{"hardware_type": "cuda", "memory_gb": 48, "memory_bandwidth_gbs": 864, "dense_tflops": {"fp32": -1}}"#,
    ]);
    assert!(e.contains("device_spec.dense_tflops.fp32"), "{e}");
    let e = run_err(&[
        "predict",
        "gpt2",
        "--device-spec",
        r#"{"hardware_type": "cuda", "memory": 48}"#,
    ]);
    assert!(
        e.contains("not a device spec") && e.contains("unknown field `memory`"),
        "{e}"
    );
}

/// `hwfit bench` builds the model's graph, runs it through tract here and reports real timings;
/// `hwfit train --output` writes the three files; a bad bench request is a clear error.
#[test]
fn bench_and_train_run_end_to_end() {
    let b = run_json(&[
        "bench",
        "--model",
        "sentence-transformers/all-MiniLM-L6-v2",
        "--batch-sizes",
        "1",
        "--seq-lengths",
        "16",
        "--budget-ms",
        "50",
        "--no-microbenchmark",
        "--no-store",
        "--json",
    ]);
    assert_eq!(
        (b["runtime"].as_str(), b["execution"].as_str()),
        (Some("tract"), Some("tract optimized plan"))
    );
    let r = &b["records"][0];
    assert_eq!(r["workload"], "forward");
    assert!(r["latency_p50_ms"].as_f64().unwrap() > 0.0 && r["throughput"].as_f64().unwrap() > 0.0);
    assert!(r["timed_runs"].as_u64().unwrap() >= 3);
    assert!(
        r["device_profile"]["dense_tflops"]["fp32"].as_f64().unwrap() > 0.0,
        "{}",
        r["device_profile"]
    );
    let err = run_err(&["bench", "--model", "no-such-model-xyz", "--no-store"]);
    assert!(err.contains("no-such-model-xyz"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine.onnx");
    let t = run_json(&[
        "--predictor",
        "none",
        "train",
        "--folds",
        "3",
        "--output",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(t["folds"], 3);
    assert!(t["combined"]["within_25_percent"].as_f64().unwrap() > 0.0);
    for file in ["mine.onnx", "mine.nnef.tar", "mine.reference.json"] {
        assert!(dir.path().join(file).metadata().unwrap().len() > 100, "{file}");
    }
    // The trained model answers predictions.
    let p = run_json(&[
        "--predictor",
        out.to_str().unwrap(),
        "predict",
        "Llama 3 8B",
        "--device",
        "rtx 4090",
        "--precision",
        "q4_k_m",
        "--json",
    ]);
    assert!(p["predictions"]["nvidia-rtx-4090"]["throughput"].as_f64().unwrap() > 0.0);
}

/// A name that matches one card in two memory sizes is predicted on the smaller, and the answer
/// says in which sizes the step fits.
#[test]
fn predict_lists_the_fit_in_each_memory_size() {
    let v = run_json(&[
        "predict",
        "Llama 3 8B",
        "--device",
        "AMD Radeon RX 9060 XT",
        "--precision",
        "fp16",
        "--json",
    ]);
    let entry = v["predictions"].as_object().unwrap().values().next().unwrap().clone();
    assert_eq!(entry["device"], "AMD Radeon RX 9060 XT 8 GB");
    assert_eq!(entry["fits_in_memory"], false);
    let options = entry["memory_options"].as_array().unwrap();
    assert_eq!(options.len(), 2, "{entry}");
    assert_eq!(options[0]["memory_gb"], 8.0);
    assert_eq!(options[0]["fits_in_memory"], false);
    assert_eq!(options[1]["memory_gb"], 16.0);
    assert_eq!(options[1]["fits_in_memory"], true);
    let text = run_ok(&[
        "predict",
        "Llama 3 8B",
        "--device",
        "AMD Radeon RX 9060 XT",
        "--precision",
        "fp16",
    ]);
    assert!(text.contains("comes in 8 GB does NOT fit, 16 GB fits"), "{text}");
}

/// SAM 2 / 2.1 against the frames per second their README states (data/measured/
/// sam2_frames_held_out.csv, never fitted): compiled PyTorch in bf16 on an A100, one frame tracked
/// with a full memory bank; each within ±30 % (the ratios are in docs/models.md).
#[test]
fn sam2_video_frames_are_predicted_as_documented() {
    let csv = include_str!("../../../../data/measured/sam2_frames_held_out.csv");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (model, value) = (column("model"), column("value"));
    let mut rows = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let measured: f64 = record[value].parse().unwrap();
        let answer = run_json(&[
            "predict",
            "--model",
            &record[model],
            "--device",
            "a100-sxm-80gb",
            "--precision",
            "bf16",
            "--runtime",
            "pytorch-compiled",
            "--json",
        ]);
        let predictions = answer["predictions"].as_object().unwrap();
        let predicted = predictions.values().next().unwrap()["throughput"].as_f64().unwrap();
        let ratio = predicted / measured;
        assert!(
            (0.7..1.3).contains(&ratio),
            "{}: {predicted:.1} vs {measured} frames/s",
            &record[model]
        );
        rows += 1;
    }
    assert_eq!(rows, 8);
}

/// A question without `--precision` is answered at the checkpoint's own format — gpt-oss's MXFP4
/// from its catalog config, a dropped MLX config's 4-bit groups, an `-AWQ` upload's name — and says
/// so; a stated precision wins, and a model whose checkpoint states none stays at fp32.
#[test]
fn predictions_default_to_the_checkpoints_format() {
    let device = "NVIDIA H100 SXM5 80GB";
    let precision_and_notes = |args: &[&str]| {
        let v = run_json(args);
        let notes: Vec<String> = v["notes"]
            .as_array()
            .map(|n| n.iter().map(|s| s.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default();
        (v["precision"].as_str().unwrap().to_owned(), notes)
    };
    let (p, notes) = precision_and_notes(&["predict", "openai/gpt-oss-20b", "--device", device, "--json"]);
    assert_eq!(p, "mxfp4");
    assert!(notes.iter().any(|n| n.contains("quant_method 'mxfp4'")), "{notes:?}");
    let (p, notes) = precision_and_notes(&[
        "predict",
        "openai/gpt-oss-20b",
        "--device",
        device,
        "--precision",
        "bf16",
        "--json",
    ]);
    assert_eq!(p, "bf16");
    assert!(notes.iter().all(|n| !n.starts_with("precision")), "{notes:?}");
    let (p, _) = precision_and_notes(&["predict", "Qwen/Qwen3-8B-AWQ", "--device", device, "--json"]);
    assert_eq!(p, "awq");
    let mlx = crate::repo_root().join("tests/fixtures/quantized_configs/lmstudio-community__Qwen3-14B-4bit.json");
    let (p, notes) = precision_and_notes(&[
        "predict",
        "--model-config",
        mlx.to_str().unwrap(),
        "--device",
        "Apple M3 Max (40-core GPU)",
        "--json",
    ]);
    assert_eq!(p, "mlx_4bit");
    assert!(
        notes.iter().any(|n| n.contains("MLX affine, 4 bits in groups of 64")),
        "{notes:?}"
    );
    let (p, notes) = precision_and_notes(&["predict", "gpt2", "--device", device, "--json"]);
    assert_eq!(p, "fp32");
    assert!(notes.iter().all(|n| !n.starts_with("precision")), "{notes:?}");
    // The model's own description names the format.
    let text = run_ok(&["model", "openai/gpt-oss-20b"]);
    assert!(
        text.contains("checkpoint: mxfp4 (quantization_config: quant_method 'mxfp4')"),
        "{text}"
    );
}
