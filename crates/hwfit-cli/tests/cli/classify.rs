use crate::{repo_root, run_json, run_ok};

#[test]
fn classify_bert_json() {
    insta::assert_json_snapshot!(run_json(&["classify", "bert-base-uncased", "--json"]));
}

#[test]
fn classify_with_class_tasks_and_methods_json() {
    insta::assert_json_snapshot!(run_json(&[
        "classify",
        "facebook/wav2vec2-base-960h",
        "--class",
        "Wav2Vec2ForCTC",
        "--task",
        "automatic-speech-recognition",
        "--method",
        "transcribe",
        "--json"
    ]));
}

#[test]
fn classify_text_output_names_family_and_template() {
    let out = run_ok(&["classify", "openai/whisper-small"]);
    assert!(out.contains("Family:     audio"), "{out}");
    assert!(out.contains("Subfamily:  speech_recognition"), "{out}");
    assert!(out.contains("hf_speech_recognition_template.py"), "{out}");
}

#[test]
fn classify_from_model_config() {
    let config = repo_root().join("tests/fixtures/hf_configs/clip-vit-base-patch32.json");
    let v = run_json(&["classify", "--model-config", config.to_str().unwrap(), "--json"]);
    assert_eq!(v["model_name"], "openai/clip-vit-base-patch32");
    assert_eq!(v["family"], "multimodal");
    assert_eq!(v["subfamily"], "image_text_encoder");
}

#[test]
fn custom_families_and_model_db() {
    let dir = tempfile::tempdir().unwrap();
    let families = dir.path().join("families.json");
    std::fs::write(
        &families,
        r#"{"retrieval": {"description": "Retrieval and search models", "keywords": ["retrieval", "rag", "dpr"], "tasks": ["retrieval"], "methods": ["retrieve"]}}"#,
    )
    .unwrap();
    let db = dir.path().join("model_db.json");
    let (families, db) = (families.to_str().unwrap(), db.to_str().unwrap());
    let first = run_json(&[
        "classify",
        "facebook/dpr-ctx_encoder-single-nq-base",
        "--families",
        families,
        "--model-db",
        db,
        "--json",
    ]);
    assert_eq!(first["family"], "retrieval");
    assert_eq!(first["source"], "combined_analysis");
    // The second call is answered from the database, even without the custom definitions.
    let second = run_json(&[
        "classify",
        "facebook/dpr-ctx_encoder-single-nq-base",
        "--model-db",
        db,
        "--json",
    ]);
    assert_eq!(second["family"], "retrieval");
    assert_eq!(second["source"], "model_db");
}
