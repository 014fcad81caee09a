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

#[test]
fn map_json() {
    insta::assert_json_snapshot!(run_json(&["map", "--hardware", "cuda,cpu,mps", "--json"]));
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
fn resource_config_json() {
    insta::assert_json_snapshot!(run_json(&[
        "resource-config",
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
fn compatible_json() {
    insta::assert_json_snapshot!(run_json(&[
        "compatible",
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
    assert!(run_err(&["compatible", "gpt2"]).contains("--hardware"));
    assert!(run_err(&["resource-config"]).contains("required"));
}
