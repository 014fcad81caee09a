//! The selection's explanation in words: why the first, how the others compare, why not the rest.

use crate::map::SortedMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::CandidateScore;
use crate::perf::Prediction;

fn gb(mb: f64) -> String {
    format!("{:.1} GB", mb / 1024.0)
}

/// "does not fit in 16.0 GB (needs 18.2 GB)".
#[must_use]
pub fn does_not_fit(p: &Prediction) -> String {
    format!(
        "does not fit in {} (needs {})",
        gb(p.memory_capacity),
        gb(p.memory_usage)
    )
}

fn rate(p: &Prediction) -> String {
    format!("{} {}", sig(p.throughput), p.throughput_unit)
}

/// Three significant figures at most, never an exponent: 1489, 21.9, 6.73, 0.00117.
fn sig(v: f64) -> String {
    let a = v.abs();
    let decimals = if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        (2 - libm::floor(libm::log10(a)) as i32).clamp(3, 9) as usize
    };
    format!("{v:.decimals$}")
}

/// A duration: milliseconds, or seconds from 10 s on.
fn duration(ms: f64) -> String {
    if ms >= 10_000.0 {
        format!("{} s", sig(ms / 1e3))
    } else {
        format!("{} ms", sig(ms))
    }
}

/// Why a browser back-end with dispatch and round-trip costs ranks where it does, against `first`.
fn fixed_cost_note(key: &str, q: &Prediction, first: &str, p: &Prediction) -> Option<String> {
    let f = q.fixed_costs.filter(|f| f.kernels > 0)?;
    let costs = format!(
        "{} dispatches × {:.0} µs and {} round trip{} × {} = {} per step",
        f.kernels,
        f.dispatch_ms * 1e3 / f64::from(f.kernels),
        f.round_trips,
        if f.round_trips == 1 { "" } else { "s" },
        duration(f.sync_ms / f64::from(f.round_trips.max(1))),
        duration(f.overhead_ms())
    );
    let first_run = if f.first_run_ms > 0.0 {
        format!(
            "; its first call also compiles pipelines (+{})",
            duration(f.first_run_ms)
        )
    } else {
        String::new()
    };
    Some(if key == first {
        format!(
            "{key} pays {costs} on top of {} of compute{first_run}.",
            duration(f.compute_ms)
        )
    } else if f.compute_ms < p.latency && q.latency > p.latency {
        format!(
            "{key}'s {costs} outweigh its faster compute ({} against {} for {first}){first_run}.",
            duration(f.compute_ms),
            duration(p.latency)
        )
    } else {
        format!(
            "{key} pays {costs} on top of {} of compute{first_run}.",
            duration(f.compute_ms)
        )
    })
}

/// The explanation of a ranking.
#[must_use]
pub fn explain(ranking: &[(String, f64)], all: &SortedMap<String, CandidateScore>) -> String {
    let prediction = |key: &str| all.get(key).and_then(|s| s.predictions.as_ref());
    let mut parts: Vec<String> = Vec::new();
    match ranking.first().and_then(|(k, _)| prediction(k).map(|p| (k, p))) {
        Some((key, p)) => {
            let device = all.get(key.as_str()).map_or("", |s| s.device.as_str());
            parts.push(format!(
                "{key} ({device}) ranks first: predicted {}, {} per step, {} of {} memory ({}).",
                rate(p),
                duration(p.latency),
                gb(p.memory_usage),
                gb(p.memory_capacity),
                p.bound_explanation()
            ));
            let others: Vec<String> = ranking
                .iter()
                .skip(1)
                .filter_map(|(k, _)| {
                    let q = prediction(k)?;
                    let ratio = p.throughput / q.throughput;
                    let relation = if ratio >= 1.05 {
                        format!("{}× slower", sig(ratio))
                    } else if ratio <= 0.95 {
                        format!("{}× faster but scored lower", sig(1.0 / ratio))
                    } else {
                        String::from("about as fast")
                    };
                    Some(format!("{k} ({}, {relation})", rate(q)))
                })
                .collect();
            if !others.is_empty() {
                parts.push(format!("Fallbacks: {}.", others.join(", ")));
            }
            parts.extend(
                ranking
                    .iter()
                    .filter_map(|(k, _)| Some((k.as_str(), prediction(k)?)))
                    .filter_map(|(k, q)| fixed_cost_note(k, q, key, p)),
            );
        }
        None => parts.push(String::from("No candidate can run this request.")),
    }
    let excluded: Vec<String> = all
        .iter()
        .filter_map(|(k, s)| s.excluded.as_ref().map(|why| format!("{k}: {why}")))
        .collect();
    if !excluded.is_empty() {
        parts.push(format!("Not eligible: {}.", excluded.join("; ")));
    }
    parts.join(" ")
}
