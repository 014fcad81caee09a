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

#[test]
fn an_unknown_model_type_is_read_by_its_standard_fields_and_says_so() {
    let json = r#"{"model_type": "acme", "architectures": ["AcmeForCausalLM"], "num_hidden_layers": 4,
        "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 512,
        "vocab_size": 1000}"#;
    let model = serde_json::from_str::<HfConfig>(json).unwrap().to_model(None).unwrap();
    let SpecSource::HfConfig { model_type, note } = &model.source else {
        panic!("{:?}", model.source)
    };
    assert_eq!(model_type, "acme");
    assert!(
        note.as_deref().unwrap().contains("read by its standard fields"),
        "{note:?}"
    );
    // 4 × (2·256·256 + 2·256·128 attention + 3·256·512 gated FFN) + 2 · 1000 · 256 untied embeddings
    assert_eq!(model.spec.parameters(), 4 * (131_072 + 65_536 + 393_216) + 512_000);
    assert!(model.spec.is_generative());
}

#[test]
fn nested_language_models_and_their_fields_are_named_in_errors() {
    let json = r#"{"model_type": "llama4", "text_config": {"model_type": "llama4_text", "hidden_size": 640}}"#;
    let err = serde_json::from_str::<HfConfig>(json)
        .unwrap()
        .to_model(None)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "model config: text_config: 'num_hidden_layers' is missing (needed for model_type 'llama4_text')"
    );
}

/// Gemma 3's published text_config states only what differs from transformers' Gemma3TextConfig:
/// the rest takes the class's defaults, as transformers fills them.
#[test]
fn a_sparse_gemma3_text_config_takes_the_class_defaults() {
    let json = r#"{"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 640,
        "num_hidden_layers": 6}}"#;
    let model = serde_json::from_str::<HfConfig>(json).unwrap().to_model(None).unwrap();
    let crate::Component::Transformer(lm) = &model.spec.components[0] else {
        panic!("{:?}", model.spec.components)
    };
    assert_eq!((lm.hidden_size, lm.layers), (640, 6), "stated values kept");
    assert_eq!((lm.attention_heads, lm.kv_heads, lm.head_dim), (8, 4, 256));
    assert_eq!((lm.intermediate_size, lm.vocab_size), (9216, 262_208));
    assert!(lm.tied_embeddings);
    assert_eq!(lm.sliding_window.map(|w| (w.window, w.layers)), Some((4096, 5)));
    assert_eq!(model.spec.max_positions, 131_072);
}

/// Older transformers saved nested configs with `"architectures": null` (Llama 3.2 Vision's text and
/// vision configs): they read as having none.
#[test]
fn nested_architectures_null_reads_as_none() {
    let json = r#"{"model_type": "acme", "architectures": null, "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "num_key_value_heads": 4, "intermediate_size": 128, "vocab_size": 100}"#;
    let config = serde_json::from_str::<HfConfig>(json).unwrap();
    assert!(config.architectures.is_empty());
    assert!(config.to_model(None).is_ok());
}

/// `mistral3` (Mistral Small 3.x, Devstral) is a vision-language model, not a sequence-to-sequence one,
/// though its class ends in `ForConditionalGeneration` as T5's does.
#[test]
fn mistral3_classifies_as_vision_language() {
    let json = r#"{"model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
        "text_config": {"model_type": "mistral", "num_hidden_layers": 4, "hidden_size": 256,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 512, "vocab_size": 1000},
        "vision_config": {"model_type": "pixtral", "num_hidden_layers": 2, "hidden_size": 128,
        "num_attention_heads": 4, "intermediate_size": 256, "image_size": 224, "patch_size": 16}}"#;
    let model = serde_json::from_str::<HfConfig>(json).unwrap().to_model(None).unwrap();
    assert_eq!(model.spec.subfamily, crate::Subfamily::VisionLanguage);
}
