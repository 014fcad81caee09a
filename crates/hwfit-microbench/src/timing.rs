//! Sampling policy shared by the GPU and CPU benchmarks.

use web_time::{Duration, Instant};

/// How long and how often to sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchConfig {
    /// Each timed sample should last at least this long (the problem and repetitions grow until it does).
    pub min_sample: Duration,
    /// Timed samples per figure; the median is reported.
    pub samples: u32,
    /// Untimed warm-up runs before sampling.
    pub warmup: u32,
    /// Largest copy buffer, bytes (the benchmarks' own caps apply below it).
    pub max_copy_bytes: u64,
    /// The GPU matmul's first (smallest) size; it doubles until a run is long enough.
    pub first_matmul_n: u32,
}

impl Default for BenchConfig {
    fn default() -> Self {
        Self {
            min_sample: Duration::from_millis(25),
            samples: 5,
            warmup: 2,
            max_copy_bytes: u64::MAX,
            first_matmul_n: 256,
        }
    }
}

impl BenchConfig {
    /// A quick configuration for tests and time-boxed browser runs.
    #[must_use]
    pub fn quick() -> Self {
        Self {
            min_sample: Duration::from_millis(10),
            samples: 3,
            warmup: 1,
            ..Self::default()
        }
    }

    /// The browser's configuration: the whole `benchmark()` within about a second even on a
    /// software adapter (smaller first matmul, 16 MiB copy buffers — past most caches that would
    /// inflate a CPU's bandwidth).
    #[must_use]
    pub fn browser() -> Self {
        Self {
            min_sample: Duration::from_millis(5),
            samples: 3,
            warmup: 1,
            max_copy_bytes: 16 << 20,
            first_matmul_n: 128,
        }
    }

    /// Repetitions so that `reps × one` reaches [`Self::min_sample`] (at least 1, at most 10,000).
    #[must_use]
    pub fn repetitions(&self, one: Duration) -> u32 {
        let one = one.as_secs_f64().max(1e-7);
        (self.min_sample.as_secs_f64() / one).ceil().clamp(1.0, 10_000.0) as u32
    }
}

/// Seconds since `start`.
pub(crate) fn seconds_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_reach_the_minimum_sample() {
        let c = BenchConfig::default();
        assert_eq!(c.repetitions(Duration::from_millis(5)), 5);
        assert_eq!(c.repetitions(Duration::from_millis(50)), 1);
        assert_eq!(c.repetitions(Duration::ZERO), 10_000);
    }
}
