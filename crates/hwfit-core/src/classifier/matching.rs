//! Token-level keyword matching: a keyword matches whole tokens of a name, never a raw substring
//! ("delphi" holds no "phi"; "sentence-t5" is a phrase of two tokens).

use alloc::string::String;
use alloc::vec::Vec;

use crate::text::{normalize_key, words};

/// A keyword prepared for matching.
#[derive(Debug, Clone)]
pub struct Keyword {
    /// The keyword as written in the definitions.
    pub text: String,
    tokens: Vec<String>,
    joined: String,
}

/// How a keyword matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// A whole token, a phrase of tokens, or the tokens written together.
    Exact,
    /// A token that extends the keyword with a version (`gpt2`, `llama3`, `yolov8`) or a compound
    /// that ends with it (`distilbert`, `tinyllama`).
    Affix,
}

fn is_version_suffix(rest: &str) -> bool {
    let digits = rest.strip_prefix('v').unwrap_or(rest);
    let mut chars = digits.chars().peekable();
    let mut n = 0;
    while chars.peek().is_some_and(char::is_ascii_digit) {
        chars.next();
        n += 1;
    }
    // at most one trailing letter: "3b" in "phi3b" is a size, "yolov8n" a variant
    n > 0 && chars.count() <= 1
}

impl Keyword {
    /// Prepares a keyword.
    #[must_use]
    pub fn new(text: &str) -> Self {
        Self {
            text: String::from(text),
            tokens: words(text),
            joined: normalize_key(text),
        }
    }

    /// The keyword's words.
    #[must_use]
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// Whether the keyword occurs in `tokens` (already lower-case words of a name), and how.
    #[must_use]
    pub fn find(&self, tokens: &[String]) -> Option<MatchKind> {
        if self.tokens.is_empty() {
            return None;
        }
        if self.tokens.len() > 1 {
            let phrase = tokens.windows(self.tokens.len()).any(|w| w == self.tokens.as_slice());
            let written_together = tokens.contains(&self.joined);
            return (phrase || written_together).then_some(MatchKind::Exact);
        }
        let kw = self.joined.as_str();
        let mut best = None;
        for t in tokens {
            if t == kw {
                return Some(MatchKind::Exact);
            }
            let versioned = t.strip_prefix(kw).is_some_and(is_version_suffix);
            let compound = kw.len() >= 4 && t.len() > kw.len() && t.ends_with(kw);
            if versioned || compound {
                best = Some(MatchKind::Affix);
            }
        }
        best
    }

    /// Whether the keyword starts a normalized class name (`"gpt2lmheadmodel"` starts with `gpt2`).
    #[must_use]
    pub fn starts(&self, class_key: &str) -> bool {
        !self.joined.is_empty() && class_key.starts_with(self.joined.as_str())
    }

    /// Length of the keyword, to prefer the most specific of several matches.
    #[must_use]
    pub fn specificity(&self) -> usize {
        self.joined.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(kw: &str, name: &str) -> Option<MatchKind> {
        Keyword::new(kw).find(&words(name))
    }

    #[test]
    fn whole_tokens_only() {
        assert_eq!(find("phi", "microsoft/phi-2"), Some(MatchKind::Exact));
        assert_eq!(find("phi", "allenai/delphi"), None);
        assert_eq!(find("opt", "facebook/opt-125m"), Some(MatchKind::Exact));
        assert_eq!(find("opt", "optimum/bert"), None);
    }

    #[test]
    fn versions_and_compounds() {
        assert_eq!(find("gpt", "openai-community/gpt2"), Some(MatchKind::Affix));
        assert_eq!(find("yolo", "Ultralytics/YOLOv8"), Some(MatchKind::Affix));
        assert_eq!(find("bert", "distilbert-base-uncased"), Some(MatchKind::Affix));
        assert_eq!(find("llama", "TinyLlama-1.1B"), Some(MatchKind::Affix));
        assert_eq!(find("gpt", "gptq-model"), None);
    }

    #[test]
    fn phrases() {
        assert_eq!(
            find("sentence-t5", "sentence-transformers/sentence-t5-base"),
            Some(MatchKind::Exact)
        );
        assert_eq!(find("sentence-t5", "google/t5-sentence"), None);
        assert_eq!(find("speech_to_text", "facebook/s2t-small"), None);
    }
}
