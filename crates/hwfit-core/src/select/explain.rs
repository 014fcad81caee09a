//! The selection's explanation in words: why the first, how the others compare, why not the rest.

use alloc::collections::BTreeMap;
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
    format!("{:.1} {}", p.throughput, p.throughput_unit)
}

/// Why a browser back-end with dispatch and round-trip costs ranks where it does, against `first`.
fn fixed_cost_note(key: &str, q: &Prediction, first: &str, p: &Prediction) -> Option<String> {
    let f = q.fixed_costs.filter(|f| f.kernels > 0)?;
    let costs = format!(
        "{} dispatches × {:.0} µs and {} round trip{} × {:.2} ms = {:.2} ms per step",
        f.kernels,
        f.dispatch_ms * 1e3 / f64::from(f.kernels),
        f.round_trips,
        if f.round_trips == 1 { "" } else { "s" },
        f.sync_ms / f64::from(f.round_trips.max(1)),
        f.overhead_ms()
    );
    let first_run = if f.first_run_ms > 0.0 {
        format!("; its first call also compiles pipelines (+{:.0} ms)", f.first_run_ms)
    } else {
        String::new()
    };
    Some(if key == first {
        format!(
            "{key} pays {costs} on top of {:.2} ms of compute{first_run}.",
            f.compute_ms
        )
    } else if f.compute_ms < p.latency && q.latency > p.latency {
        format!(
            "{key}'s {costs} outweigh its faster compute ({:.2} ms against {:.2} ms for {first}){first_run}.",
            f.compute_ms, p.latency
        )
    } else {
        format!(
            "{key} pays {costs} on top of {:.2} ms of compute{first_run}.",
            f.compute_ms
        )
    })
}

/// The explanation of a ranking.
#[must_use]
pub fn explain(ranking: &[(String, f64)], all: &BTreeMap<String, CandidateScore>) -> String {
    let prediction = |key: &str| all.get(key).and_then(|s| s.predictions.as_ref());
    let mut parts: Vec<String> = Vec::new();
    match ranking.first().and_then(|(k, _)| prediction(k).map(|p| (k, p))) {
        Some((key, p)) => {
            let device = all.get(key.as_str()).map_or("", |s| s.device.as_str());
            parts.push(format!(
                "{key} ({device}) ranks first: predicted {}, {:.2} ms per step, {} of {} memory ({}-bound).",
                rate(p),
                p.latency,
                gb(p.memory_usage),
                gb(p.memory_capacity),
                p.bound
            ));
            let others: Vec<String> = ranking
                .iter()
                .skip(1)
                .filter_map(|(k, _)| {
                    let q = prediction(k)?;
                    let ratio = p.throughput / q.throughput;
                    let relation = if ratio >= 1.05 {
                        format!("{ratio:.1}× slower")
                    } else if ratio <= 0.95 {
                        format!("{:.1}× faster but scored lower", 1.0 / ratio)
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
