//! The graph runners: catalog architectures as ONNX graphs with random weights, run by tract on
//! the CPU or by ONNX Runtime on the execution provider of the hardware asked for.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use hwfit_core::{HardwareType, Workload};
use hwfit_learn::runner::onnxruntime::{OnnxRuntime, Provider};
use hwfit_learn::runner::{build, tract, RunConfig, Timing};
use hwfit_native::DetectionReport;
use indicatif::ProgressBar;

use super::cases::{BenchModel, Case};
use super::RunContext;
use crate::cli::{BenchArgs, BenchHardware};
use hwfit_db::BenchmarkRecord;

/// Seed of the random weights.
const WEIGHT_SEED: u64 = 7;

/// The engine that runs the graphs.
pub enum Engine {
    /// tract, in this binary.
    Tract,
    /// ONNX Runtime on one execution provider.
    OnnxRuntime(OnnxRuntime, Provider),
}

impl Engine {
    fn run(&self, case: &Case, model: &BenchModel, threads: usize, config: &RunConfig) -> Result<Timing> {
        let graph = build(&model.spec, case.workload, case.batch, case.seq, WEIGHT_SEED)?;
        let timing = match self {
            Self::Tract => tract::run(graph, threads, config)?,
            Self::OnnxRuntime(runtime, provider) => runtime.run(graph, *provider, threads, config)?,
        };
        Ok(timing)
    }
}

/// The hardware tract runs on: the CPU only.
pub fn tract_hardware(hardware: BenchHardware) -> Result<HardwareType> {
    match hardware {
        BenchHardware::Cpu | BenchHardware::Auto => Ok(HardwareType::Cpu),
        other => {
            bail!("tract runs on the CPU; measure a GPU ({other:?}) with --runtime onnxruntime or --runtime pytorch")
        }
    }
}

/// The ONNX Runtime library: `--onnxruntime-lib`, `$ORT_DYLIB_PATH`, the Python onnxruntime
/// package's (`capi/libonnxruntime.so.*`), or the system's.
pub fn onnxruntime_library(args: &BenchArgs) -> Result<PathBuf> {
    if let Some(path) = &args.onnxruntime.onnxruntime_lib {
        return Ok(path.clone());
    }
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    let python = super::python(args, &["onnxruntime"]);
    let script = "import onnxruntime, os; print(os.path.join(os.path.dirname(onnxruntime.__file__), 'capi'))";
    if let Ok(out) = Command::new(&python).args(["-c", script]).output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() {
            if let Some(lib) = library_in(&dir) {
                return Ok(lib);
            }
        }
    }
    for dir in [
        "/usr/local/lib",
        "/usr/lib",
        "/usr/lib/x86_64-linux-gnu",
        "/opt/homebrew/lib",
    ] {
        if let Some(lib) = library_in(Path::new(dir)) {
            return Ok(lib);
        }
    }
    bail!(
        "ONNX Runtime was not found: install it (pip install onnxruntime, or onnxruntime-gpu for CUDA) into {}, set ORT_DYLIB_PATH, or pass --onnxruntime-lib PATH",
        python.display()
    )
}

/// `libonnxruntime.so*` / `libonnxruntime*.dylib` / `onnxruntime.dll` in `dir`.
fn library_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let dylib = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dylib"));
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("libonnxruntime.so")
                    || (n.starts_with("libonnxruntime") && dylib)
                    || n.eq_ignore_ascii_case("onnxruntime.dll")
            })
        })
        .collect();
    // The versioned file (libonnxruntime.so.1.32.0) over the bare link name.
    found.sort_by_key(|p| std::cmp::Reverse(p.as_os_str().len()));
    found.into_iter().next()
}

