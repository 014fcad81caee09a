use crate::map::SortedMap;
use alloc::string::String;
use alloc::vec;

use super::*;

fn classify_name(name: &str) -> Classification {
    Classifier::builtin().classify(&ClassifierInput::named(name))
}

fn family_of(name: &str) -> Option<String> {
    classify_name(name).family
}

#[test]
fn classifier_guide_examples() {
    let bert = classify_name("bert-base-uncased");
    assert_eq!(bert.family.as_deref(), Some("embedding"));
    assert_eq!(bert.subfamily.as_deref(), Some("masked_lm"));
    assert_eq!(bert.recommended_template.as_deref(), Some("hf_embedding_template.py"));

    let gpt2 = Classifier::builtin().classify(&ClassifierInput {
        model_name: "gpt2".into(),
        model_class: Some("GPT2LMHeadModel".into()),
        tasks: vec!["text-generation".into(), "text-completion".into()],
        ..ClassifierInput::default()
    });
    assert_eq!(gpt2.family.as_deref(), Some("text_generation"));
    assert_eq!(gpt2.subfamily.as_deref(), Some("causal_lm"));
    assert!(gpt2.confidence > 0.8, "{}", gpt2.confidence);
    assert_eq!(gpt2.analyses.len(), 3);
}

#[test]
fn classifier_guide_wav2vec2_example() {
    let mut hw = SortedMap::new();
    hw.insert(
        "cuda".into(),
        HardwareCompat {
            compatible: true,
            memory_usage: Some(MemoryUsage { peak: Some(1500.0) }),
        },
    );
    hw.insert(
        "mps".into(),
        HardwareCompat {
            compatible: true,
            memory_usage: None,
        },
    );
    hw.insert(
        "rocm".into(),
        HardwareCompat {
            compatible: false,
            memory_usage: None,
        },
    );
    let result = Classifier::builtin().classify(&ClassifierInput {
        model_name: "facebook/wav2vec2-base-960h".into(),
        model_class: Some("Wav2Vec2ForCTC".into()),
        tasks: vec!["automatic-speech-recognition".into(), "audio-classification".into()],
        methods: vec!["forward".into(), "recognize".into(), "transcribe".into()],
        hw_compatibility: Some(hw),
    });
    assert_eq!(result.family.as_deref(), Some("audio"));
    assert_eq!(result.subfamily.as_deref(), Some("speech_recognition"));
    let sources: Vec<&str> = result.analyses.iter().map(|a| a.source.as_str()).collect();
    assert_eq!(
        sources,
        [
            "name_analysis",
            "class_analysis",
            "task_analysis",
            "method_analysis",
            "hardware_analysis"
        ]
    );
}

#[test]
fn token_matching_not_substrings() {
    assert_eq!(
        family_of("sentence-transformers/sentence-t5-base").as_deref(),
        Some("embedding")
    );
    assert_eq!(family_of("allenai/delphi"), None);
    assert_eq!(family_of("facebook/hubert-large-ls960-ft").as_deref(), Some("audio"));
}

#[test]
fn two_modalities_make_a_multimodal_model() {
    let r = classify_name("nlpconnect/vit-gpt2-image-captioning");
    assert_eq!(r.family.as_deref(), Some("multimodal"));
}

#[test]
fn class_names_decide_architecture_and_head() {
    let c = Classifier::builtin();
    let by_class = |class: &str| {
        c.classify(&ClassifierInput {
            model_name: "my-model".into(),
            model_class: Some(class.into()),
            ..Default::default()
        })
    };
    let whisper = by_class("WhisperForConditionalGeneration");
    assert_eq!(whisper.family.as_deref(), Some("audio"));
    let t5 = by_class("T5ForConditionalGeneration");
    assert_eq!(t5.subfamily.as_deref(), Some("seq2seq"));
    let qwen_vl = by_class("Qwen2VLForConditionalGeneration");
    assert_eq!(qwen_vl.family.as_deref(), Some("multimodal"));
    let auto = by_class("AutoModelForCausalLM");
    assert_eq!(auto.family.as_deref(), Some("text_generation"));
    let vits = by_class("VitsModel");
    assert_eq!(vits.family.as_deref(), Some("audio"));
}

#[test]
fn tasks_outweigh_the_name() {
    let r = Classifier::builtin().classify(&ClassifierInput {
        model_name: "CIDAS/clipseg-rd64-refined".into(),
        tasks: vec!["image-segmentation".into()],
        ..Default::default()
    });
    assert_eq!(r.family.as_deref(), Some("vision"));
    assert_eq!(r.subfamily.as_deref(), Some("segmentation"));
}

#[test]
fn custom_families_extend_the_builtins() {
    let c = Classifier::with_custom_definitions(
        r#"{"retrieval": {"description": "Retrieval and search models",
            "keywords": ["retrieval", "search", "index", "rag", "retrieve", "dpr"],
            "tasks": ["retrieval", "dense-passage-retrieval", "document-search"],
            "methods": ["retrieve", "search", "index", "query"]}}"#,
    )
    .unwrap();
    let r = c.classify(&ClassifierInput::named("facebook/dpr-ctx_encoder-single-nq-base"));
    assert_eq!(r.family.as_deref(), Some("retrieval"));
    assert_eq!(r.recommended_template.as_deref(), Some("hf_retrieval_template.py"));
    assert!(c.family_names().any(|f| f == "vision"));
}

#[test]
fn unknown_names_have_no_family_and_no_panic() {
    for name in ["", "   ", "???", "x", "acme/thing"] {
        let r = classify_name(name);
        assert_eq!(r.family, None, "{name}");
        assert!(r.confidence.abs() < f64::EPSILON);
    }
}

#[test]
fn a_generic_task_is_weak_evidence_that_a_clear_name_outweighs() {
    let classify = |name: &str, task: &str| {
        Classifier::builtin()
            .classify(&ClassifierInput {
                model_name: name.into(),
                tasks: vec![task.into()],
                ..Default::default()
            })
            .family
    };
    // The Hub tags headless speech encoders, codecs and LM backbones `feature-extraction`.
    assert_eq!(
        classify("facebook/hubert-base-ls960", "feature-extraction").as_deref(),
        Some("audio")
    );
    assert_eq!(
        classify("facebook/encodec_24khz", "feature-extraction").as_deref(),
        Some("audio")
    );
    assert_eq!(
        classify("facebook/bart-large", "feature-extraction").as_deref(),
        Some("text_generation")
    );
    // A name that says nothing: the generic task still decides.
    assert_eq!(
        classify("acme/thing", "feature-extraction").as_deref(),
        Some("embedding")
    );
    // A specific task still outweighs the name.
    assert_eq!(
        classify("facebook/bart-large-mnli", "zero-shot-classification").as_deref(),
        Some("embedding")
    );
}

#[test]
fn a_keyword_inside_a_longer_matched_phrase_is_not_evidence_of_its_own() {
    // "bert" inside "w2v-bert" must not add a second modality (text) to the speech encoder.
    let r = classify_name("facebook/w2v-bert-2.0");
    assert_eq!(r.family.as_deref(), Some("audio"));
}
