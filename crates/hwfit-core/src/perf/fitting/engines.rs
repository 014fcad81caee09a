//! Each browser engine's WebGPU round trip beside Chromium's, fitted on the same step timed in that
//! engine and in Chromium on one machine (`data/measured/browser_engines.csv`).
//!
//! The browser step model's constants describe Chromium (Dawn): nearly every public WebGPU timing is
//! Chromium's. Firefox (wgpu) and WebKit take longer for the same step on the same machine, and the
//! difference hardly depends on the model: Firefox's decode step of Gemma 3 270M and of a 3 B model
//! both pay ~300 ms more in llama.cpp's WebGPU build, as its buffer maps resolve on a timer (the
//! jax-js report's Firefox bug 1870699). Model: an engine adds `extra_round_trip_ms` to each CPU
//! round trip of a WebGPU step (the readback, and each CPU fallback of a quantized operator); its
//! dispatches and compute are Chromium's. Fit: each engine's extra is a parameter of the browser
//! fit ([`super::browser`]), its loss the mean |ln(predicted / measured engine time)| of each
//! source's pairs (predicted: Chromium's measured time plus the extra), each source weighing as
//! much as a source of WebGPU/WebAssembly pairs — so those pairs measured in Firefox (whisper-web)
//! pull on Firefox's extra too. Rows without both engines' values, and rates that are not one
//! step's (prefill rates, frames per second), are not pairs.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

use crate::browser::BrowserEngine;
use crate::csv::{Cell, Table};
use crate::perf::EngineCosts;
use crate::CoreError;

/// One step timed in an engine and in Chromium on the same machine.
#[derive(Debug, Clone, PartialEq)]
pub struct EnginePair {
    /// The engine (Firefox or WebKit).
    pub engine: BrowserEngine,
    /// The source (for leave-one-source-out).
    pub source: String,
    /// The engine's time per step, ms.
    pub engine_ms: f64,
    /// Chromium's time per step, ms.
    pub chromium_ms: f64,
}

/// One source of an engine's pairs, held against the others.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EngineSource {
    /// The source.
    pub source: String,
    /// Its pairs.
    pub pairs: usize,
    /// The median of its pairs' differences (engine − Chromium), ms per step.
    pub median_extra_ms: f64,
    /// The extra fitted on the other sources, ms per round trip (`None`: no other source).
    pub predicted_extra_ms: Option<f64>,
    /// Median |ln(predicted / measured engine time)| of its pairs, predicted from the others.
    pub median_abs_log_error: Option<f64>,
}

/// An engine's fit and its validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all(serialize = "camelCase")))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EngineFit {
    /// The engine.
    pub engine: BrowserEngine,
    /// The fitted extra per round trip, ms.
    pub extra_round_trip_ms: f64,
    /// Pairs fitted.
    pub pairs: usize,
    /// Each source, left out in turn.
    pub sources: Vec<EngineSource>,
}

fn value(text: &str) -> Result<Option<f64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    super::browser::measured_value(text)
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(Some)
        .ok_or_else(|| format!("`{text}` is not a measured value"))
}

