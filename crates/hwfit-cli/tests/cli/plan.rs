use crate::{run_err, run_json, run_ok};

#[test]
fn matrix_default_models_json() {
    insta::assert_json_snapshot!(run_json(&[
        "matrix",
        "--hardware",
        "cuda,cpu",
        "--batch-sizes",
        "1,8,32",
        "--precision",
        "fp32,fp16",
        "--json"
    ]));
}

#[test]
fn matrix_refusals_are_cells_not_failures() {
    let v = run_json(&[
        "matrix",
        "--models",
        "gpt2",
        "--hardware",
        "cpu",
        "--precision",
        "fp8",
        "--json",
    ]);
    let cell = &v["models"]["openai-community/gpt2"]["predictions"]["cpu"]["1"]["fp8"];
    assert!(cell["error"]
        .as_str()
        .unwrap()
        .contains("cpu does not support precision fp8"));
}

#[test]
fn matrix_writes_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("matrix.json");
    let out = run_ok(&["matrix", "--hardware", "cuda", "--output", path.to_str().unwrap()]);
    assert!(out.contains("wrote"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(v["hardware_platforms"][0], "cuda");
    assert_eq!(v["models"].as_object().unwrap().len(), 4);
}

#[test]
fn matrix_visualize_writes_the_five_charts() {
    let dir = tempfile::tempdir().unwrap();
    let charts = dir.path().join("charts");
    let v = run_json(&[
        "matrix",
        "--models",
        "bert-base-uncased,gpt2",
        "--hardware",
        "cuda,cpu,webgpu",
        "--precision",
        "fp32,fp16",
        "--json",
        "--visualize",
        charts.to_str().unwrap(),
    ]);
    assert_eq!(v["models"].as_object().unwrap().len(), 2, "stdout stays the JSON");
    for stem in [
        "hardware_comparison",
        "batch_scaling",
        "efficiency",
        "memory",
        "precision_impact",
    ] {
        let svg = std::fs::read_to_string(charts.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{stem}");
        assert!(svg.ends_with("</svg>"), "{stem}");
        assert!(
            svg.contains(r#"class="y-label""#) && svg.contains(r#"class="legend-entry""#),
            "{stem}"
        );
    }
    let comparison = std::fs::read_to_string(charts.join("hardware_comparison.svg")).unwrap();
    assert!(comparison.contains(r#"data-series="webgpu" data-category="gpt2""#));
    let precision = std::fs::read_to_string(charts.join("precision_impact.svg")).unwrap();
    assert!(precision.contains(r#"data-series="fp16""#));
}

/// The map has a recommendation among the hardware named for every family, size and mode; the
/// digest is each family's primary per model size and mode.
#[test]
fn map_json() {
    let v = run_json(&["map", "--hardware", "cuda,cpu,mps", "--json"]);
    assert_eq!(v["hardware_platforms"], serde_json::json!(["cuda", "cpu", "mps"]));
    let mut digest = std::collections::BTreeMap::new();
    for (family, part) in v["model_families"].as_object().unwrap() {
        for (size, modes) in part["model_sizes"].as_object().unwrap() {
            for (mode, cell) in modes.as_object().unwrap() {
                let primary = cell["primary"].as_str().unwrap_or("none");
                assert!(
                    ["cuda", "cpu", "mps", "none"].contains(&primary),
                    "{family}/{size}/{mode}: {cell}"
                );
                digest.insert(format!("{family}/{size}/{mode}"), primary.to_owned());
            }
        }
    }
    assert!(digest.len() >= 10, "{digest:?}");
    insta::assert_json_snapshot!(digest);
}

#[test]
fn distributed_json() {
    insta::assert_json_snapshot!(run_json(&[
        "distributed",
        "llama-2-7b",
        "--gpu-count",
        "8",
        "--batch-size",
        "8",
        "--device",
        "H100 SXM",
        "--json"
    ]));
}

#[test]
fn distributed_writes_the_deepspeed_config() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ds_config.json");
    let text = run_ok(&[
        "distributed",
        "gpt2",
        "--gpu-count",
        "2",
        "--batch-size",
        "16",
        "--deepspeed-config",
        path.to_str().unwrap(),
    ]);
    assert!(text.contains("torchrun --standalone --nproc_per_node=2"), "{text}");
    let ds: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(ds["train_batch_size"], 32);
}

#[test]
fn resource_pool_json() {
    insta::assert_json_snapshot!(run_json(&[
        "resource-pool",
        "bert-base-uncased",
        "t5-small",
        "clip-vit-base-patch32",
        "--hardware",
        "cuda,cpu",
        "--json"
    ]));
}

#[test]
fn recommend_json() {
    insta::assert_json_snapshot!(run_json(&[
        "recommend",
        "--task",
        "image-classification",
        "--hardware",
        "cpu",
        "--json"
    ]));
}

#[test]
fn compatible_models_json() {
    insta::assert_json_snapshot!(run_json(&[
        "compatible-models",
        "--hardware",
        "mps",
        "bert-base-uncased",
        "gpt2",
        "t5-small",
        "wav2vec2-base-960h",
        "llava-1.5-7b-hf",
        "llama 3.1 405b",
        "--json"
    ]));
}

#[test]
fn plan_errors() {
    assert!(
        run_err(&["distributed", "gpt2", "--gpu-count", "0", "--batch-size", "8"]).contains("invalid gpu_count: 0")
    );
    assert!(run_err(&[
        "distributed",
        "llama 3.1 405b",
        "--gpu-count",
        "2",
        "--batch-size",
        "1",
        "--max-memory-gb",
        "24"
    ])
    .contains("does not fit"));
    assert!(run_err(&[
        "distributed",
        "gpt2",
        "--gpu-count",
        "2",
        "--batch-size",
        "1",
        "--max-memory-gb",
        "-5"
    ])
    .contains("max_memory_gb"));
    assert!(run_err(&["recommend", "--task", "time-travel"]).contains("unknown task 'time-travel'"));
    assert!(run_err(&["matrix", "--models", ","]).contains("the list of models is empty"));
    assert!(run_err(&["matrix", "--batch-sizes", "1,x"]).contains("invalid value 'x'"));
    assert!(run_err(&["matrix", "--batch-sizes", "8,0"]).contains("invalid batch_size: 0"));
    assert!(run_err(&["compatible-models", "gpt2"]).contains("--hardware"));
    assert!(run_err(&["resource-pool"]).contains("required"));
}

/// The former names of renamed questions keep working and give the same answers.
#[test]
fn former_names_are_aliases() {
    for (old, new) in [
        (
            &["resource-config", "gpt2", "--hardware", "cpu", "--json"][..],
            &["resource-pool", "gpt2", "--hardware", "cpu", "--json"][..],
        ),
        (
            &["batch", "gpt2", "--hardware", "cpu", "--json"],
            &["batch-select", "gpt2", "--hardware", "cpu", "--json"],
        ),
        (
            &["compatible", "gpt2", "--hardware", "cpu", "--json"],
            &["compatible-models", "gpt2", "--hardware", "cpu", "--json"],
        ),
        (&["models", "gpt2", "--json"], &["model", "gpt2", "--json"]),
    ] {
        assert_eq!(run_json(old), run_json(new), "{old:?}");
    }
    let help = run_ok(&["--help"]);
    assert!(
        help.contains("aliases: batch") || help.contains("alias: batch"),
        "{help}"
    );
}

/// `hwfit questions` lists the core's questions with their name in every face.
#[test]
fn questions_lists_every_question() {
    let v = run_json(&["questions", "--json"]);
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), 17);
    let select = list.iter().find(|q| q["name"] == "select").unwrap();
    assert_eq!(select["path"], "/hardware/select");
    assert_eq!(select["method"], "POST");
    assert_eq!(select["targeted"], true);
    let pool = list.iter().find(|q| q["name"] == "resource-pool").unwrap();
    assert_eq!(
        (pool["js"].as_str(), pool["python"].as_str()),
        (Some("resourcePool"), Some("resource_pool"))
    );
    // Every question is a subcommand.
    for q in list {
        run_ok(&[q["name"].as_str().unwrap(), "--help"]);
    }
}
