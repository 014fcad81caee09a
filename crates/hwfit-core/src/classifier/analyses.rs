//! The five analyses of the classifier guide — name, class, tasks, methods, hardware compatibility —
//! each giving a family opinion with its own confidence and evidence.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::matching::{Keyword, MatchKind};
use super::{Analysis, CompiledFamily, HardwareCompat};
use crate::name_estimate::parameters_in_name;
use crate::text::{normalize_key, words};

/// Confidence weights of name evidence.
const FAMILY_KEYWORD: f64 = 0.85;
const SUBFAMILY_KEYWORD: f64 = 0.9;
const AFFIX_PENALTY: f64 = 0.05;
const FAMILY_HINT: f64 = 0.6;
const SUBFAMILY_HINT: f64 = 0.65;
const TWO_MODALITIES: f64 = 0.92;
const SIZE_ONLY: f64 = 0.5;
/// Extra weight of evidence for user-defined families, so they win where they overlap built-ins.
const PREFERRED_BONUS: f64 = 0.1;
/// Less weight for evidence found in the organisation part of an id.
const ORG_PENALTY: f64 = 0.1;

/// One piece of evidence found in a name.
struct Evidence<'a> {
    family: &'a str,
    subfamily: Option<&'a str>,
    weight: f64,
    exact_keyword: bool,
    what: String,
}

fn modality(family: &str) -> Option<&'static str> {
    match family {
        "embedding" | "text_generation" => Some("text"),
        "vision" => Some("vision"),
        "audio" => Some("audio"),
        _ => None,
    }
}

fn collect_name_evidence<'a>(families: &'a [CompiledFamily], tokens: &[String], penalty: f64) -> Vec<Evidence<'a>> {
    let mut found: Vec<(Evidence<'a>, Option<Vec<String>>)> = Vec::new();
    let mut push =
        |family: &'a str, preference: f64, subfamily: Option<&'a str>, kw: &Keyword, base: f64, is_keyword: bool| {
            let Some(kind) = kw.find(tokens) else { return };
            if !is_keyword && kind == MatchKind::Affix {
                return; // hints count only as whole words
            }
            let weight = if kind == MatchKind::Affix {
                base - AFFIX_PENALTY
            } else {
                base
            } + preference
                - penalty;
            let label = if is_keyword { "keyword" } else { "hint" };
            let exact_keyword = is_keyword && kind == MatchKind::Exact;
            found.push((
                Evidence {
                    family,
                    subfamily,
                    weight,
                    exact_keyword,
                    what: format!("{label} '{}'", kw.text),
                },
                exact_keyword.then(|| kw.tokens().to_vec()),
            ));
        };
    for fam in families {
        let pref = if fam.preferred { PREFERRED_BONUS } else { 0.0 };
        for kw in &fam.keywords {
            push(&fam.name, pref, None, kw, FAMILY_KEYWORD, true);
        }
        for kw in &fam.hints {
            push(&fam.name, pref, None, kw, FAMILY_HINT, false);
        }
        for sub in &fam.subfamilies {
            for kw in &sub.keywords {
                push(&fam.name, pref, Some(&sub.name), kw, SUBFAMILY_KEYWORD, true);
            }
            for kw in &sub.hints {
                push(&fam.name, pref, Some(&sub.name), kw, SUBFAMILY_HINT, false);
            }
        }
    }
    // A keyword inside a longer phrase that matched ("bert" in "w2v-bert") is not evidence of its own.
    let phrases: Vec<Vec<String>> = found.iter().filter_map(|(_, t)| t.clone()).collect();
    found
        .into_iter()
        .filter(|(_, t)| {
            t.as_ref().is_none_or(|t| {
                !phrases
                    .iter()
                    .any(|p| p.len() > t.len() && p.windows(t.len()).any(|w| w == t.as_slice()))
            })
        })
        .map(|(e, _)| e)
        .collect()
}

