//! Fuzzy device-name resolution: exact keys first, then token sets, with a memory size (`24GB`) as a
//! constraint; ambiguity and no match are errors that list candidates — never a silent guess.

use alloc::string::String;
use alloc::vec::Vec;

use super::Device;
use crate::text::{edit_distance, normalize_key, words};
use crate::CoreError;

/// Words that say nothing about which device is meant.
const NOISE: &[&str] = &[
    "nvidia", "geforce", "tesla", "amd", "radeon", "instinct", "apple", "intel", "graphics", "card", "the", "with",
];

/// A name split into the tokens that identify a device and a stated memory size.
struct Parsed {
    tokens: Vec<String>,
    memory_gb: Option<f64>,
}

fn memory_token(token: &str) -> Option<f64> {
    let digits = token.strip_suffix("gb")?;
    digits.parse::<f64>().ok()
}

fn parse(name: &str) -> Parsed {
    let mut tokens = Vec::new();
    let mut memory_gb = None;
    let raw = words(name);
    let mut i = 0;
    while i < raw.len() {
        let t = &raw[i];
        if let Some(gb) = memory_token(t) {
            memory_gb = Some(gb);
        } else if t.chars().all(|c| c.is_ascii_digit()) && raw.get(i + 1).is_some_and(|n| n == "gb") {
            memory_gb = t.parse().ok();
            i += 1;
        } else if !NOISE.contains(&t.as_str()) {
            tokens.push(t.clone());
        }
        i += 1;
    }
    Parsed { tokens, memory_gb }
}

fn names(device: &Device) -> impl Iterator<Item = &str> {
    core::iter::once(device.id.as_str())
        .chain(core::iter::once(device.name.as_str()))
        .chain(device.aliases.iter().map(String::as_str))
}

fn memory_matches(device: &Device, memory_gb: Option<f64>) -> bool {
    memory_gb.is_none_or(|gb| (device.memory_gb - gb).abs() <= 1.0)
}

/// How well `wanted` names `device`: `None` if some wanted token is missing; otherwise the number of
/// extra tokens in the closest of its names (fewer is more specific).
fn token_match(device: &Device, wanted: &Parsed) -> Option<usize> {
    if wanted.tokens.is_empty() || !memory_matches(device, wanted.memory_gb) {
        return None;
    }
    names(device)
        .filter_map(|n| {
            let have = parse(n);
            wanted
                .tokens
                .iter()
                .all(|t| have.tokens.contains(t))
                .then(|| have.tokens.len() - wanted.tokens.len())
        })
        .min()
}

/// Resolves `name` among `devices`.
pub fn resolve<'a>(devices: &'a [Device], name: &str) -> Result<&'a Device, CoreError> {
    let key = normalize_key(name);
    if key.is_empty() {
        return Err(unknown(devices, name));
    }
    if let Some(d) = devices.iter().find(|d| names(d).any(|n| normalize_key(n) == key)) {
        return Ok(d);
    }
    let wanted = parse(name);
    let mut scored: Vec<(usize, &Device)> = devices
        .iter()
        .filter_map(|d| token_match(d, &wanted).map(|s| (s, d)))
        .collect();
    scored.sort_by_key(|(s, _)| *s);
    match scored.as_slice() {
        [] => Err(unknown(devices, name)),
        [(_, only)] => Ok(only),
        [(best, d), (second, _), ..] if best < second => Ok(d),
        [(best, _), ..] => {
            let tied: Vec<&str> = scored
                .iter()
                .filter(|(s, _)| s == best)
                .map(|(_, d)| d.name.as_str())
                .collect();
            Err(CoreError::AmbiguousDevice {
                name: String::from(name),
                candidates: tied.join(", "),
            })
        }
    }
}

fn unknown(devices: &[Device], name: &str) -> CoreError {
    let key = normalize_key(name);
    let mut scored: Vec<(usize, &str)> = devices
        .iter()
        .map(|d| {
            let best = names(d)
                .map(|n| {
                    let k = normalize_key(n);
                    if !key.is_empty() && (k.contains(&key) || key.contains(&k)) {
                        0
                    } else {
                        edit_distance(&key, &k)
                    }
                })
                .min()
                .unwrap_or(usize::MAX);
            (best, d.name.as_str())
        })
        .collect();
    scored.sort_by_key(|(d, _)| *d);
    let suggestions: Vec<&str> = scored.iter().take(3).map(|(_, n)| *n).collect();
    CoreError::UnknownDevice {
        name: String::from(name),
        suggestions: suggestions.join(", "),
    }
}
