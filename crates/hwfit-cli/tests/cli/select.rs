use crate::{run_err, run_json, run_ok};

#[test]
fn select_bert_on_cpu_and_cuda_json() {
    insta::assert_json_snapshot!(run_json(&[
        "select",
        "bert-base-uncased",
        "--hardware",
        "cpu,cuda",
        "--batch-size",
        "16",
        "--json"
    ]));
}

#[test]
fn select_llama_70b_among_devices_json() {
    insta::assert_json_snapshot!(run_json(&[
        "select",
        "llama 3 70b",
        "--precision",
        "q4_k_m",
        "--device",
        "RTX 4090",
        "--device",
        "M2 Ultra 76-core",
        "--device",
        "H100 SXM",
        "--json"
    ]));
}

#[test]
fn select_text_output() {
    let text = run_ok(&[
        "select",
        "openai/whisper-small",
        "--hardware",
        "cuda,cpu,mps",
        "--precision",
        "fp16",
    ]);
    assert!(text.contains("recommendation: cuda"), "{text}");
    assert!(text.contains("ranks first"), "{text}");
}

#[test]
fn select_with_a_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.json");
    let mut config: serde_json::Value = serde_json::from_str(
        r#"{"selection_criteria": {"inference": {"latency_weight": 0.0, "throughput_weight": 0.0, "memory_weight": 1.0, "compatibility_weight": 0.0},
            "training": {"throughput_weight": 0.4, "convergence_weight": 0.3, "memory_weight": 0.2, "compatibility_weight": 0.1}},
            "batch_size_thresholds": {"small": 1, "medium": 8, "large": 32},
            "model_size_categories": {"small": 100000000, "medium": 1000000000, "large": 10000000000}}"#,
    )
    .unwrap();
    std::fs::write(&path, config.to_string()).unwrap();
    let p = path.to_str().unwrap();
    let v = run_json(&[
        "select",
        "llama 2 7b",
        "--precision",
        "q4_0",
        "--device",
        "RTX 4090",
        "--device",
        "M2 Ultra 76-core",
        "--config",
        p,
        "--json",
    ]);
    assert_eq!(v["primary_recommendation"], "apple-m2-ultra-76c");

    config["selection_criteria"]["inference"]["memory_weight"] = serde_json::json!(-2.0);
    std::fs::write(&path, config.to_string()).unwrap();
    assert!(run_err(&["select", "gpt2", "--config", p])
        .contains("selection_criteria.inference.memory_weight = -2: negative"));
    std::fs::write(&path, config.to_string().replace("-2.0", "NaN")).unwrap();
    assert!(run_err(&["select", "gpt2", "--config", p]).contains("selection config"));
    std::fs::write(&path, config.to_string().replace("memory_weight", "memroy_weight")).unwrap();
    assert!(run_err(&["select", "gpt2", "--config", p]).contains("unknown field `memroy_weight`"));
}

#[test]
fn select_errors() {
    assert!(run_err(&["select", "gpt2", "--hardware", ""]).contains("the list of hardware is empty"));
    assert!(run_err(&["select", "gpt2", "--hardware", " , "]).contains("the list of hardware is empty"));
    assert!(run_err(&["select", "gpt2", "--hardware", "cuda,tpu"]).contains("unknown hardware type 'tpu'"));
    assert!(run_err(&["select", "gpt2", "--task-type", "dreaming"]).contains("unknown task type 'dreaming'"));
    assert!(run_err(&["select", "gpt2", "--batch-size", "0"]).contains("invalid batch_size: 0"));
}

/// One unknown model in a batch is reported in its entry; the others are answered.
#[test]
fn a_bad_model_in_a_batch_is_its_entrys_error() {
    let v = run_json(&[
        "batch-select",
        "gpt2",
        "no-such-model-xyz",
        "--hardware",
        "cpu,cuda",
        "--json",
    ]);
    assert_eq!(v["gpt2"]["primary"], "cuda");
    assert!(v["gpt2"].get("error").is_none(), "{v}");
    let bad = &v["no-such-model-xyz"];
    assert!(bad["primary"].is_null(), "{bad}");
    assert!(
        bad["error"]
            .as_str()
            .unwrap()
            .contains("unknown model 'no-such-model-xyz'"),
        "{bad}"
    );
    let text = run_ok(&["batch-select", "gpt2", "no-such-model-xyz", "--hardware", "cpu"]);
    assert!(text.contains("not answered: unknown model"), "{text}");
    // Under the default sequence length each model gets at most its positions (CLIP: 77); a length
    // asked for that one model cannot take is that entry's error.
    let both = [
        "batch-select",
        "gpt2",
        "openai/clip-vit-base-patch32",
        "--hardware",
        "cpu",
        "--json",
    ];
    let v = run_json(&both);
    assert!(v["openai/clip-vit-base-patch32"]["primary"].is_string(), "{v}");
    let v = run_json(&[&both[..], &["--seq-length", "128"]].concat());
    assert!(v["gpt2"]["primary"].is_string(), "{v}");
    let clip = &v["openai/clip-vit-base-patch32"];
    assert!(
        clip["error"].as_str().unwrap().contains("maximum of 77 positions"),
        "{clip}"
    );
    // A fault of the whole request still fails it.
    assert!(run_err(&["batch-select", "gpt2", "--hardware", "cpu", "--batch-size", "0"]).contains("batch_size"));
}