/// Picks the family with the strongest evidence (ties: the larger sum), then its best subfamily.
fn decide(source: &str, evidence: &[Evidence<'_>]) -> Analysis {
    let mut by_family: SortedMap<&str, (f64, f64)> = SortedMap::new();
    for e in evidence {
        let entry = by_family.entry(e.family).or_insert((0.0, 0.0));
        entry.0 = entry.0.max(e.weight);
        entry.1 += e.weight;
    }
    let best = by_family
        .iter()
        .max_by(|a, b| {
            (a.1 .0, a.1 .1)
                .partial_cmp(&(b.1 .0, b.1 .1))
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .map(|(f, (w, _))| (*f, *w));
    let Some((family, confidence)) = best else {
        return Analysis::none(source);
    };
    let sub = evidence
        .iter()
        .filter(|e| e.family == family)
        .filter_map(|e| e.subfamily.map(|s| (s, e.weight)))
        .max_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(core::cmp::Ordering::Equal));
    Analysis {
        source: String::from(source),
        family: Some(String::from(family)),
        confidence,
        subfamily: sub.map(|(s, _)| String::from(s)),
        subfamily_confidence: sub.map(|(_, w)| w),
        evidence: {
            let mut seen: Vec<String> = Vec::new();
            for e in evidence.iter().filter(|e| e.family == family) {
                if !seen.contains(&e.what) {
                    seen.push(e.what.clone());
                }
            }
            seen
        },
    }
}

/// Name analysis: architecture keywords, subfamily keywords and hint words among the name's tokens;
/// keywords of two modalities (`vit` + `gpt2`) point to a multimodal model; a stated size in
/// billions with no other evidence points, weakly, to a language model.
pub fn name_analysis(families: &[CompiledFamily], name: &str) -> Analysis {
    // The organisation ("distilbert/distilgpt2") says less about a model than its own name.
    let (org, model) = name.split_once('/').unwrap_or(("", name));
    let mut evidence = collect_name_evidence(families, &words(model), 0.0);
    evidence.extend(collect_name_evidence(families, &words(org), ORG_PENALTY));
    let mut modalities: Vec<(&str, &str)> = evidence
        .iter()
        .filter(|e| e.exact_keyword)
        .filter_map(|e| modality(e.family).map(|m| (m, e.what.as_str())))
        .collect();
    modalities.sort_unstable();
    modalities.dedup_by_key(|(m, _)| *m);
    let has_multimodal = families.iter().any(|f| f.name == "multimodal");
    if modalities.len() >= 2 && has_multimodal {
        let what = format!(
            "keywords of {} modalities: {}",
            modalities.len(),
            modalities.iter().map(|(_, w)| *w).collect::<Vec<_>>().join(" + ")
        );
        evidence.push(Evidence {
            family: "multimodal",
            subfamily: None,
            weight: TWO_MODALITIES,
            exact_keyword: false,
            what,
        });
    }
    if evidence.is_empty() {
        if let Some((count, basis)) = parameters_in_name(name) {
            if count >= 1_000_000_000 && families.iter().any(|f| f.name == "text_generation") {
                evidence.push(Evidence {
                    family: "text_generation",
                    subfamily: None,
                    weight: SIZE_ONLY,
                    exact_keyword: false,
                    what: format!("size only: {basis}"),
                });
            }
        }
    }
    decide("name_analysis", &evidence)
}

/// Class analysis: the architecture that starts a `transformers` class name (`Whisper…`,
/// `GPT2…`) and the head that ends it (`…ForMaskedLM`, `…ForCTC`).
pub fn class_analysis(families: &[CompiledFamily], class: &str) -> Analysis {
    let key = normalize_key(class);
    let mut arch: Option<(&str, Option<&str>, &Keyword)> = None;
    for fam in families {
        let subs = fam
            .subfamilies
            .iter()
            .flat_map(|s| s.keywords.iter().map(move |k| (Some(s.name.as_str()), k)));
        for (sub, kw) in fam.keywords.iter().map(|k| (None, k)).chain(subs) {
            if kw.starts(&key) && arch.is_none_or(|(_, _, best)| kw.specificity() > best.specificity()) {
                arch = Some((fam.name.as_str(), sub, kw));
            }
        }
    }
    let mut head: Option<(&str, Option<&str>, &str)> = None;
    for fam in families {
        let patterns = fam.def.class_patterns.iter().map(|p| (None, p)).chain(
            fam.subfamilies
                .iter()
                .flat_map(|s| s.def.class_patterns.iter().map(move |p| (Some(s.name.as_str()), p))),
        );
        for (sub, pattern) in patterns {
            let fits_arch = arch.is_none_or(|(f, _, _)| f == fam.name);
            let longer = head.is_none_or(|(_, _, best)| pattern.len() > best.len());
            if fits_arch && key.ends_with(pattern.as_str()) && longer {
                head = Some((fam.name.as_str(), sub, pattern.as_str()));
            }
        }
    }
    let mut evidence = Vec::new();
    if let Some((family, sub, kw)) = arch {
        evidence.push(Evidence {
            family,
            subfamily: sub,
            weight: 0.9,
            exact_keyword: true,
            what: format!("architecture '{}'", kw.text),
        });
    }
    if let Some((family, sub, pattern)) = head {
        evidence.push(Evidence {
            family,
            subfamily: sub,
            weight: 0.85,
            exact_keyword: false,
            what: format!("head '{pattern}'"),
        });
    }
    decide("class_analysis", &evidence)
}

fn list_analysis<'a>(
    source: &str,
    families: &'a [CompiledFamily],
    given: &[String],
    pick: impl Fn(&'a super::FamilyDefinition) -> &'a [String],
    strength: impl Fn(&str) -> f64,
) -> Analysis {
    let mut evidence = Vec::new();
    for item in given {
        let key = normalize_key(item);
        for fam in families {
            if pick(&fam.def).iter().any(|t| normalize_key(t) == key) {
                let sub = fam
                    .subfamilies
                    .iter()
                    .find(|s| pick(&s.def).iter().any(|t| normalize_key(t) == key));
                evidence.push(Evidence {
                    family: &fam.name,
                    subfamily: sub.map(|s| s.name.as_str()),
                    weight: strength(item),
                    exact_keyword: false,
                    what: format!("'{item}'"),
                });
            }
        }
    }
    let mut analysis = decide(source, &evidence);
    // Confidence scales with the share of the recognised items that agree with the decision; items
    // no family claims (`forward`, `text-completion`) carry no evidence either way.
    let recognised = given
        .iter()
        .filter(|item| {
            families
                .iter()
                .any(|f| pick(&f.def).iter().any(|t| normalize_key(t) == normalize_key(item)))
        })
        .count();
    if let Some(family) = &analysis.family {
        let agreeing: f64 = evidence
            .iter()
            .filter(|e| e.family == family.as_str())
            .map(|e| e.weight)
            .sum();
        analysis.confidence = agreeing / recognised.max(1) as f64;
    }
    analysis
}

/// Pipeline tags the Hub gives any checkpoint whose class is a bare `*Model` without a head: speech
/// encoders, audio codecs, text-generation backbones and document models carry `feature-extraction`
/// as often as sentence embedders do, so the tag is weak evidence that a clear name outweighs.
const GENERIC_TASKS: &[&str] = &["feature-extraction"];

/// Strength of a specific pipeline tag.
const TASK_STRENGTH: f64 = 0.95;

/// Strength of a generic pipeline tag: enough to decide a model whose name says nothing, less than a
/// name's keyword (0.7 × name confidence ≥ 0.5 against 1.0 × this).
const GENERIC_TASK_STRENGTH: f64 = 0.2;

/// Task analysis: Hugging Face pipeline tags (generic ones weakly).
pub fn task_analysis(families: &[CompiledFamily], tasks: &[String]) -> Analysis {
    list_analysis(
        "task_analysis",
        families,
        tasks,
        |d| &d.tasks,
        |task| {
            if GENERIC_TASKS.iter().any(|g| normalize_key(g) == normalize_key(task)) {
                GENERIC_TASK_STRENGTH
            } else {
                TASK_STRENGTH
            }
        },
    )
}

/// Method analysis: method names the model object offers.
pub fn method_analysis(families: &[CompiledFamily], methods: &[String]) -> Analysis {
    list_analysis("method_analysis", families, methods, |d| &d.methods, |_| 0.7)
}

/// Hardware-compatibility analysis: weak signals from a compatibility profile. A peak above 10 GB
/// points to a large language model; support on CUDA alone (not MPS/ROCm/OpenVINO/web) to a
/// multimodal model; support everywhere but the browser back-ends to audio (IPFS Accelerate's matrix).
pub fn hardware_analysis(families: &[CompiledFamily], profile: &SortedMap<String, HardwareCompat>) -> Analysis {
    let compatible = |hw: &str| profile.get(hw).map(|c| c.compatible);
    let peak = profile
        .values()
        .filter_map(|c| c.memory_usage.as_ref().and_then(|m| m.peak))
        .fold(0.0_f64, f64::max);
    let mut evidence = Vec::new();
    if peak > 10_000.0 {
        evidence.push(Evidence {
            family: "text_generation",
            subfamily: None,
            weight: 0.5,
            exact_keyword: false,
            what: format!("peak memory {peak:.0} MB"),
        });
    }
    let others_refused = ["mps", "rocm", "openvino", "webnn", "webgpu"]
        .iter()
        .filter(|hw| compatible(hw) == Some(false))
        .count();
    if compatible("cuda") == Some(true) && others_refused >= 2 {
        evidence.push(Evidence {
            family: "multimodal",
            subfamily: None,
            weight: 0.4,
            exact_keyword: false,
            what: format!("CUDA only ({others_refused} other back-ends incompatible)"),
        });
    }
    let web_refused = ["webnn", "webgpu"].iter().all(|hw| compatible(hw) == Some(false));
    let native_ok = ["cuda", "mps", "rocm"].iter().all(|hw| compatible(hw) != Some(false));
    if web_refused && native_ok && others_refused == 2 {
        evidence.push(Evidence {
            family: "audio",
            subfamily: None,
            weight: 0.3,
            exact_keyword: false,
            what: String::from("native back-ends only, no web back-ends"),
        });
    }
    evidence.retain(|e| families.iter().any(|f| f.name == e.family));
    decide("hardware_analysis", &evidence)
}
