use crate::run_err;

#[test]
fn unknown_model_lists_close_matches() {
    let err = run_err(&["resources", "bert-bse-uncased"]);
    assert!(err.starts_with("error: unknown model 'bert-bse-uncased'"), "{err}");
    assert!(err.contains("did you mean: google-bert/bert-base-uncased"), "{err}");
}

#[test]
fn bad_values_name_the_field() {
    assert!(run_err(&["resources", "gpt2", "--precision", "fp12"]).contains("unknown precision 'fp12'"));
    assert!(run_err(&["resources", "gpt2", "--hardware", "tpu"]).contains("unknown hardware type 'tpu'"));
    assert!(run_err(&["resources", "gpt2", "--batch-size", "0"]).contains("invalid batch_size: 0"));
    assert!(run_err(&["resources", "gpt2", "--batch-size", "-3"]).contains("--batch-size"));
    assert!(run_err(&["resources", "gpt2", "--seq-length", "5000"])
        .contains("invalid sequence_length: 5000 is longer than openai-community/gpt2's maximum of 1024 positions"));
    assert!(run_err(&["resources", "gpt2", "--hardware", "qnn"]).contains("qnn does not support precision fp32"));
    assert!(run_err(&[
        "resources",
        "gpt2",
        "--mode",
        "training",
        "--precision",
        "int4",
        "--hardware",
        "cuda"
    ])
    .contains("training at int4"));
    assert!(run_err(&[
        "predict",
        "bert-base-uncased",
        "--device",
        "h100-sxm",
        "--runtime",
        "tensorrt",
        "--workload",
        "train-step"
    ])
    .contains("tensorrt does not train: a training step runs on pytorch"));
    assert!(run_err(&["models", "--family", "robotics"]).contains("unknown family 'robotics'"));
}

#[test]
fn bad_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.json");
    let err = run_err(&["resources", "--model-config", missing.to_str().unwrap()]);
    assert!(err.contains("cannot read model config"), "{err}");

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ not json").unwrap();
    let err = run_err(&["resources", "--model-config", broken.to_str().unwrap()]);
    assert!(err.contains("is not a valid model config"), "{err}");

    let families = dir.path().join("families.json");
    std::fs::write(&families, r#"{"retrieval": {"keywords": [1, 2]}}"#).unwrap();
    let err = run_err(&["classify", "x", "--families", families.to_str().unwrap()]);
    assert!(err.contains("family definitions: invalid type"), "{err}");

    let db = dir.path().join("db.json");
    std::fs::write(&db, "[]").unwrap();
    let err = run_err(&["classify", "gpt2", "--model-db", db.to_str().unwrap()]);
    assert!(err.contains("is not a JSON object of classifications"), "{err}");
}

#[test]
fn missing_model_is_a_usage_error() {
    let err = run_err(&["resources"]);
    assert!(err.contains("required"), "{err}");
}

/// An empty key would silently serve without auth: it is refused.
#[test]
fn an_empty_api_key_is_refused() {
    let stderr = run_err(&["serve", "--api-key", "", "--port", "0", "--no-detect"]);
    assert!(stderr.contains("--api-key (or HWFIT_API_KEY) is empty"), "{stderr}");
}
