//! Size estimates for models the catalog does not know, read from their names: an explicit count
//! (`-7b`, `-350m`, `1.1B`, `8x7b`) or a size word (`tiny` … `xxl`) where the family names its sizes
//! that way. The result says it is an estimate and what it rests on.

use alloc::format;
use alloc::string::String;
use alloc::vec;

use crate::catalog::build::{stack, vit};
use crate::catalog::{ResolvedModel, SpecSource};
use crate::spec::{Modality, ModelSpec, StackRole};
use crate::text::words;
use crate::{Classifier, ClassifierInput, Family, Subfamily};

/// Parameter counts conventionally meant by size words in model names (BERT/T5/ViT/GPT-2 naming;
/// see [`size_words_hold`] for where they do not).
const SIZE_WORDS: &[(&str, u64)] = &[
    ("tiny", 20_000_000),
    ("mini", 30_000_000),
    ("small", 60_000_000),
    ("base", 110_000_000),
    ("medium", 355_000_000),
    ("large", 340_000_000),
    ("xl", 1_500_000_000),
    ("xxl", 11_000_000_000),
];

/// Reads an explicit parameter count such as `7b`, `1.1b`, `350m` or `8x7b` from a name.
#[must_use]
pub fn parameters_in_name(name: &str) -> Option<(u64, String)> {
    let lower = name.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_token = i == 0 || !bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'x';
        if !(bytes[i].is_ascii_digit() && starts_token) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let unit = bytes.get(i).copied();
        let ends_token = bytes.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric());
        let scale = match unit {
            Some(b'b') if ends_token => 1e9,
            Some(b'm') if ends_token => 1e6,
            _ => continue,
        };
        let Ok(value) = lower[start..i].parse::<f64>() else {
            continue;
        };
        // "8x7b": the expert multiplier just before.
        let experts = lower[..start]
            .strip_suffix('x')
            .and_then(|head| {
                let digits = head.rsplit(|c: char| !c.is_ascii_digit()).next()?;
                digits.parse::<f64>().ok()
            })
            .unwrap_or(1.0);
        let count = experts * value * scale;
        if count >= 1e6 {
            let token = &lower[start.saturating_sub(if experts > 1.0 { 2 } else { 0 })..=i];
            return Some((
                count as u64,
                format!("'{token}' in the name: {:.3} B parameters", count / 1e9),
            ));
        }
    }
    None
}

fn parameters_from_size_word(name: &str) -> Option<(u64, String)> {
    let tokens = words(name);
    SIZE_WORDS.iter().rev().find_map(|&(word, count)| {
        tokens
            .iter()
            .any(|t| t == word)
            .then(|| (count, format!("size word '{word}' in the name: about {} M parameters, as in BERT/T5/ViT/GPT-2 checkpoints so named", count / 1_000_000)))
    })
}

/// Whether size words in a name of this kind mean the BERT/T5/ViT/Whisper sizes. Not for causal
/// and chat language models or vision-language chat models: there "small" names anything from a
/// 60 M to a 32 B model (`Phi-3-small` 7 B, `Mistral-Small` 24 B, `granite-4.0-h-small` 32 B), so a
/// guess from the word would be silently wrong by orders of magnitude.
fn size_words_hold(family: Family, subfamily: Subfamily) -> bool {
    match family {
        Family::TextGeneration => subfamily == Subfamily::Seq2seq,
        Family::Multimodal => subfamily != Subfamily::VisionLanguage,
        Family::Embedding | Family::Vision | Family::Audio => true,
    }
}

/// Layer count for a dense transformer of `parameters` parameters under the aspect ratio of
/// Llama-style models (hidden = 128 × layers, 12·L·h² parameters per stack).
fn shape_for(parameters: u64) -> (u32, u32) {
    let layers = libm::round(libm::cbrt(parameters as f64 / 196_608.0)).max(2.0) as u32;
    (layers, 128 * layers)
}

