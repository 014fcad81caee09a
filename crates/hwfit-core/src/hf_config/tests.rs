use super::*;
use crate::Catalog;
use alloc::string::ToString;

/// Each fixture is the model's published `config.json`; the spec built from it must match the
/// catalog entry of the same model exactly.
const FIXTURES: &[(&str, &str, &str)] = &[
    (
        "bert-base-uncased",
        include_str!("../../../../tests/fixtures/hf_configs/bert-base-uncased.json"),
        "bert-base-uncased",
    ),
    (
        "gpt2",
        include_str!("../../../../tests/fixtures/hf_configs/gpt2.json"),
        "gpt2",
    ),
    (
        "Meta-Llama-3-8B",
        include_str!("../../../../tests/fixtures/hf_configs/Meta-Llama-3-8B.json"),
        "Meta-Llama-3-8B",
    ),
    (
        "Mixtral-8x7B-v0.1",
        include_str!("../../../../tests/fixtures/hf_configs/Mixtral-8x7B-v0.1.json"),
        "Mixtral-8x7B-v0.1",
    ),
    (
        "gemma-2b",
        include_str!("../../../../tests/fixtures/hf_configs/gemma-2b.json"),
        "gemma-2b",
    ),
    (
        "t5-small",
        include_str!("../../../../tests/fixtures/hf_configs/t5-small.json"),
        "t5-small",
    ),
    (
        "flan-t5-base",
        include_str!("../../../../tests/fixtures/hf_configs/flan-t5-base.json"),
        "flan-t5-base",
    ),
    (
        "bart-base",
        include_str!("../../../../tests/fixtures/hf_configs/bart-base.json"),
        "bart-base",
    ),
    (
        "vit-base-patch16-224",
        include_str!("../../../../tests/fixtures/hf_configs/vit-base-patch16-224.json"),
        "vit-base-patch16-224",
    ),
    (
        "whisper-base",
        include_str!("../../../../tests/fixtures/hf_configs/whisper-base.json"),
        "whisper-base",
    ),
    (
        "clip-vit-base-patch32",
        include_str!("../../../../tests/fixtures/hf_configs/clip-vit-base-patch32.json"),
        "clip-vit-base-patch32",
    ),
    (
        "llava-1.5-7b-hf",
        include_str!("../../../../tests/fixtures/hf_configs/llava-1.5-7b-hf.json"),
        "llava-1.5-7b-hf",
    ),
];

#[test]
fn configs_give_the_catalog_architecture() {
    let catalog = Catalog::builtin();
    for (name, json, catalog_name) in FIXTURES {
        let config: HfConfig = serde_json::from_str(json).unwrap();
        let from_config = config.to_model(Some(name)).unwrap().spec;
        let from_catalog = catalog.resolve(catalog_name).unwrap().spec;
        assert_eq!(from_config.components, from_catalog.components, "{name}");
        assert_eq!(from_config.family, from_catalog.family, "{name}");
        assert_eq!(from_config.parameters(), from_catalog.parameters(), "{name}");
    }
}

#[test]
fn configs_are_classified_from_their_architecture_class() {
    let json = FIXTURES.iter().find(|f| f.0 == "whisper-base").unwrap().1;
    let config: HfConfig = serde_json::from_str(json).unwrap();
    let model = config.to_model(None).unwrap();
    assert_eq!(model.spec.name, "openai/whisper-base");
    assert_eq!(model.spec.subfamily, crate::Subfamily::SpeechRecognition);
    assert_eq!(
        model.source,
        SpecSource::HfConfig {
            model_type: "whisper".to_string(),
            note: None
        }
    );
}

#[test]
fn missing_and_unsupported_fields_are_named() {
    let err = |json: &str| {
        serde_json::from_str::<HfConfig>(json)
            .unwrap()
            .to_model(None)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(r#"{"model_type": "llama", "hidden_size": 4096}"#),
        "model config: 'num_hidden_layers' is missing (needed for model_type 'llama')"
    );
    assert_eq!(
        err(r#"{"model_type": "rwkv", "hidden_size": 2048}"#),
        "model config: model_type 'rwkv' is not one hwfit knows, and the standard fields it would be read by are missing: num_hidden_layers, num_attention_heads, vocab_size"
    );
    assert!(err("{}").contains("'model_type' is missing"));
    assert!(err(
        r#"{"model_type": "bert", "num_hidden_layers": 0, "hidden_size": 8, "num_attention_heads": 1, "vocab_size": 9}"#
    )
    .contains("'num_hidden_layers' is 0"));
}
