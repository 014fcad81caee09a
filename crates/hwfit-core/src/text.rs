//! Small text helpers shared by name resolution, parsing and the classifier.

use alloc::string::String;
use alloc::vec::Vec;

/// Lower-cases and keeps only ASCII letters and digits: `"Q4_K_M"` and `"q4-k-m"` both become
/// `"q4km"`. Used to compare names that people spell with varying separators.
#[must_use]
pub fn normalize_key(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Splits a name into lower-case word tokens at every non-alphanumeric character
/// (`"google/flan-t5_base"` → `["google", "flan", "t5", "base"]`).
#[must_use]
pub fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether `needle` occurs in `haystack`, compared only where the first byte matches: for device
/// names (tens of bytes) against short patterns this costs a fraction of `str::contains`, whose
/// searcher set-up outweighs the search.
#[must_use]
pub fn contains_short(haystack: &str, needle: &str) -> bool {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return true;
    };
    h.len() >= n.len() && (0..=h.len() - n.len()).any(|i| h[i] == first && &h[i + 1..i + n.len()] == rest)
}

/// Levenshtein edit distance, for "did you mean" suggestions.
#[must_use]
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A name as an id part: lower-case ASCII letters and digits, runs of anything else as one `-`
/// (`NVIDIA Hopper Engineering Sample` → `nvidia-hopper-engineering-sample`).
#[must_use]
pub fn slug(name: &str) -> alloc::string::String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<alloc::vec::Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_separators() {
        assert_eq!(words("google/flan-t5_base"), ["google", "flan", "t5", "base"]);
    }

    #[test]
    fn contains_short_finds_substrings() {
        for (hay, needle) in [
            ("GeForce RTX 4090", "RTX"),
            ("Tesla T4", " T4"),
            ("ab", ""),
            ("", ""),
            ("abc", "abc"),
        ] {
            assert!(contains_short(hay, needle), "{hay} / {needle}");
        }
        for (hay, needle) in [
            ("GeForce RTX 4090", "rtx"),
            ("T4", " T4"),
            ("", "a"),
            ("abc", "abcd"),
            ("aab", "abb"),
        ] {
            assert!(!contains_short(hay, needle), "{hay} / {needle}");
        }
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("gpt2", "gpt2"), 0);
        assert_eq!(edit_distance("bert", "bart"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
