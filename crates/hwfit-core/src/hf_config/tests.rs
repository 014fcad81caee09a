use super::*;
use crate::spec::{MixerKind, Norm};
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
    // A vision config alone (an image encoder with prompt and mask decoders, no language model) is
    // not read as a language model.
    assert_eq!(
        err(r#"{"model_type": "efficient_sam", "vision_config": {"hidden_size": 1280, "num_hidden_layers": 32}, "mask_decoder_config": {}}"#),
        "model config: model_type 'efficient_sam' is not one hwfit knows, and the standard fields it would be read by are missing: num_hidden_layers, hidden_size, num_attention_heads, vocab_size"
    );
    assert_eq!(
        err(r#"{"model_type": "sam", "mask_decoder_config": {}}"#),
        "model config: 'vision_config' is missing (needed for model_type 'sam')"
    );
    assert!(err("{}").contains("'model_type' is missing"));
    assert!(err(r#"{"model_type": "falcon_h1", "num_hidden_layers": 44, "hidden_size": 3072, "num_attention_heads": 12, "vocab_size": 130049}"#)
        .contains("side by side"));
    assert!(err(
        r#"{"model_type": "bert", "num_hidden_layers": 0, "hidden_size": 8, "num_attention_heads": 1, "vocab_size": 9}"#
    )
    .contains("'num_hidden_layers' is 0"));
}

#[test]
fn sizes_beyond_any_model_that_runs_are_refused() {
    let read = |json: &str| serde_json::from_str::<HfConfig>(json).unwrap().to_model(None);
    let err = |json: &str| read(json).unwrap_err().to_string();
    // Ten million layers: 10^15 parameters and more.
    let layers = err(
        r#"{"model_type": "llama", "num_hidden_layers": 10000000, "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}"#,
    );
    assert!(
        layers.contains("parameters (at most 1.000e15): larger than any model that runs"),
        "{layers}"
    );
    // Keys and values wider than any model caches, with few parameters per layer otherwise.
    let cached = err(
        r#"{"model_type": "llama", "num_hidden_layers": 2000, "hidden_size": 8, "intermediate_size": 8, "num_attention_heads": 4096, "head_dim": 4096, "vocab_size": 8}"#,
    );
    assert!(cached.contains("cached key and value values per token"), "{cached}");
    // An image of two million pixels a side in 73-pixel patches: 944 million tokens per image.
    let tokens = err(
        r#"{"model_type": "vit", "num_hidden_layers": 12, "hidden_size": 768, "intermediate_size": 3072, "num_attention_heads": 12, "image_size": 2243072, "patch_size": 73}"#,
    );
    assert!(
        tokens.contains("9.441e8 tokens per input (at most 1.049e6)"),
        "{tokens}"
    );
    // The largest models of the catalog are read.
    for name in [
        "moonshotai/Kimi-K2-Instruct",
        "meta-llama/Llama-3.1-405B",
        "deepseek-ai/DeepSeek-V3",
        "deepseek-ai/DeepSeek-V4-Pro",
        "facebook/sam-vit-huge",
    ] {
        let spec = Catalog::builtin().resolve(name).unwrap().spec;
        assert!(ModelSpec::check_plausible(&spec.components).is_ok(), "{name}");
    }
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

/// A language model with a vision tower is a vision-language model whatever its class is called:
/// GLM-4.5V's `Glm4vMoeForConditionalGeneration` carries no word the classifier knows.
#[test]
fn a_language_model_with_a_vision_tower_is_vision_language() {
    let json = r#"{"model_type": "acme_vl", "architectures": ["AcmeForConditionalGeneration"],
        "text_config": {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
            "intermediate_size": 128, "vocab_size": 1000},
        "vision_config": {"num_hidden_layers": 2, "hidden_size": 32, "num_attention_heads": 2,
            "intermediate_size": 64, "image_size": 224, "patch_size": 14}}"#;
    let model = serde_json::from_str::<HfConfig>(json).unwrap().to_model(None).unwrap();
    assert_eq!(
        (model.spec.family, model.spec.subfamily),
        (Family::Multimodal, crate::Subfamily::VisionLanguage)
    );
}

#[test]
fn layer_operations_are_read_from_the_config_and_the_model_type() {
    let stack = |name: &str| {
        let model = Catalog::builtin().lookup(name).unwrap();
        let first = model.spec.stacks().next().unwrap().clone();
        first
    };
    let stack_of = |name: &str| {
        let model = Catalog::builtin().lookup(name).unwrap();
        let generating = model.spec.stacks().find(|s| s.generates()).unwrap().clone();
        generating
    };
    let bert = stack("bert-base-uncased");
    assert_eq!(
        (bert.norm, bert.rotary, bert.qk_norm, bert.norms_per_layer),
        (Norm::LayerNorm, false, false, 2)
    );
    let gpt2 = stack("gpt2");
    assert_eq!((gpt2.norm, gpt2.rotary), (Norm::LayerNorm, false));
    let llama = stack("meta-llama/Llama-3.2-1B-Instruct");
    assert_eq!((llama.norm, llama.rotary, llama.qk_norm), (Norm::RmsNorm, true, false));
    // Qwen3 and OLMo 2 normalise queries and keys (their modelling code; no config field says so).
    let qwen3 = stack("Qwen/Qwen3-0.6B");
    assert_eq!((qwen3.norm, qwen3.rotary, qwen3.qk_norm), (Norm::RmsNorm, true, true));
    assert!(stack("allenai/OLMo-2-1124-7B").qk_norm);
    // Gemma 3 normalises before and after each block.
    let gemma3 = stack("google/gemma-3-1b-it");
    assert_eq!((gemma3.norms_per_layer, gemma3.qk_norm), (4, true));
    // Qwen3-VL's language models are Qwen3's, query/key norms included.
    assert!(stack_of("Qwen/Qwen3-VL-8B-Instruct").qk_norm);
    assert!(stack_of("Qwen/Qwen3-VL-30B-A3B-Instruct").qk_norm);
    // gpt-oss's attention has learned sinks; no other model's does.
    assert!(stack("openai/gpt-oss-20b").attention_sinks);
    assert!(!llama.attention_sinks && !qwen3.attention_sinks);
    // Phi-2: layer norms (`layer_norm_eps`) with partial rotary positions.
    let phi2 = HfConfig::deserialize_value(&serde_json::json!({
        "model_type": "phi", "num_hidden_layers": 32, "hidden_size": 2560, "num_attention_heads": 32,
        "intermediate_size": 10240, "vocab_size": 51200, "layer_norm_eps": 1e-5, "partial_rotary_factor": 0.4
    }))
    .unwrap()
    .to_model(None)
    .unwrap();
    let phi2 = phi2.spec.stacks().next().unwrap().clone();
    assert_eq!((phi2.norm, phi2.rotary), (Norm::LayerNorm, true));
    // GTE's `new` model type gates its feed-forward (its code) and its rotary positions keep no
    // position table.
    let gte = stack("Alibaba-NLP/gte-multilingual-base");
    assert_eq!(
        (gte.gated_ffn, gte.rotary, gte.learned_positions, gte.norm),
        (true, true, 0, Norm::LayerNorm)
    );
}

/// Gemma 3n E4B's published config, read part by part: the totals transformers 5.24's
/// `Gemma3nForConditionalGeneration` has when built from it on the meta device (timm 1.0.31 for its
/// image encoder) — language model 6,835,235,568 with its 2,348,810,240 per-layer embeddings,
/// audio encoder 681,348,640, image encoder 294,126,912, the two embedders 7,805,952; in all
/// 7,818,517,072 — and its key/value sharing: the last 15 of 35 layers cache nothing.
#[test]
fn gemma3n_reads_its_towers_per_layer_embeddings_and_shared_key_values() {
    let text = include_str!("../../data/models/configs/google__gemma-3n-E4B-it.json");
    let model = serde_json::from_str::<HfConfig>(text).unwrap().to_model(None).unwrap();
    let spec = &model.spec;
    let total = spec.parameters() as f64;
    assert!((total / 7_818_517_072.0 - 1.0).abs() < 0.005, "{total}");
    let lm = spec.stacks().find(|s| s.generates()).unwrap();
    assert_eq!((lm.layers, lm.kv_shared_layers), (35, 15));
    // 20 caching layers × 2 key/value heads × 256 × 2 (key and value) × 2 bytes.
    assert_eq!(lm.kv_cache_bytes_per_token(2), 20 * 2 * 256 * 2 * 2);
    let audio = spec
        .stacks()
        .find(|s| matches!(s.input, crate::spec::Modality::Audio { .. }))
        .unwrap();
    assert_eq!(
        (audio.layers, audio.hidden_size, audio.tokens_per_item(0)),
        (12, 1536, 752)
    );
    assert!(spec
        .conv_nets()
        .any(|c| c.parameters == 294_126_912 && c.image_size == 768));
    // An image encoder hwfit has no figures for is an error naming it.
    let unknown = text.replace("mobilenetv5_300m_enc", "mobilenetv9_enc");
    let err = serde_json::from_str::<HfConfig>(&unknown)
        .unwrap()
        .to_model(None)
        .unwrap_err();
    assert!(format!("{err}").contains("mobilenetv9_enc"), "{err}");
}

/// DINOv3's ViT (`dinov3_vit`), from transformers 5.24's `DINOv3ViTConfig` defaults (ViT-S/16) and
/// as ViT-L/16: 21,595,008 and 303,125,504 parameters built by `DINOv3ViTModel` on the meta device;
/// the DINOv3 README gives "21M" and "300M". Rotary positions keep no position table.
#[test]
fn dinov3_vit_reads_as_a_rotary_vision_transformer() {
    let small = serde_json::json!({
        "model_type": "dinov3_vit", "architectures": ["DINOv3ViTModel"], "hidden_size": 384,
        "intermediate_size": 1536, "num_hidden_layers": 12, "num_attention_heads": 6, "patch_size": 16,
        "image_size": 224, "num_register_tokens": 0, "use_gated_mlp": false, "rope_theta": 100.0
    });
    let large = serde_json::json!({
        "model_type": "dinov3_vit", "architectures": ["DINOv3ViTModel"], "hidden_size": 1024,
        "intermediate_size": 4096, "num_hidden_layers": 24, "num_attention_heads": 16, "patch_size": 16,
        "image_size": 224, "num_register_tokens": 4, "use_gated_mlp": false, "rope_theta": 100.0
    });
    for (config, built) in [(small, 21_595_008.0), (large, 303_125_504.0)] {
        let model = HfConfig::deserialize_value(&config).unwrap().to_model(None).unwrap();
        let p = model.spec.parameters() as f64;
        assert!((p / built - 1.0).abs() < 0.02, "{p} vs {built}");
        let encoder = model.spec.stacks().next().unwrap();
        assert_eq!((encoder.learned_positions, encoder.rotary), (0, true));
        assert_eq!(model.spec.family, crate::Family::Vision);
        // 14 × 14 patches, the class token and the registers.
        let registers = config["num_register_tokens"].as_u64().unwrap();
        assert_eq!(encoder.tokens_per_item(0), 196 + 1 + registers);
    }
}

/// Hybrid decoders, each against the parameters transformers 5.24 builds from the same config on the
/// meta device (hwfit leaves out norms, biases and per-head constants: under 0.05 %): Granite 4's
/// Mamba-2 layers, LFM2's short convolutions, Nemotron-H's block pattern with dense, expert and
/// latent-expert blocks.
#[test]
fn hybrid_decoders_count_their_mixers_as_transformers_builds_them() {
    let cases: [(&str, &str, u64); 5] = [
        (
            "granite-4.0-h-350m",
            include_str!("../../data/models/configs/ibm-granite__granite-4.0-h-350m.json"),
            340_332_224,
        ),
        (
            "LFM2-350M",
            include_str!("../../data/models/configs/LiquidAI__LFM2-350M.json"),
            354_483_968,
        ),
        (
            "Nemotron-H-56B",
            include_str!("../../data/models/configs/nvidia__Nemotron-H-56B-Base-8K.json"),
            56_324_350_464,
        ),
        (
            "Nemotron-3-Nano",
            include_str!("../../data/models/configs/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"),
            31_577_937_344,
        ),
        (
            "Nemotron-3-Super",
            include_str!("../../data/models/configs/nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.json"),
            120_668_687_360,
        ),
    ];
    for (name, text, built) in cases {
        let config = HfConfig::deserialize_value(&parse_config_text(text).unwrap()).unwrap();
        let spec = config.to_model(None).unwrap().spec;
        let off = (spec.parameters() as f64 / built as f64 - 1.0).abs();
        assert!(off < 5e-4, "{name}: {} vs {built}", spec.parameters());
    }
}

#[test]
fn hybrid_decoders_cache_keys_for_attention_and_a_fixed_state_for_the_rest() {
    let read = |text: &str| {
        let config = HfConfig::deserialize_value(&parse_config_text(text).unwrap()).unwrap();
        config.to_model(None).unwrap().spec
    };
    // Granite 4.0 H 350M: 4 attention layers (4 KV heads of 64) and 28 Mamba-2 layers, each keeping
    // 48 heads × 32 × 128 state values and 3 inputs of 1536 + 2 × 128 convolved channels.
    let granite = read(include_str!(
        "../../data/models/configs/ibm-granite__granite-4.0-h-350m.json"
    ));
    let lm = granite.generating_stack().unwrap();
    assert_eq!((lm.layers, lm.recurrent_layers, lm.rotary), (32, 28, false));
    assert_eq!(granite.kv_cache_bytes_per_token(2), 4 * 2 * 4 * 64 * 2);
    let state = 28 * (48 * 32 * 128 + 3 * (1536 + 256)) * 2;
    assert_eq!(granite.recurrent_state_bytes(2), state);
    assert_eq!(granite.kv_cache_bytes(4096, 2), 4096 * 4 * 2 * 4 * 64 * 2 + state);
    // The state adds to a decode step's FLOPs (update and read-out) but not with the context.
    let flops = |context| granite.flops_per_generated_token(context).unwrap();
    assert_eq!(flops(2000) - flops(1000), 2 * 1000 * 4 * 12 * 64);
    // Nemotron 3 Nano: 52 blocks pair into 29 mixer layers, 23 with experts and 6 without a
    // feed-forward; its Mamba state is kept in fp32.
    let nano = read(include_str!(
        "../../data/models/configs/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"
    ));
    let lm = nano.generating_stack().unwrap();
    assert_eq!(
        (lm.layers, lm.recurrent_layers, lm.mixer_only_layers, lm.moe_layers()),
        (29, 23, 6, 23)
    );
    assert_eq!(
        nano.recurrent_state_bytes(2),
        23 * (64 * 64 * 128 * 4 + 3 * (4096 + 2 * 8 * 128) * 2)
    );
    // LFM2: ten gated short convolutions of three taps; the six attention layers normalise queries
    // and keys.
    let lfm = read(include_str!("../../data/models/configs/LiquidAI__LFM2-350M.json"));
    let lm = lfm.generating_stack().unwrap();
    assert_eq!(
        (lm.recurrent_layers, lm.intermediate_size, lm.qk_norm),
        (10, 4608, true)
    );
    assert_eq!(lfm.recurrent_state_bytes(2), 10 * 2 * 1024 * 2);
}

#[test]
fn kimi_delta_attention_layers_keep_a_state_and_latent_attention_layers_a_cache() {
    let read = |text: &str| {
        let config = HfConfig::deserialize_value(&parse_config_text(text).unwrap()).unwrap();
        config.to_model(None).unwrap().spec
    };
    // Kimi Linear 48B-A3B: 20 KDA layers (32 heads of 128, a low-rank gate) and 7 latent-attention
    // layers; the checkpoint's tensors sum to 49,122,681,728 (norms and per-head constants left
    // out here). One KDA layer: q, k, v (3 × 4096 × 2304), the write strength (32 × 2304), the
    // decay's and the gate's low-rank pairs (2 × (128 × 2304 + 4096 × 128)), the convolution
    // (3 × 4096 × 4) and the output (2304 × 4096).
    let linear = read(include_str!(
        "../../data/models/configs/moonshotai__Kimi-Linear-48B-A3B-Instruct.json"
    ));
    assert!((linear.parameters() as f64 / 49_122_681_728.0 - 1.0).abs() < 1e-5);
    let lm = linear.generating_stack().unwrap();
    assert_eq!((lm.layers, lm.recurrent_layers), (27, 20));
    let kda = lm.state_mixer.unwrap();
    assert_eq!((kda.kind, kda.gate_rank), (MixerKind::KimiDeltaAttention, 128));
    assert_eq!(
        kda.parameters_per_layer(2304),
        3 * 4096 * 2304 + 32 * 2304 + 2 * (128 * 2304 + 4096 * 128) + 3 * 4096 * 4 + 2304 * 4096
    );
    assert_eq!(linear.kv_cache_bytes_per_token(2), 7 * (512 + 64) * 2);
    assert_eq!(
        linear.recurrent_state_bytes(2),
        20 * (32 * 128 * 128 + 3 * 3 * 4096) * 2
    );
    // Kimi-K3 (text_config): 69 KDA layers with a full-rank gate, 24 latent-attention layers gated
    // per value, latent experts of 3,584 (the card: 2.8T, 104B activated).
    let k3 = read(include_str!("../../data/models/configs/moonshotai__Kimi-K3.json"));
    let lm = k3.generating_stack().unwrap();
    assert_eq!((lm.layers, lm.recurrent_layers), (93, 69));
    assert_eq!(lm.state_mixer.unwrap().gate_rank, 0);
    assert!(lm.gated_attention);
    assert_eq!((lm.experts, lm.active_experts, lm.expert_latent_size), (896, 16, 3584));
    assert!((k3.parameters() as f64 / 2.8e12 - 1.0).abs() < 0.02);
    assert!((k3.active_parameters() as f64 / 104e9 - 1.0).abs() < 0.02);
}

#[test]
fn block_patterns_that_do_not_add_up_are_named() {
    let err = |json: &str| {
        HfConfig::deserialize_value(&parse_config_text(json).unwrap())
            .unwrap()
            .to_model(None)
            .unwrap_err()
            .to_string()
    };
    let base = r#""model_type": "nemotron_h", "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128, "mamba_num_heads": 4, "mamba_head_dim": 32, "ssm_state_size": 16"#;
    assert!(err(&format!(
        r#"{{{base}, "num_hidden_layers": 3, "hybrid_override_pattern": "M-"}}"#
    ))
    .contains("the block pattern has 2 blocks but num_hidden_layers is 3"));
    assert!(err(&format!(
        r#"{{{base}, "num_hidden_layers": 2, "hybrid_override_pattern": "MX"}}"#
    ))
    .contains("block 'X'"));
    assert!(err(&format!(
        r#"{{{base}, "num_hidden_layers": 3, "hybrid_override_pattern": "M--"}}"#
    ))
    .contains("2 feed-forward and expert blocks for 1 mixer blocks"));
    assert!(err(&format!(
        r#"{{{base}, "num_hidden_layers": 2, "hybrid_override_pattern": "ME"}}"#
    ))
    .contains("'n_routed_experts' is missing"));
}

#[test]
fn python_json_numbers_read_as_null_outside_strings() {
    let value = parse_config_text(r#"{"a": [0.0, Infinity], "b": -Infinity, "c": NaN, "d": "NaN Infinity"}"#).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"a": [0.0, null], "b": null, "c": null, "d": "NaN Infinity"})
    );
    assert!(parse_config_text(r#"{"a": Infinit}"#).is_err());
    assert!(parse_config_text(r#"{"a": "\"Infinity"}"#).unwrap()["a"] == "\"Infinity");
}

/// Parakeet, against the parameters transformers 5.24 builds on the meta device from its config
/// classes' defaults — `ParakeetCTCConfig()` (608,799,745: parakeet-ctc-0.6b's shape),
/// `ParakeetTDTConfig()` (625,877,638: parakeet-tdt-0.6b-v3's, "600-million-parameter" on the v2
/// card) — and with 42 encoder layers (1,062,540,289: parakeet-ctc-1.1b's depth).
#[test]
fn parakeet_reads_its_fast_conformer_and_its_head() {
    let encoder = |layers: u32| {
        serde_json::json!({
            "model_type": "parakeet_encoder", "hidden_size": 1024, "num_hidden_layers": layers,
            "num_attention_heads": 8, "num_key_value_heads": 8, "intermediate_size": 4096,
            "conv_kernel_size": 9, "subsampling_factor": 8, "subsampling_conv_channels": 256,
            "subsampling_conv_kernel_size": 3, "subsampling_conv_stride": 2, "num_mel_bins": 80
        })
    };
    let ctc = |layers: u32| {
        serde_json::json!({
            "model_type": "parakeet_ctc", "architectures": ["ParakeetForCTC"], "vocab_size": 1025,
            "encoder_config": encoder(layers)
        })
    };
    let tdt = serde_json::json!({
        "model_type": "parakeet_tdt", "architectures": ["ParakeetForTDT"], "vocab_size": 8193,
        "decoder_hidden_size": 640, "num_decoder_layers": 2, "durations": [0, 1, 2, 3, 4],
        "encoder_config": encoder(24)
    });
    for (config, built) in [
        (ctc(24), 608_799_745.0),
        (tdt, 625_877_638.0),
        (ctc(42), 1_062_540_289.0),
    ] {
        let model = HfConfig::deserialize_value(&config).unwrap().to_model(None).unwrap();
        let p = model.spec.parameters() as f64;
        assert!((p / built - 1.0).abs() < 0.005, "{p} vs {built}");
        assert_eq!(
            (model.spec.family, model.spec.subfamily),
            (Family::Audio, crate::Subfamily::SpeechRecognition)
        );
        // A 30-second clip: 3,000 mel frames subsampled eight times.
        let encoder = model.spec.stacks().next().unwrap();
        assert_eq!(encoder.tokens_per_item(0), 375);
    }
    let err = HfConfig::deserialize_value(&serde_json::json!({"model_type": "parakeet_ctc", "vocab_size": 1025}))
        .unwrap()
        .to_model(None)
        .unwrap_err();
    assert!(err.to_string().contains("'encoder_config' is missing"), "{err}");
}

/// DINOv2 with registers reads as DINOv2 with its register tokens among a pass's tokens; an
/// implausible register count is refused by name.
#[test]
fn register_tokens_join_a_vision_transformers_tokens() {
    let config = serde_json::json!({
        "model_type": "dinov2_with_registers", "hidden_size": 768, "num_hidden_layers": 12,
        "num_attention_heads": 12, "image_size": 224, "patch_size": 14, "num_register_tokens": 4
    });
    let model = HfConfig::deserialize_value(&config).unwrap().to_model(None).unwrap();
    let encoder = model.spec.stacks().next().unwrap();
    assert_eq!(encoder.tokens_per_item(0), 16 * 16 + 1 + 4);
    let mut huge = config;
    huge["num_register_tokens"] = 5000.into();
    let err = HfConfig::deserialize_value(&huge).unwrap().to_model(None).unwrap_err();
    assert!(format!("{err}").contains("num_register_tokens"), "{err}");
}

#[test]
fn deepseek_v4_reads_its_compressed_attention_layer_by_layer() {
    let read = |text: &str| {
        let config = HfConfig::deserialize_value(&parse_config_text(text).unwrap()).unwrap();
        config.to_model(None).unwrap()
    };
    let flash_text = include_str!("../../data/models/configs/deepseek-ai__DeepSeek-V4-Flash.json");
    let flash = read(flash_text);
    let spec = &flash.spec;
    let lm = spec.generating_stack().unwrap();
    let c = lm.compressed_attention.unwrap();
    // compress_ratios: two window-only layers, then CSA (4) and HCA (128) in turn; the 44th entry is
    // the multi-token-prediction layer's.
    assert_eq!((c.sparse_layers, c.heavy_layers, c.window), (21, 20, 128));
    assert_eq!((c.index_heads, c.index_head_dim, c.index_topk), (64, 128, 512));
    assert!(lm.sliding_window.is_none() && lm.full_attention.is_none());
    // Per layer as transformers 5.24 builds it: q_a 4096×1024, q_b 1024×(64×512), kv 4096×512,
    // o_a (64×512)×1024 in 8 groups, o_b (8×1024)×4096.
    assert_eq!(
        lm.attention_parameters_per_layer(),
        4_194_304 + 33_554_432 + 2_097_152 + 33_554_432 + 33_554_432
    );
    // 284,332,230,231 in transformers (norms, hyper-connections and biases left out here); the
    // card's 284B and 13B activated.
    let total = spec.parameters() as f64;
    assert!((total / 284_332_230_231.0 - 1.0).abs() < 0.001, "{total}");
    let active = spec.active_parameters() as f64;
    assert!((active / 13e9 - 1.0).abs() < 0.03, "{active}");
    // The cache: every layer's 128-token window of one 512-wide head, then one entry per 4 tokens
    // (with its 128-wide indexer key) in CSA layers and one per 128 in HCA layers.
    let cache = |tokens: u64| spec.kv_cache_bytes(tokens, 2);
    let expected =
        |tokens: u64| (43 * tokens.min(128) * 512 + 21 * (tokens / 4) * (512 + 128) + 20 * (tokens / 128) * 512) * 2;
    let long = 1 << 20;
    for tokens in [1, 100, 128, 4096, long] {
        assert_eq!(cache(tokens), expected(tokens), "{tokens}");
    }
    // A million-token context caches a tenth of what DeepSeek-V3's latent attention does (7.2
    // against 73.7 GB at 16 bits).
    let v3 = &Catalog::builtin().resolve("deepseek-ai/DeepSeek-V3").unwrap().spec;
    assert!(cache(long) * 9 < v3.kv_cache_bytes(long, 2), "{}", cache(long));
    // A decode step's attention grows with the compressed entries, not the raw context: the CSA
    // layers attend to at most 512 entries, and what grows is the indexer's scoring of every entry
    // (64 heads × 128 per entry) and the HCA layers' one entry per 128 tokens — at a million
    // tokens a tenth of DeepSeek-V3's step.
    let flops = |context: u64| spec.flops_per_generated_token(u32::try_from(context).unwrap()).unwrap();
    let indexer = |context: u64| 2 * 21 * (context / 4) * 64 * 128;
    let heavy = |context: u64| 2 * 20 * (context / 128) * 64 * 512;
    assert_eq!(
        flops(long) - flops(4096),
        indexer(long) - indexer(4096) + heavy(long) - heavy(4096)
    );
    assert!(flops(long) * 10 < v3.flops_per_generated_token(1 << 20).unwrap());
    // The checkpoint: FP8 with the routed experts in FP4 — read as mxfp4.
    assert_eq!(flash.checkpoint.unwrap().precision, Some(crate::Precision::Mxfp4));

    // Pro: 61 layers (the 62nd ratio is the multi-token-prediction layer's); 1.6T and 49B on the card.
    let pro = read(include_str!(
        "../../data/models/configs/deepseek-ai__DeepSeek-V4-Pro.json"
    ));
    let total = pro.spec.parameters() as f64;
    assert!((total / 1_572_997_179_491.0 - 1.0).abs() < 0.001, "{total}");
    assert!((pro.spec.active_parameters() as f64 / 49e9 - 1.0).abs() < 0.03);

    // Without compress_ratios, transformers' layer_types and compress_rates say the same.
    let mut value = parse_config_text(flash_text).unwrap();
    let ratios: Vec<u64> = value["compress_ratios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_u64().unwrap())
        .collect();
    let types: Vec<&str> = ratios
        .iter()
        .map(|r| match r {
            0 => "sliding_attention",
            4 => "compressed_sparse_attention",
            _ => "heavily_compressed_attention",
        })
        .collect();
    value.as_object_mut().unwrap().remove("compress_ratios");
    value["layer_types"] = serde_json::json!(types);
    value["compress_rates"] =
        serde_json::json!({"compressed_sparse_attention": 4, "heavily_compressed_attention": 128});
    let config = HfConfig::deserialize_value(&value).unwrap();
    let again = config.to_model(None).unwrap().spec;
    assert_eq!(again.parameters(), spec.parameters());
    assert_eq!(again.kv_cache_bytes(long, 2), cache(long));
    // A rate that is neither kind's is named.
    value["layer_types"] = serde_json::json!(["sliding_attention", "linear_attention"]);
    let err = HfConfig::deserialize_value(&value).unwrap().to_model(None).unwrap_err();
    assert!(
        err.to_string()
            .contains("'linear_attention' is not a DeepSeek-V4 attention kind"),
        "{err}"
    );
}

#[test]
fn mimo_v2_flash_reads_its_value_width_and_each_layer_kinds_heads() {
    let text = include_str!("../../data/models/configs/XiaomiMiMo__MiMo-V2-Flash.json");
    let config = HfConfig::deserialize_value(&parse_config_text(text).unwrap()).unwrap();
    let spec = config.to_model(None).unwrap().spec;
    let lm = spec.generating_stack().unwrap();
    // hybrid_layer_pattern: 39 sliding-window layers (8 key/value heads), 9 full ones (4);
    // moe_layer_freq: the first layer dense.
    assert_eq!(lm.sliding_window.map(|w| (w.window, w.layers)), Some((128, 39)));
    assert_eq!(lm.kv_heads, 8);
    assert_eq!(lm.full_attention.map(|f| (f.kv_heads, f.head_dim)), Some((4, 192)));
    assert_eq!((lm.head_dim, lm.value_head_dim), (192, 128));
    assert_eq!(
        (lm.dense_layers, lm.dense_intermediate_size, lm.moe_layers()),
        (1, 16384, 47)
    );
    // Per layer as transformers 5.24 builds it: a sliding-window layer's q 4096×(64×192), k
    // 4096×(8×192), v 4096×(8×128), o (64×128)×4096; a full layer's k and v at 4 heads.
    assert_eq!(
        lm.attention_parameters_per_layer(),
        50_331_648 + 6_291_456 + 4_194_304 + 33_554_432
    );
    // 308,778,768,832 in transformers (norms and sinks left out here); the README's 309B / 15B.
    let total = spec.parameters() as f64;
    assert!((total / 308_778_768_832.0 - 1.0).abs() < 0.001, "{total}");
    assert!((spec.active_parameters() as f64 / 15e9 - 1.0).abs() < 0.05);
    // The cache: keys 192 and values 128 wide; the window's 8 heads in 39 layers, 4 in 9 for the
    // whole context.
    assert_eq!(
        spec.kv_cache_bytes(4096, 2),
        (39 * 128 * 8 * 320 + 9 * 4096 * 4 * 320) * 2
    );
}

#[test]
fn deepseek_sparse_attention_attends_to_its_top_k_and_caches_the_indexers_keys() {
    let catalog = Catalog::builtin();
    let v32 = &catalog.resolve("deepseek-ai/DeepSeek-V3.2").unwrap().spec;
    let lm = v32.generating_stack().unwrap();
    let d = lm.sparse_attention.unwrap();
    assert_eq!(
        (d.index_heads, d.index_head_dim, d.index_topk, d.indexed_layers),
        (64, 128, 2048, 61)
    );
    // 671,878 M in transformers 5.24: the indexers' projections (1536 × 64·128 queries, 7168 × 128
    // keys, 7168 × 64 weights per layer) are what DeepSeek-V3's count lacks.
    let total = v32.parameters() as f64;
    assert!((total / 671_878e6 - 1.0).abs() < 0.0005, "{total}");
    // The cache: MLA's 512 + 64 values and the indexer's 128-wide key per token and layer.
    assert_eq!(v32.kv_cache_bytes(1000, 2), 1000 * 61 * (576 + 128) * 2);
    // Past 2,048 tokens a decode step's attention stops growing; the indexers' scoring does not.
    let flops = |context| v32.flops_per_generated_token(context).unwrap();
    assert_eq!(flops(100_000) - flops(50_000), 2 * 61 * 50_000 * 64 * 128);
    // GLM-5.2: 57 of 78 layers share the previous indexer's choice (no indexer, no keys).
    let glm = &catalog.resolve("zai-org/GLM-5.2").unwrap().spec;
    assert_eq!(
        glm.generating_stack().unwrap().sparse_attention.unwrap().indexed_layers,
        21
    );
    assert!((glm.parameters() as f64 / 743_377e6 - 1.0).abs() < 0.0005);
    // MiniMax-M3's block-sparse attention: a 4-head indexer with one shared 128-wide key (no head
    // weights) on the 57 layers sparse_attention_freq flags; a query attends to 16 blocks of 128
    // and the block before it. Its dense layers are dense_intermediate_size (12,288) wide.
    let m3 = &catalog.resolve("MiniMaxAI/MiniMax-M3").unwrap().spec;
    let lm = m3.generating_stack().unwrap();
    let d = lm.sparse_attention.unwrap();
    assert_eq!(
        (
            d.index_heads,
            d.index_head_dim,
            d.index_topk,
            d.indexed_layers,
            d.weighted_heads
        ),
        (4, 128, 2176, 57, false)
    );
    assert_eq!((lm.dense_layers, lm.dense_intermediate_size), (3, 12288));
    // transformers 5.24: MiniMaxM3VLTextModel's 424,945,372,416 and the 200,064 × 6,144 output
    // projection (norms left out here).
    let total = m3.parameters() as f64;
    assert!((total / 426_174_565_632.0 - 1.0).abs() < 0.0005, "{total}");
}
