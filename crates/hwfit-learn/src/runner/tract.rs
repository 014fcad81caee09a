//! The runner's tract engine: the graph optimized into a plan and run on this CPU, on the number
//! of threads asked for (tract's matrix products split over a rayon pool; one thread runs them on
//! the calling thread).

use std::time::Instant;

use tract_linalg::multithread::{multithread_tract_scope, Executor};
use tract_onnx::prelude::*;

use super::{time_runs, BenchGraph, ElementType, Input, RunConfig, Timing};
use crate::onnx::encode;
use crate::LearnError;

/// The tract-onnx version the runner is built with (Cargo.toml's requirement).
pub const VERSION: &str = "0.23";

fn tensor(input: &Input) -> Result<Tensor, LearnError> {
    let result = match input.element {
        ElementType::I64 => Tensor::zero::<i64>(&input.shape),
        ElementType::F32 => Tensor::zero::<f32>(&input.shape),
    };
    result.map_err(|e| LearnError::Bench(format!("tract: {e:#}")))
}

/// Builds, optimizes and times one case on `threads` threads (at least 1).
pub fn run(bench: BenchGraph, threads: usize, config: &RunConfig) -> Result<Timing, LearnError> {
    let started = Instant::now();
    let parameters = bench.graph.parameter_count();
    let bytes = encode(&bench.graph.into_model(&[]));
    let plan = tract_onnx::onnx()
        .model_for_read(&mut &*bytes)
        .and_then(InferenceModelExt::into_optimized)
        .and_then(IntoRunnable::into_runnable)
        .map_err(|e| LearnError::Bench(format!("tract: {e:#}")))?;
    drop(bytes);
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    let inputs: TVec<TValue> = bench
        .inputs
        .iter()
        .map(|i| tensor(i).map(TValue::from))
        .collect::<Result<_, _>>()?;
    let executor = if threads > 1 {
        Executor::multithread(threads)
    } else {
        Executor::SingleThread
    };
    multithread_tract_scope(executor, || {
        time_runs(bench.items, parameters, build_ms, config, || {
            let t = Instant::now();
            plan.run(inputs.clone())
                .map(|_| t.elapsed().as_secs_f64() * 1e3)
                .map_err(|e| LearnError::Bench(format!("tract: {e:#}")))
        })
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use hwfit_core::{Catalog, Workload};

    use super::*;
    use crate::runner::build;

    fn once() -> RunConfig {
        RunConfig {
            warmup: 0,
            min_runs: 1,
            max_runs: 1,
            budget: Duration::ZERO,
        }
    }

    #[test]
    fn a_small_decoder_runs_prefill_and_decode() {
        let s = crate::runner::graphs::tiny(&Catalog::builtin().resolve("gpt2").unwrap().spec);
        let prefill = run(build(&s, Workload::Prefill, 1, 4, 1).unwrap(), 1, &once()).unwrap();
        assert!((prefill.items - 4.0).abs() < f64::EPSILON);
        let decode = run(build(&s, Workload::Decode, 2, 8, 1).unwrap(), 2, &once()).unwrap();
        assert!((decode.items - 2.0).abs() < f64::EPSILON);
        assert!(decode.p50_ms > 0.0 && decode.throughput > 0.0);
    }
}
