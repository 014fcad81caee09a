//! `hwfit bench`'s runner: a catalog model's architecture built as an ONNX graph with random
//! weights ([`graphs`]), run by an engine — tract ([`tract`]) or ONNX Runtime
//! ([`onnxruntime`], feature `onnxruntime`) — and timed the same way for both: warm-up runs, then
//! repeated runs until a time budget, reported as mean, p50 and p90.

pub mod graphs;
#[cfg(feature = "onnxruntime")]
pub mod onnxruntime;
pub mod tract;

use std::time::{Duration, Instant};

use serde::Serialize;

pub use graphs::{build, workloads};

use crate::onnx::GraphBuilder;
use crate::LearnError;

/// How long and how often each case runs.
#[derive(Debug, Clone, PartialEq)]
pub struct RunConfig {
    /// Untimed runs first.
    pub warmup: usize,
    /// Timed runs at least.
    pub min_runs: usize,
    /// Timed runs at most.
    pub max_runs: usize,
    /// Stop adding runs once this much time is spent (after `min_runs`).
    pub budget: Duration,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            warmup: 1,
            min_runs: 3,
            max_runs: 15,
            budget: Duration::from_millis(1500),
        }
    }
}

/// One case's timings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timing {
    /// Items (or tokens) one run produces.
    pub items: f64,
    /// Untimed runs before the timed ones.
    pub warmup_runs: usize,
    /// Timed runs.
    pub runs: usize,
    /// Mean, ms.
    pub mean_ms: f64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 90th percentile, ms.
    pub p90_ms: f64,
    /// Items per second at the median.
    pub throughput: f64,
    /// Parameters in the graph.
    pub parameters: u64,
    /// Time to build and optimize the graph (tract's plan, ONNX Runtime's session), ms.
    pub build_ms: f64,
}

/// The element type of an input tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementType {
    /// Token ids.
    I64,
    /// Activations, KV caches, pixels.
    F32,
}

/// One input of a graph, as zeros of a shape (a run's time does not depend on the values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// Its element type.
    pub element: ElementType,
    /// Its shape.
    pub shape: Vec<usize>,
}

impl Input {
    /// Token ids of a shape.
    #[must_use]
    pub fn tokens(shape: &[i64]) -> Self {
        Self::of(ElementType::I64, shape)
    }

    /// f32 values of a shape.
    #[must_use]
    pub fn values(shape: &[i64]) -> Self {
        Self::of(ElementType::F32, shape)
    }

    fn of(element: ElementType, shape: &[i64]) -> Self {
        Self {
            element,
            shape: shape.iter().map(|&n| usize::try_from(n).unwrap_or(0)).collect(),
        }
    }

    /// Elements in the tensor.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the tensor has no element.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The graph a case runs, with its inputs.
pub struct BenchGraph {
    /// The ONNX graph.
    pub graph: GraphBuilder,
    /// Input tensors, in graph order.
    pub inputs: Vec<Input>,
    /// Items one run produces.
    pub items: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Times `once` (one run, returning its milliseconds): `config.warmup` untimed runs, then timed
/// runs until `config.min_runs` are done and either `config.max_runs` or the budget is reached.
pub(crate) fn time_runs(
    items: f64,
    parameters: u64,
    build_ms: f64,
    config: &RunConfig,
    mut once: impl FnMut() -> Result<f64, LearnError>,
) -> Result<Timing, LearnError> {
    for _ in 0..config.warmup {
        once()?;
    }
    let started = Instant::now();
    let mut times = Vec::new();
    let min_runs = config.min_runs.max(1);
    while times.len() < min_runs || (times.len() < config.max_runs && started.elapsed() < config.budget) {
        times.push(once()?);
    }
    let mean_ms = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let p50_ms = percentile(&times, 0.5);
    Ok(Timing {
        items,
        warmup_runs: config.warmup,
        runs: times.len(),
        mean_ms,
        p50_ms,
        p90_ms: percentile(&times, 0.9),
        throughput: items / (p50_ms / 1e3),
        parameters,
        build_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_takes_the_runs_it_is_told() {
        let config = RunConfig {
            warmup: 2,
            min_runs: 5,
            max_runs: 5,
            budget: Duration::from_secs(60),
        };
        let mut calls = 0;
        let timing = time_runs(4.0, 10, 1.0, &config, || {
            calls += 1;
            Ok(f64::from(calls))
        })
        .unwrap();
        assert_eq!(calls, 7);
        assert_eq!((timing.warmup_runs, timing.runs), (2, 5));
        // Timed runs took 3..=7 ms: median 5, p90 7, mean 5.
        assert!((timing.p50_ms - 5.0).abs() < 1e-9 && (timing.p90_ms - 7.0).abs() < 1e-9);
        assert!((timing.mean_ms - 5.0).abs() < 1e-9);
        assert!((timing.throughput - 800.0).abs() < 1e-9);
    }

    #[test]
    fn a_failing_run_fails_the_case() {
        let err = time_runs(1.0, 1, 0.0, &RunConfig::default(), || {
            Err(LearnError::Bench(String::from("boom")))
        })
        .unwrap_err();
        assert!(err.to_string().contains("boom"));
    }
}