/// The pair a row holds, if it holds one: both values, a Firefox or WebKit engine, and a time per
/// step (`ms`) or a decode rate (`tokens/s`).
fn pair(table: &Table, row: &[Cell<'_>]) -> Result<Option<EnginePair>, String> {
    let get = |name: &str| table.get(row, name).map(str::trim);
    let Some(engine @ (BrowserEngine::Firefox | BrowserEngine::Webkit)) = BrowserEngine::from_word(get("engine")?)
    else {
        return Ok(None);
    };
    let (engine_text, chromium_text) = (get("webgpu_value")?, get("chromium_webgpu_value")?);
    if engine_text.is_empty() || chromium_text.is_empty() {
        return Ok(None);
    }
    let (Some(engine_value), Some(chromium_value)) = (value(engine_text)?, value(chromium_text)?) else {
        return Ok(None);
    };
    let units = get("units")?.to_ascii_lowercase();
    let metric = get("metric")?.to_ascii_lowercase();
    let (engine_ms, chromium_ms) = if units.starts_with("ms") {
        (engine_value, chromium_value)
    } else if units.starts_with("tokens/s") && (metric.contains("decode") || metric.contains("generation")) {
        (1e3 / engine_value, 1e3 / chromium_value)
    } else {
        return Ok(None);
    };
    Ok(Some(EnginePair {
        engine,
        source: get("source_ref")?
            .split([' ', '#', '('])
            .next()
            .unwrap_or_default()
            .to_string(),
        engine_ms,
        chromium_ms,
    }))
}

/// The pairs of `browser_engines.csv`; a malformed row is an error naming its line.
pub fn pairs(text: &str) -> Result<Vec<EnginePair>, CoreError> {
    let invalid = |what: String| CoreError::InvalidConfig(format!("browser_engines.csv: {what}"));
    let table = Table::parse(text).map_err(invalid)?;
    let mut out = Vec::new();
    for (i, row) in table.rows.iter().enumerate() {
        if let Some(p) = pair(&table, row).map_err(|e| invalid(format!("line {}: {e}", i + 2)))? {
            out.push(p);
        }
    }
    Ok(out)
}

/// Pairs grouped by engine and source.
fn groups<'p>(pairs: &[&'p EnginePair]) -> BTreeMap<(BrowserEngine, &'p str), Vec<&'p EnginePair>> {
    let mut out: BTreeMap<(BrowserEngine, &str), Vec<&EnginePair>> = BTreeMap::new();
    for p in pairs {
        out.entry((p.engine, p.source.as_str())).or_default().push(p);
    }
    out
}

/// |ln(predicted / measured)| of a pair's engine time, its engine's extra being `extra_ms`.
fn error(pair: &EnginePair, extra_ms: f64) -> f64 {
    libm::fabs(libm::log((pair.chromium_ms + extra_ms) / pair.engine_ms))
}

fn extra_of(engines: &[EngineCosts], engine: BrowserEngine) -> f64 {
    engines
        .iter()
        .find(|c| c.engine == engine)
        .map_or(0.0, |c| c.extra_round_trip_ms)
}

/// The pairs' part of the browser fit's loss: each (engine, source) group's mean error, summed.
#[must_use]
pub fn loss(engines: &[EngineCosts], pairs: &[&EnginePair]) -> f64 {
    groups(pairs)
        .into_iter()
        .map(|((engine, _), group)| {
            let extra = extra_of(engines, engine);
            group.iter().map(|p| error(p, extra)).sum::<f64>() / group.len() as f64
        })
        .sum()
}

/// The engines `pairs` fit, each at `start_ms` before fitting.
#[must_use]
pub fn starting_costs(pairs: &[&EnginePair], start_ms: f64) -> Vec<EngineCosts> {
    BrowserEngine::ALL
        .into_iter()
        .filter_map(|engine| {
            let mine: Vec<&&EnginePair> = pairs.iter().filter(|p| p.engine == engine).collect();
            let sources: alloc::collections::BTreeSet<&str> = mine.iter().map(|p| p.source.as_str()).collect();
            (!mine.is_empty()).then_some(EngineCosts {
                engine,
                extra_round_trip_ms: start_ms,
                pairs: mine.len(),
                sources: sources.len(),
            })
        })
        .collect()
}

/// The engines' report: each source's pairs predicted by the fit that left the source out
/// (`left_out(source)` gives that fit's engines; `None`: nothing was left to fit).
pub fn report(
    fitted: &[EngineCosts],
    pairs: &[&EnginePair],
    mut left_out: impl FnMut(&str) -> Option<Vec<EngineCosts>>,
) -> Vec<EngineFit> {
    let by_group = groups(pairs);
    fitted
        .iter()
        .map(|costs| {
            let sources = by_group
                .iter()
                .filter(|((engine, _), _)| *engine == costs.engine)
                .map(|((engine, source), group)| {
                    let predicted = left_out(source).map(|e| extra_of(&e, *engine)).filter(|x| *x > 0.0);
                    let deltas: Vec<f64> = group.iter().map(|p| p.engine_ms - p.chromium_ms).collect();
                    let errors: Vec<f64> = predicted
                        .map(|x| group.iter().map(|p| error(p, x)).collect())
                        .unwrap_or_default();
                    EngineSource {
                        source: String::from(*source),
                        pairs: group.len(),
                        median_extra_ms: super::browser::round3(crate::measure::median(&deltas).unwrap_or(0.0)),
                        predicted_extra_ms: predicted,
                        median_abs_log_error: crate::measure::median(&errors).map(super::browser::round3),
                    }
                })
                .collect();
            EngineFit {
                engine: costs.engine,
                extra_round_trip_ms: costs.extra_round_trip_ms,
                pairs: costs.pairs,
                sources,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "engine,source_ref,metric,units,webgpu_value,chromium_webgpu_value\n";

    #[test]
    fn pairs_are_steps_timed_in_both_engines() {
        let text = alloc::format!(
            "{HEADER}firefox,https://a/x.json,decode tok/s,tokens/s,2.5,25\n\
             firefox,https://a/x.json,prefill tok/s,tokens/s,20,200\n\
             webkit,https://b/issues/1 (c),frame latency,ms,80-94,\n\
             webkit,https://b/issues/2,frame latency,ms,~40,20\n\
             chromium,https://c,decode,tokens/s,50,50\n"
        );
        let found = pairs(&text).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!((found[0].engine_ms - 400.0).abs() < 1e-9 && (found[0].chromium_ms - 40.0).abs() < 1e-9);
        assert_eq!(found[1].source, "https://b/issues/2");
        let bad = alloc::format!("{HEADER}firefox,https://a,decode,tokens/s,fast,25\n");
        assert!(pairs(&bad).unwrap_err().to_string().contains("line 2"));
    }

    #[test]
    fn each_source_weighs_the_same_in_the_loss() {
        let pair = |source: &str, engine_ms: f64| EnginePair {
            engine: BrowserEngine::Firefox,
            source: String::from(source),
            engine_ms,
            chromium_ms: 10.0,
        };
        let mut all: Vec<EnginePair> = (0..50).map(|_| pair("big", 110.0)).collect();
        all.push(pair("small", 20.0));
        let refs: Vec<&EnginePair> = all.iter().collect();
        let mut costs = starting_costs(&refs, 100.0);
        assert_eq!(costs.len(), 1, "no WebKit pairs: no WebKit extra");
        assert_eq!((costs[0].pairs, costs[0].sources), (51, 2));
        let at_100 = loss(&costs, &refs);
        assert!(
            (at_100 - libm::log(110.0 / 20.0)).abs() < 1e-9,
            "big exact, small ×5.5 off"
        );
        costs[0].extra_round_trip_ms = 10.0;
        assert!(
            (loss(&costs, &refs) - libm::log(110.0 / 20.0)).abs() < 1e-9,
            "now the other way"
        );
        let fits = report(&costs, &refs, |left| {
            Some(alloc::vec![EngineCosts {
                extra_round_trip_ms: if left == "big" { 10.0 } else { 100.0 },
                ..costs[0].clone()
            }])
        });
        let big = fits[0].sources.iter().find(|s| s.source == "big").unwrap();
        assert_eq!(
            (big.pairs, big.median_extra_ms, big.predicted_extra_ms),
            (50, 100.0, Some(10.0))
        );
        assert!(
            (big.median_abs_log_error.unwrap() - 1.7).abs() < 1e-9,
            "ln(110 / 20), rounded"
        );
    }
}
