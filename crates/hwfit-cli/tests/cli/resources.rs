use crate::{repo_root, run_json, run_ok};

#[test]
fn resources_llama_fp16_on_cuda_json() {
    insta::assert_json_snapshot!(run_json(&[
        "resources",
        "meta-llama/Meta-Llama-3-8B",
        "--hardware",
        "cuda",
        "--precision",
        "fp16",
        "--seq-length",
        "4096",
        "--json"
    ]));
}

#[test]
fn resources_bert_training_json() {
    insta::assert_json_snapshot!(run_json(&[
        "resources",
        "bert-base-uncased",
        "--hardware",
        "cuda",
        "--precision",
        "bf16",
        "--mode",
        "training",
        "--batch-size",
        "32",
        "--json"
    ]));
}

#[test]
fn resources_estimated_model_says_so() {
    let v = run_json(&[
        "resources",
        "acme/wonder-13b-chat",
        "--hardware",
        "cuda",
        "--precision",
        "q4_k_m",
        "--json",
    ]);
    assert_eq!(v["model_source"]["kind"], "name_estimate");
    let text = run_ok(&[
        "resources",
        "acme/wonder-13b-chat",
        "--hardware",
        "cuda",
        "--precision",
        "q4_k_m",
    ]);
    assert!(text.contains("estimate: not in the catalog"), "{text}");
}

#[test]
fn resources_from_config_match_the_catalog() {
    let config = repo_root().join("tests/fixtures/hf_configs/gemma-2b.json");
    let from_config = run_json(&[
        "resources",
        "--model-config",
        config.to_str().unwrap(),
        "--precision",
        "q8_0",
        "--json",
    ]);
    let from_catalog = run_json(&["resources", "gemma-2b", "--precision", "q8_0", "--json"]);
    assert_eq!(
        from_config["resource_requirements"]["min_memory_mb"],
        from_catalog["resource_requirements"]["min_memory_mb"]
    );
}

#[test]
fn resources_text_reports_every_term() {
    let text = run_ok(&["resources", "vit-base-patch16-224", "--batch-size", "8"]);
    for term in [
        "weights",
        "activations",
        "KV cache",
        "gradients",
        "optimizer state",
        "runtime overhead",
        "minimum memory",
        "CPU cores",
        "disk space",
    ] {
        assert!(text.contains(term), "{term} missing:\n{text}");
    }
}

#[test]
fn pure_training_keeps_everything_at_its_precision() {
    // Llama-3-8B trained in pure bf16 (8 bytes per parameter) fits an 80 GB H100 at batch 1, where
    // mixed precision (18 bytes per parameter, the default) does not; the header says which.
    let ask = [
        "predict",
        "meta-llama/Meta-Llama-3-8B",
        "--device",
        "nvidia-h100-sxm",
        "--mode",
        "training",
        "--precision",
        "bf16",
        "--seq-length",
        "512",
    ];
    let fits = |extra: &[&str]| {
        let args: Vec<&str> = ask
            .iter()
            .copied()
            .chain(extra.iter().copied())
            .chain(["--json"])
            .collect();
        let v = run_json(&args);
        let p = &v["predictions"]["nvidia-h100-sxm"];
        (
            v["mixed_precision"].as_bool().unwrap(),
            p["fits_in_memory"].as_bool().unwrap(),
        )
    };
    assert_eq!(fits(&[]), (true, false));
    assert_eq!(fits(&["--mixed-precision", "false"]), (false, true));
    let text = run_ok(
        &ask.iter()
            .copied()
            .chain(["--mixed-precision", "false"])
            .collect::<Vec<_>>(),
    );
    assert!(text.contains("pure bf16"), "{text}");
    let text = run_ok(&[
        "resources",
        "gpt2",
        "--hardware",
        "cuda",
        "--mode",
        "training",
        "--precision",
        "fp16",
    ]);
    assert!(text.contains("at fp16 mixed precision"), "{text}");
}