/// Estimates a model from its name, or `None` when the name states no size (or only a size word
/// where such words say nothing: causal and chat language models, vision-language chat models).
#[must_use]
pub fn estimate(name: &str) -> Option<ResolvedModel> {
    let classification = Classifier::builtin().classify(&ClassifierInput::named(name));
    let family = classification.builtin_family().unwrap_or(Family::TextGeneration);
    let subfamily = classification
        .builtin_subfamily()
        .filter(|s| s.family() == family)
        .unwrap_or(family.default_subfamily());
    let (parameters, basis) = parameters_in_name(name).or_else(|| {
        size_words_hold(family, subfamily)
            .then(|| parameters_from_size_word(name))
            .flatten()
    })?;
    let (layers, hidden) = shape_for(parameters);
    let heads = hidden / 128;
    let generates = family == Family::TextGeneration || subfamily == Subfamily::VisionLanguage;
    let component = match family {
        // Vision-language chat models generate with a language model that holds nearly all their
        // parameters (the vision tower is a few hundred million).
        _ if generates => {
            stack(StackRole::Decoder, Modality::Text, layers, hidden, heads, 4 * hidden).vocab(32000, false)
        }
        Family::Vision => vit(layers, hidden, heads, 4 * hidden, 224, 16),
        Family::Audio => stack(
            StackRole::Encoder,
            Modality::Audio { frames: 1500 },
            layers,
            hidden,
            heads,
            4 * hidden,
        ),
        Family::Embedding | Family::Multimodal | Family::TextGeneration => {
            stack(StackRole::Encoder, Modality::Text, layers, hidden, heads, 4 * hidden).vocab(30522, true)
        }
    }
    .component();
    let max_positions = if generates { 4096 } else { 512 };
    Some(ResolvedModel {
        spec: ModelSpec {
            name: String::from(name),
            family,
            subfamily,
            components: vec![component],
            max_positions,
        },
        source: SpecSource::NameEstimate {
            basis: format!("{basis}; shape assumed: {layers} layers of width {hidden} (Llama-style aspect ratio)"),
        },
        checkpoint: crate::checkpoint::from_name(name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_explicit_counts() {
        assert_eq!(parameters_in_name("acme/wonder-7b-chat").unwrap().0, 7_000_000_000);
        assert_eq!(parameters_in_name("foo-1.1B").unwrap().0, 1_100_000_000);
        assert_eq!(parameters_in_name("bar_350m").unwrap().0, 350_000_000);
        assert_eq!(parameters_in_name("baz-8x7b").unwrap().0, 56_000_000_000);
        assert!(parameters_in_name("resnet-50").is_none());
        assert!(parameters_in_name("model-v2-2024").is_none());
    }

    #[test]
    fn estimate_is_marked_and_close_to_the_stated_size() {
        let resolved = estimate("acme/wonder-13b-chat").unwrap();
        assert!(resolved.source.is_estimate());
        let p = resolved.spec.parameters() as f64;
        assert!((p / 13e9 - 1.0).abs() < 0.25, "{p:e}");
        assert_eq!(resolved.spec.family, Family::TextGeneration);
    }

    #[test]
    fn size_words_give_estimates() {
        let resolved = estimate("someorg/custom-bert-base").unwrap();
        assert!(resolved.source.is_estimate());
        assert!(estimate("someorg/mystery").is_none());
        // A name no family claims says nothing by its size word either.
        assert!(estimate("someorg/custom-encoder-base").is_none());
        let t5 = estimate("google/t5-v1_1-small").unwrap();
        assert!(t5.spec.parameters() < 200_000_000, "{}", t5.spec.parameters());
    }

    #[test]
    fn size_words_do_not_size_language_models() {
        // 7 B, 32 B and a vision-language chat model: a word says nothing of their size.
        for name in [
            "microsoft/Phi-3-small-8k-instruct",
            "ibm-granite/granite-4.0-h-small",
            "acme/vision-chat-large-instruct-vl",
        ] {
            assert!(estimate(name).is_none(), "{name}");
        }
    }

    #[test]
    fn a_vision_language_chat_model_is_estimated_as_a_generator() {
        let resolved = estimate("Qwen/Qwen3-VL-8B-Instruct").unwrap();
        assert_eq!(resolved.spec.family, Family::Multimodal);
        assert!(resolved.spec.is_generative());
        assert!((resolved.spec.parameters() as f64 / 8e9 - 1.0).abs() < 0.25);
    }
}
