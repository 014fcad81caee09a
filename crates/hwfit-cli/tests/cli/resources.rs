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
