//! `hwfit bench` on each runtime: ONNX Runtime for real (the library from PyPI's wheel), llama.cpp
//! through real llama-bench output, PyTorch for real where a Python with torch is named, and the
//! errors of a runtime that is missing.

use std::path::{Path, PathBuf};

use super::{repo_root, run_err, run_json};

fn data(name: &str) -> PathBuf {
    repo_root().join("crates/hwfit-cli/tests/data").join(name)
}

/// An executable shell script in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The ONNX Runtime library of `ORT_DYLIB_PATH`; required when `HWFIT_REQUIRE_ONNXRUNTIME` is set.
fn onnxruntime() -> Option<String> {
    let lib = std::env::var("ORT_DYLIB_PATH").ok().filter(|p| !p.is_empty());
    assert!(
        lib.is_some() || std::env::var_os("HWFIT_REQUIRE_ONNXRUNTIME").is_none(),
        "HWFIT_REQUIRE_ONNXRUNTIME is set but ORT_DYLIB_PATH is not"
    );
    lib
}

/// A real ONNX Runtime measures a decoder's prefill and decode on the CPU: one record per case,
/// with ONNX Runtime's version and execution provider, this host's CPU profile and its facts.
#[test]
fn onnx_runtime_measures_on_the_cpu() {
    let Some(lib) = onnxruntime() else { return };
    let b = run_json(&[
        "bench",
        "--runtime",
        "onnxruntime",
        "--onnxruntime-lib",
        &lib,
        "--model",
        "HuggingFaceTB/SmolLM2-135M-Instruct",
        "--batch-sizes",
        "1",
        "--seq-lengths",
        "8",
        "--threads",
        "1",
        "--budget-ms",
        "50",
        "--no-microbenchmark",
        "--no-store",
        "--json",
    ]);
    assert_eq!(b["runtime"], "ONNX Runtime");
    assert_eq!(b["execution"], "CPUExecutionProvider");
    assert!(b["runtime_version"].as_str().unwrap().starts_with("1."), "{b}");
    let records = b["records"].as_array().unwrap();
    assert_eq!(records.len(), 2, "prefill and decode");
    for r in records {
        assert_eq!(r["runtime"], "ONNX Runtime");
        assert_eq!(
            (r["hardware_type"].as_str(), r["precision"].as_str()),
            (Some("cpu"), Some("fp32"))
        );
        assert!(r["throughput"].as_f64().unwrap() > 0.0 && r["timed_runs"].as_u64().unwrap() >= 3);
        assert_eq!(r["host"]["threads"], 1);
    }
    assert_eq!(b["best"].as_array().unwrap().len(), 2);
    // A GPU provider this library lacks is refused, naming what it has.
    let err = run_err(&[
        "bench",
        "--runtime",
        "onnxruntime",
        "--onnxruntime-lib",
        &lib,
        "--hardware",
        "cuda",
        "--model",
        "gpt2",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(
        err.contains("CUDAExecutionProvider") && err.contains("CPUExecutionProvider"),
        "{err}"
    );
}

#[test]
fn a_missing_runtime_is_a_clear_error() {
    let err = run_err(&[
        "bench",
        "--runtime",
        "onnxruntime",
        "--onnxruntime-lib",
        "/nonexistent/libonnxruntime.so",
        "--model",
        "gpt2",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(err.contains("/nonexistent/libonnxruntime.so"), "{err}");
    let err = run_err(&[
        "bench",
        "--runtime",
        "llama.cpp",
        "--llama-bench",
        "/nonexistent/llama-bench",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(err.contains("GGUF"), "{err}");
    let err = run_err(&["bench", "--hardware", "cuda", "--no-microbenchmark", "--no-store"]);
    assert!(err.contains("tract runs on the CPU"), "{err}");
    let err = run_err(&["bench", "--mode", "training", "--no-microbenchmark", "--no-store"]);
    assert!(err.contains("--runtime pytorch"), "{err}");
    let err = run_err(&["bench", "--batch-sizes", "0", "--no-microbenchmark", "--no-store"]);
    assert!(err.contains("batch sizes"), "{err}");
    let err = run_err(&[
        "bench",
        "--compile-mode",
        "reduce-overhead",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(
        err.contains("--compile-mode is an option of --runtime pytorch"),
        "{err}"
    );
    let err = run_err(&[
        "bench",
        "--workloads",
        "train-step",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(err.contains("train-step is a training workload"), "{err}");
    let err = run_err(&[
        "bench",
        "--model",
        "resnet-50",
        "--workloads",
        "decode",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(
        err.contains("--workloads leaves it nothing to run (it runs forward)"),
        "{err}"
    );
}

/// llama.cpp: `hwfit bench` runs llama-bench twice per GGUF file (prompt tests, then generation
/// tests at each depth) and reads its JSON. The llama-bench here replays a real run of this
/// machine kind (tests/data/llama_bench_cpu_smollm2_shape.json), split as llama-bench would print it.
#[test]
fn llama_bench_output_becomes_records() {
    let dir = tempfile::tempdir().unwrap();
    let gguf = dir.path().join("model.gguf");
    std::fs::write(&gguf, b"GGUF").unwrap();
    let fixture = data("llama_bench_cpu_smollm2_shape.json");
    let fake = script(
        dir.path(),
        "llama-bench",
        &format!(
            "case \"$*\" in *'-n 0'*) want=prompt;; *) want=gen;; esac\nexec python3 -c \"import json,sys; t=json.load(open('{}')); print(json.dumps([x for x in t if (x['n_gen']==0)==(sys.argv[1]=='prompt')]))\" $want",
            fixture.display()
        ),
    );
    let out = dir.path().join("records.json");
    let b = run_json(&[
        "bench",
        "--runtime",
        "llama.cpp",
        "--llama-bench",
        fake.to_str().unwrap(),
        "--model",
        gguf.to_str().unwrap(),
        "--no-microbenchmark",
        "--no-store",
        "--output",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(b["runtime"], "llama.cpp");
    assert_eq!(b["runtime_version"], "b1 (0c1e570)");
    let records = b["records"].as_array().unwrap();
    assert_eq!(records.len(), 6);
    let prefill: Vec<_> = records.iter().filter(|r| r["workload"] == "prefill").collect();
    assert_eq!(prefill.len(), 3);
    assert!(prefill
        .iter()
        .all(|r| r["sequence_length"] == 64 && r["hardware_type"] == "cpu"));
    let precisions: Vec<&str> = records.iter().filter_map(|r| r["precision"].as_str()).collect();
    assert!(
        ["f16", "q8_0", "q4_0"].iter().all(|p| precisions.contains(p)),
        "{precisions:?}"
    );
    let decode = records.iter().find(|r| r["workload"] == "decode").unwrap();
    // tg16 from an empty context: the middle of the span generated.
    assert_eq!(decode["sequence_length"], 8);
    assert!(decode["latency_p50_ms"].as_f64().unwrap() * decode["throughput"].as_f64().unwrap() > 500.0);
    // The written records import as hwfit's export.
    let import = run_json(&[
        "db",
        "import",
        "--database",
        ":memory:",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(import["files"][0]["added"], 6, "{import}");
}

/// A public llama-bench JSON (llama.cpp's README example from an RTX 4080) imports as records on
/// the catalog's GPU.
#[test]
fn public_llama_bench_json_imports() {
    let file = data("llama_bench_gpu_public.json");
    let import = run_json(&[
        "db",
        "import",
        "--database",
        ":memory:",
        file.to_str().unwrap(),
        "--json",
    ]);
    let f = &import["files"][0];
    assert_eq!(
        (f["format"].as_str(), f["added"].as_u64()),
        (Some("llama-bench JSON"), Some(2)),
        "{import}"
    );
}

/// PyTorch: the runner compiled into hwfit runs in the Python named; a Python without torch is a
/// clear error. With `HWFIT_TORCH_PYTHON` (a Python with torch and transformers, set by the test
/// command) a real run on the CPU is measured and checked.
#[test]
fn pytorch_runner_runs_in_the_python_named() {
    let dir = tempfile::tempdir().unwrap();
    let no_torch = script(dir.path(), "python-without-torch", "exec python3 -S \"$@\"");
    let err = run_err(&[
        "bench",
        "--runtime",
        "pytorch",
        "--python",
        no_torch.to_str().unwrap(),
        "--model",
        "HuggingFaceTB/SmolLM2-135M-Instruct",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(err.contains("torch"), "{err}");
    let err = run_err(&[
        "bench",
        "--runtime",
        "pytorch",
        "--model",
        "gpt2",
        "--no-microbenchmark",
        "--no-store",
    ]);
    assert!(err.contains("config.json"), "{err}");
    let Some(python) = std::env::var("HWFIT_TORCH_PYTHON").ok().filter(|p| !p.is_empty()) else {
        return;
    };
    let config = dir.path().join("config.json");
    std::fs::write(
        &config,
        r#"{"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 256,
            "max_position_embeddings": 128, "_name_or_path": "tiny-llama"}"#,
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let b = run_json(&tiny_pytorch_run(&python, &[config], &["--no-store", "--json"]));
    assert_eq!(b["runtime"], "PyTorch");
    let records = b["records"].as_array().unwrap();
    assert_eq!(records.len(), 2, "{b}");
    assert!(records
        .iter()
        .all(|r| r["model_name"] == "tiny-llama" && r["execution"] == "eager"));
    let t = run_json(&tiny_pytorch_run(
        &python,
        &[config],
        &["--mode", "training", "--no-store", "--json"],
    ));
    assert_eq!(t["records"][0]["workload"], "train-step", "{t}");
    // Decode alone, against a static cache, replayed as CUDA graphs where there is a GPU.
    let d = run_json(&tiny_pytorch_run(
        &python,
        &[config],
        &[
            "--workloads",
            "decode",
            "--compile-mode",
            "reduce-overhead",
            "--kv-cache",
            "static",
            "--no-store",
            "--json",
        ],
    ));
    let records = d["records"].as_array().unwrap();
    assert_eq!(records.len(), 1, "{d}");
    assert_eq!(records[0]["workload"], "decode");
    assert_eq!(records[0]["execution"], "torch.compile (reduce-overhead)");
    assert!(records[0]["notes"].as_str().unwrap().contains("StaticCache"), "{d}");
    a_run_that_fails_part_way_keeps_what_it_measured(dir.path(), &python, Path::new(config));
    a_signal_keeps_what_was_measured(dir.path(), &python, Path::new(config));
}

/// `hwfit bench --runtime pytorch` on `configs` in `python`: one batch of 8 tokens, one thread, a
/// 50 ms budget per case, no microbenchmark, then `extra`.
fn tiny_pytorch_run<'a>(python: &'a str, configs: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["bench", "--runtime", "pytorch", "--python", python];
    for config in configs {
        args.extend(["--model", config]);
    }
    args.extend([
        "--batch-sizes",
        "1",
        "--seq-lengths",
        "8",
        "--threads",
        "1",
        "--budget-ms",
        "50",
        "--no-microbenchmark",
    ]);
    args.extend(extra);
    args
}

/// Each model's records file is rewritten as each of its cases ends: when the runner is killed
/// (as by a time limit) once the second model has begun, the first model's two cases and the
/// second's first are in the database and the error says so.
fn a_run_that_fails_part_way_keeps_what_it_measured(dir: &Path, python: &str, config: &Path) {
    let second = dir.join("second.json");
    std::fs::copy(config, &second).unwrap();
    // Kills the runner as soon as the second model's records file exists (its second --output).
    let failing = script(
        dir,
        "python-killed-in-the-second-model",
        &format!(
            "n=0; second=''; previous=''\nfor a in \"$@\"; do if [ \"$previous\" = --output ]; then n=$((n+1)); [ $n = 2 ] && second=$a; fi; previous=$a; done\n\
             '{python}' \"$@\" & pid=$!\n\
             while [ ! -e \"$second\" ] && kill -0 $pid 2>/dev/null; do sleep 0.01; done\n\
             kill -9 $pid; wait $pid; echo 'stopped' >&2; exit 3"
        ),
    );
    let database = dir.join("kept.sqlite");
    let err = run_err(&tiny_pytorch_run(
        failing.to_str().unwrap(),
        &[config.to_str().unwrap(), second.to_str().unwrap()],
        &["--database", database.to_str().unwrap()],
    ));
    assert!(err.contains("the PyTorch runner ended"), "{err}");
    assert!(err.contains("records of the models it measured are kept"), "{err}");
    let stats = run_json(&["db", "stats", "--json", "--database", database.to_str().unwrap()]);
    let kept = stats["records"].as_u64().unwrap();
    assert!((3..=4).contains(&kept), "{stats}");
}

/// A signal to `hwfit bench` (a time limit's SIGTERM, Ctrl-C) stops the runner and keeps the cases
/// it finished: the run ends at once, fails saying it was interrupted, and the database holds them.
fn a_signal_keeps_what_was_measured(dir: &Path, python: &str, config: &Path) {
    let copies: Vec<PathBuf> = (0..4)
        .map(|i| {
            let copy = dir.join(format!("copy-{i}.json"));
            std::fs::copy(config, &copy).unwrap();
            copy
        })
        .collect();
    let marker = dir.join("first-case-done");
    // The runner itself (exec), with a watcher that marks the first model's first case written.
    let runner = script(
        dir,
        "python-marking-its-first-case",
        &format!(
            "first=''; previous=''\nfor a in \"$@\"; do [ \"$previous\" = --output ] && [ -z \"$first\" ] && first=$a; previous=$a; done\n\
             (i=0; while [ ! -e \"$first\" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i+1)); done; touch '{}') &\n\
             exec '{python}' \"$@\"",
            marker.display()
        ),
    );
    let database = dir.join("signalled.sqlite");
    let mut args = tiny_pytorch_run(
        runner.to_str().unwrap(),
        &[],
        &["--database", database.to_str().unwrap()],
    );
    for copy in &copies {
        args.extend(["--model", copy.to_str().unwrap()]);
    }
    let hwfit = std::process::Command::new(env!("CARGO_BIN_EXE_hwfit"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !marker.exists() {
        assert!(started.elapsed().as_secs() < 120, "the runner wrote no record in 120 s");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let signalled = std::time::Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &hwfit.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = hwfit.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        signalled.elapsed().as_secs() < 30,
        "hwfit took {:?} to stop",
        signalled.elapsed()
    );
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("interrupted by a signal"), "{stderr}");
    let stats = run_json(&["db", "stats", "--json", "--database", database.to_str().unwrap()]);
    let kept = stats["records"].as_u64().unwrap();
    assert!((1..8).contains(&kept), "{stats}");
}
