use crate::{repo_root, run_json, run_ok};

/// Every catalog row names a unique model with parameters and a family; the digest counts the rows
/// per family.
#[test]
fn models_json_lists_the_catalog() {
    let v = run_json(&["models", "--json"]);
    let rows = v.as_array().unwrap();
    let mut names = std::collections::BTreeSet::new();
    let mut per_family = std::collections::BTreeMap::<String, usize>::new();
    for r in rows {
        assert!(
            names.insert(r["name"].as_str().unwrap().to_owned()),
            "{} twice",
            r["name"]
        );
        assert!(r["parameters"].as_u64().unwrap() > 0, "{r}");
        *per_family.entry(r["family"].as_str().unwrap().to_owned()).or_default() += 1;
    }
    assert!(rows.len() >= 60, "{} models", rows.len());
    assert_eq!(per_family.len(), 5, "{per_family:?}");
    insta::assert_json_snapshot!(per_family);
}

#[test]
fn models_filter_by_family() {
    let v = run_json(&["models", "--family", "vision", "--json"]);
    let rows = v.as_array().unwrap();
    assert!(rows.len() >= 5);
    assert!(rows.iter().all(|r| r["family"] == "vision"));
}

#[test]
fn one_model_in_detail() {
    insta::assert_json_snapshot!(run_json(&["models", "Llama 3 8B", "--json"]));
    let text = run_ok(&["models", "gpt2"]);
    assert!(
        text.contains("openai-community/gpt2 (text_generation / causal_lm)"),
        "{text}"
    );
}

#[test]
fn a_config_file_in_detail() {
    let config = repo_root().join("tests/fixtures/hf_configs/whisper-base.json");
    let v = run_json(&["models", "--model-config", config.to_str().unwrap(), "--json"]);
    assert_eq!(v["source"]["kind"], "hf_config");
    assert_eq!(v["family"], "audio");
    // A config file named where the model's name goes is read as --model-config, named by the id
    // its file name writes (`owner__name`), else its `_name_or_path`, else its file name.
    let config = repo_root().join("crates/hwfit-core/data/models/configs/MiniMaxAI__MiniMax-M2.json");
    let v = run_json(&["model", config.to_str().unwrap(), "--json"]);
    assert_eq!(v["source"]["kind"], "hf_config", "{v}");
    assert_eq!(v["name"], "MiniMaxAI/MiniMax-M2", "{v}");
    let text = run_ok(&[
        "predict",
        config.to_str().unwrap(),
        "--device",
        "H100 SXM",
        "--workload",
        "decode",
    ]);
    assert!(text.contains("MiniMaxAI/MiniMax-M2"), "{text}");
}

#[test]
fn models_table() {
    let text = run_ok(&["models"]);
    assert!(text.contains("google-bert/bert-base-uncased"));
    assert!(text.lines().last().unwrap().ends_with("models"));
}
