//! The CPU microbenchmark: an f32 matrix multiply through ndarray's vectorised GEMM
//! (`matrixmultiply`, which picks AVX/FMA/NEON kernels at run time) and a streaming memory copy, on
//! the calling thread. Multi-core figures come from running it on several threads at once (the native
//! face does that); the browser runs it once.

use hwfit_core::measure::{matmul_flops, median};
use hwfit_core::Measurement;
use ndarray::linalg::general_mat_mul;
use ndarray::Array2;
use web_time::{Duration, Instant};

use crate::timing::{seconds_since, BenchConfig};

/// Largest matmul side.
const MAX_N: usize = 1024;
/// Copy buffer size (each of source and destination): well beyond last-level caches.
pub const COPY_BYTES: usize = 64 << 20;

/// Median matmul GFLOP/s on this thread and the side used.
#[must_use]
pub fn matmul_gflops(config: &BenchConfig) -> (f64, u32) {
    let mut n = 128;
    loop {
        let a = Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 11) as f32 * 0.1);
        let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 5 + j) % 13) as f32 * 0.1);
        let mut c = Array2::<f32>::zeros((n, n));
        let mut run = |reps: u32| {
            let start = Instant::now();
            for _ in 0..reps {
                general_mat_mul(1.0, &a, &b, 0.0, &mut c);
            }
            std::hint::black_box(&c);
            seconds_since(start)
        };
        run(1);
        let one = run(1);
        if n * 2 <= MAX_N && one < config.min_sample.as_secs_f64() / 4.0 {
            n *= 2;
            continue;
        }
        let flops = matmul_flops(n as u32);
        let gflops = sample(config, one, |reps| flops * f64::from(reps) / run(reps)) / 1e9;
        return (gflops, n as u32);
    }
}

/// Bytes in each copy buffer: [`COPY_BYTES`], or the config's cap below it.
fn copy_bytes(config: &BenchConfig) -> usize {
    usize::try_from(config.max_copy_bytes).map_or(COPY_BYTES, |cap| COPY_BYTES.min(cap))
}

/// Median copy bandwidth in GB/s (bytes read + written) on this thread.
#[must_use]
pub fn copy_gbs(config: &BenchConfig) -> f64 {
    let bytes = copy_bytes(config);
    let words = bytes / 4;
    let src: Vec<f32> = (0..words).map(|i| (i % 1024) as f32).collect();
    let mut dst = vec![0f32; words];
    let mut run = |reps: u32| {
        let start = Instant::now();
        for _ in 0..reps {
            dst.copy_from_slice(std::hint::black_box(&src));
            std::hint::black_box(&mut dst);
        }
        seconds_since(start)
    };
    run(1);
    let one = run(1);
    sample(config, one, |reps| 2.0 * bytes as f64 * f64::from(reps) / run(reps)) / 1e9
}

/// Warm-up, then the median of `config.samples` rates from `rate(reps)`.
fn sample(config: &BenchConfig, one: f64, mut rate: impl FnMut(u32) -> f64) -> f64 {
    for _ in 1..config.warmup {
        rate(1);
    }
    let reps = config.repetitions(Duration::from_secs_f64(one));
    let rates: Vec<f64> = (0..config.samples.max(1)).map(|_| rate(reps)).collect();
    median(&rates).unwrap_or(0.0)
}

/// Both figures on this thread, as a measurement.
#[must_use]
pub fn run(config: &BenchConfig) -> Measurement {
    let (gflops, n) = matmul_gflops(config);
    combine(&[gflops], &[copy_gbs(config)], n, config)
}

/// A measurement from per-thread figures measured at the same time (matmul on `matmul.len()`
/// threads, then copy on `copy.len()` threads): the sums.
#[must_use]
pub fn combine(matmul: &[f64], copy: &[f64], n: u32, config: &BenchConfig) -> Measurement {
    let gflops: f64 = matmul.iter().sum();
    let gbs: f64 = copy.iter().sum();
    Measurement {
        matmul_f32_gflops: (gflops * 1e3).round() / 1e3,
        matmul_f16_gflops: None,
        copy_gbs: (gbs * 1e3).round() / 1e3,
        matmul_n: n,
        copy_bytes: copy_bytes(config) as u64,
        samples: config.samples,
        threads: matmul.len() as u32,
        method: format!(
            "cpu: ndarray f32 GEMM (matrixmultiply) on {} thread(s) at once, slice copy on {} thread(s) at once, median of {} samples each",
            matmul.len(),
            copy.len(),
            config.samples
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_figures_are_positive() {
        let m = run(&BenchConfig::quick());
        assert!(m.matmul_f32_gflops > 0.0 && m.matmul_f32_gflops.is_finite());
        assert!(m.copy_gbs > 0.0 && m.copy_gbs.is_finite());
        assert_eq!(m.threads, 1);
    }
}
