//! Every template renders for a model of each subfamily, and the result is valid Python (checked by
//! `python3 -m py_compile`) or valid JavaScript (checked by `node --check`).

use std::process::Command;

use crate::run_ok;

/// One catalog model per subfamily.
const MODELS: &[&str] = &[
    "bert-base-uncased",
    "all-MiniLM-L6-v2",
    "dslim/bert-base-NER",
    "distilbert-base-uncased-finetuned-sst-2-english",
    "gpt2",
    "TinyLlama-1.1B-Chat-v1.0",
    "t5-small",
    "vit-base-patch16-224",
    "detr-resnet-50",
    "sam-vit-base",
    "dpt-large",
    "whisper-tiny",
    "ast-finetuned-audioset-10-10-0.4593",
    "speecht5_tts",
    "blip-image-captioning-base",
    "clip-vit-base-patch32",
    "layoutlm-document-qa",
];

fn check(tool: &str, args: &[&str], file: &std::path::Path) {
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{tool} is needed for this test: {e}"));
    assert!(
        out.status.success(),
        "{tool} rejects {}:\n{}\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(file).unwrap()
    );
}

#[test]
fn pytorch_starters_are_valid_python() {
    let dir = tempfile::tempdir().unwrap();
    for (i, model) in MODELS.iter().enumerate() {
        let path = dir.path().join(format!("starter_{i}.py"));
        run_ok(&["template", model, "--output", path.to_str().unwrap()]);
        check("python3", &["-m", "py_compile"], &path);
    }
}

#[test]
fn web_starters_are_valid_javascript() {
    let dir = tempfile::tempdir().unwrap();
    for runtime in ["transformers.js", "onnxruntime-web"] {
        for (i, model) in MODELS.iter().enumerate() {
            let path = dir.path().join(format!("starter_{i}.mjs"));
            run_ok(&[
                "template",
                model,
                "--runtime",
                runtime,
                "--output",
                path.to_str().unwrap(),
            ]);
            check("node", &["--check"], &path);
        }
    }
}

#[test]
fn template_uses_the_recommendation() {
    let text = run_ok(&["template", "gpt2", "--hardware", "cpu"]);
    assert!(text.contains("Recommended hardware: cpu"), "{text}");
    assert!(text.contains(r#"pipeline("text-generation""#), "{text}");
    assert!(text.contains("DTYPE = torch.float32"), "{text}");
    let json = crate::run_json(&["template", "openai/whisper-tiny", "--device", "RTX 4090", "--json"]);
    assert_eq!(json["template"], "pytorch/hf_speech_recognition_template.py.j2");
    assert_eq!(json["hardware"], "nvidia-rtx-4090");
    assert_eq!(json["precision"], "fp16");
}

#[test]
fn template_text_snapshot() {
    insta::assert_snapshot!(run_ok(&["template", "openai/whisper-small", "--hardware", "cuda,cpu"]));
}
