//! Native hardware detection for hwfit: CPU and RAM, NVIDIA GPUs (NVML), AMD GPUs (KFD/DRM sysfs),
//! Apple's Metal GPU, every wgpu adapter, OpenVINO/QNN runtimes — matched to the device catalog, with
//! the shared microbenchmarks for devices the catalog lacks, and a JSON cache.

pub mod adapters;
pub mod benchmark;
pub mod cache;
pub mod cpu;
pub mod frameworks;
pub mod nvidia;
pub mod report;
pub mod rocm;
pub mod runtimes;

mod devices;
mod mps;

use std::path::PathBuf;
use std::time::Duration;

pub use hwfit_core::detect::{candidates, DetectedCandidates};
pub use hwfit_microbench::BenchConfig;
pub use report::{DetectedDevice, DetectionReport, GpuAdapter, MpsReport, Profile};

/// Default maximum age of a cached report.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(24 * 3600);

/// Errors reading or writing reports.
#[derive(Debug, thiserror::Error)]
pub enum NativeError {
    /// A report file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A report file is not a detection report.
    #[error("{path} is not a hwfit detection report: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The cache could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Which benchmarks detection runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchmarkScope {
    /// None.
    None,
    /// Only for devices the catalog lacks (so they get a measured profile instead of a guess).
    Unknown,
    /// Every adapter and the CPU.
    All,
    /// The CPU only (`hwfit bench`: its copy rate is the host's bandwidth).
    Cpu,
}

/// How to detect.
#[derive(Debug, Clone)]
pub struct DetectOptions {
    /// Benchmarks to run.
    pub benchmark: BenchmarkScope,
    /// Ignore the cache.
    pub refresh: bool,
    /// Cache file (`None`: no cache).
    pub cache: Option<PathBuf>,
    /// Maximum age of a cached report.
    pub max_age: Duration,
    /// Sampling policy of the benchmarks.
    pub config: BenchConfig,
    /// The Python interpreter to ask first for installed frameworks (then `$VIRTUAL_ENV`,
    /// `$CONDA_PREFIX`, `python3`).
    pub python: Option<PathBuf>,
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            benchmark: BenchmarkScope::Unknown,
            refresh: false,
            cache: cache::default_path(),
            max_age: DEFAULT_MAX_AGE,
            config: BenchConfig::default(),
            python: None,
        }
    }
}

/// Where a report came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A fresh probe.
    Probed,
    /// The cache (its path).
    Cache(PathBuf),
    /// A report the caller supplied (`--detection FILE`).
    Given,
}

/// A report, where it came from, and anything worth telling (a cache that could not be written).
#[derive(Debug, Clone)]
pub struct Detection {
    /// The report.
    pub report: DetectionReport,
    /// Its origin.
    pub origin: Origin,
    /// Non-fatal problems.
    pub warnings: Vec<String>,
}

/// Detects, from the cache when it is fresh and holds the benchmarks asked for, else by probing
/// (and then caching).
#[must_use]
pub fn detect(options: &DetectOptions) -> Detection {
    if let (false, Some(path)) = (options.refresh, &options.cache) {
        if let Some(report) = cache::load_fresh(path, options.max_age) {
            if options.benchmark == BenchmarkScope::None
                || report.has_benchmarks(options.benchmark == BenchmarkScope::All)
            {
                return Detection {
                    report,
                    origin: Origin::Cache(path.clone()),
                    warnings: Vec::new(),
                };
            }
        }
    }
    let report = probe(options.benchmark, &options.config, options.python.as_deref());
    let mut warnings = Vec::new();
    if let Some(path) = &options.cache {
        if let Err(e) = cache::save(path, &report) {
            warnings.push(format!("detection not cached: {e}"));
        }
    }
    Detection {
        report,
        origin: Origin::Probed,
        warnings,
    }
}

/// Probes everything now.
#[must_use]
pub fn probe(scope: BenchmarkScope, config: &BenchConfig, python: Option<&std::path::Path>) -> DetectionReport {
    let (cpu, memory) = cpu::detect();
    let cuda = nvidia::detect();
    let rocm = rocm::detect();
    let found = adapters::enumerate();
    let mps = mps::detect(&found, &memory);
    let openvino = runtimes::detect(runtimes::Runtime::OpenVino);
    let qnn = runtimes::detect(runtimes::Runtime::Qnn);
    let installed_runtimes = frameworks::detect(python);
    let mut gpus: Vec<GpuAdapter> = found
        .iter()
        .map(|(_, report)| GpuAdapter {
            adapter: report.clone(),
            benchmark: None,
            benchmark_note: None,
        })
        .collect();
    let mut devices = devices::list(&cpu, &memory, &cuda, &rocm, &mps, &gpus);
    let cpu_benchmark = benchmark::run(scope, config, &found, &mut gpus, &mut devices, &cpu);
    let available = hwfit_core::AvailableHardware::new(devices::counts(&devices, &openvino, &qnn));
    DetectionReport {
        torch_device: available.torch_device(),
        available,
        cpu,
        memory,
        cuda,
        rocm,
        mps,
        openvino,
        qnn,
        installed_runtimes,
        gpus,
        devices,
        cpu_benchmark,
        detected_at: cache::now(),
        hwfit_version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}