/// The execution provider for the hardware: `--execution-provider`, else the hardware's
/// (CUDA, ROCm or MIGraphX, OpenVINO, Core ML); `auto` takes a detected GPU whose provider the
/// library has, else the CPU.
pub fn provider(args: &BenchArgs, runtime: &OnnxRuntime, report: &DetectionReport) -> Result<(Provider, HardwareType)> {
    let available = runtime.available_providers()?;
    let has = |p: Provider| available.contains(&p.name());
    if let Some(name) = &args.onnxruntime.execution_provider {
        let provider = Provider::parse(name).with_context(|| {
            format!(
                "unknown execution provider {name:?}; this library has {}",
                available.join(", ")
            )
        })?;
        return Ok((provider, hardware_of(provider, args.hardware)));
    }
    let provider = match args.hardware {
        BenchHardware::Cpu => Provider::Cpu,
        BenchHardware::Cuda => Provider::Cuda,
        BenchHardware::Rocm if has(Provider::Rocm) => Provider::Rocm,
        BenchHardware::Rocm => Provider::MiGraphX,
        BenchHardware::Xpu => Provider::OpenVino,
        BenchHardware::Mps => Provider::CoreMl,
        BenchHardware::Auto => {
            if report.cuda.available && has(Provider::Cuda) {
                Provider::Cuda
            } else if report.rocm.available && has(Provider::MiGraphX) {
                Provider::MiGraphX
            } else if report.rocm.available && has(Provider::Rocm) {
                Provider::Rocm
            } else if report.mps.available && has(Provider::CoreMl) {
                Provider::CoreMl
            } else {
                Provider::Cpu
            }
        }
    };
    if !has(provider) {
        bail!(
            "this ONNX Runtime ({}) has no {}; it has {} (for CUDA install onnxruntime-gpu)",
            runtime.library().display(),
            provider.name(),
            available.join(", ")
        );
    }
    Ok((provider, hardware_of(provider, args.hardware)))
}

fn hardware_of(provider: Provider, asked: BenchHardware) -> HardwareType {
    match provider {
        Provider::Cpu => HardwareType::Cpu,
        Provider::Cuda | Provider::TensorRt => HardwareType::Cuda,
        Provider::Rocm | Provider::MiGraphX => HardwareType::Rocm,
        Provider::CoreMl => HardwareType::Mps,
        Provider::OpenVino if asked == BenchHardware::Cpu => HardwareType::Cpu,
        Provider::OpenVino => HardwareType::Openvino,
        Provider::DirectMl => HardwareType::Webgpu,
    }
}

/// Runs every case (those before a stop, when a signal stops the run) and returns its records.
pub fn run(
    engine: &Engine,
    args: &BenchArgs,
    models: &[BenchModel],
    cases: &[Case],
    context: &RunContext,
    bar: &ProgressBar,
) -> Result<Vec<(Case, Timing, BenchmarkRecord)>> {
    let config = RunConfig {
        budget: Duration::from_millis(args.budget_ms),
        ..RunConfig::default()
    };
    let mut out = Vec::new();
    for case in cases {
        if super::interrupt::stopped() {
            break;
        }
        let model = &models[case.model];
        bar.set_message(format!(
            "{} {} b{} s{}",
            model.name, case.workload, case.batch, case.seq
        ));
        let timing = engine
            .run(case, model, context.threads, &config)
            .with_context(|| format!("{} {}", model.name, case.workload))?;
        let record = graph_record(model, case, &timing, context);
        out.push((case.clone(), timing, record));
        bar.inc(1);
    }
    Ok(out)
}

fn graph_record(model: &BenchModel, case: &Case, timing: &Timing, context: &RunContext) -> BenchmarkRecord {
    let mut r = context.record(&model.name);
    r.model_family = Some(model.spec.family.to_string());
    r.model_parameters_m = Some(model.spec.parameters() as f64 / 1e6);
    r.model_architecture = serde_json::to_value(&model.spec).ok();
    r.precision = Some(String::from("fp32"));
    r.math_mode = Some(String::from("fp32"));
    r.workload = Some(case.workload.to_string());
    r.batch_size = Some(case.batch);
    r.sequence_length = Some(case.seq);
    r.throughput = Some(timing.throughput);
    r.throughput_unit = Some(String::from(match case.workload {
        Workload::Prefill | Workload::Decode => "tokens/s",
        _ => "items/s",
    }));
    r.latency_mean_ms = Some(timing.mean_ms);
    r.latency_p50_ms = Some(timing.p50_ms);
    r.latency_p90_ms = Some(timing.p90_ms);
    r.warmup_runs = u32::try_from(timing.warmup_runs).ok();
    r.timed_runs = u32::try_from(timing.runs).ok();
    r.notes = Some(format!(
        "random weights at the architecture ({} parameters in the graph); graph built and optimized in {:.0} ms",
        timing.parameters, timing.build_ms
    ));
    r
}
