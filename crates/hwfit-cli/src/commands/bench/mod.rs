//! `hwfit bench`: models measured on this machine by the runtime asked for — tract or ONNX Runtime
//! (catalog architectures as graphs), PyTorch (the Python client's runner), llama.cpp
//! (`llama-bench`) — on its CPU or GPU; one record shape for all, with the runtime's version, the
//! host's and GPU's facts, and the microbenchmark figures; stored in the benchmark database,
//! written as JSON and reported as a table (Markdown with `--report`).

mod cases;
mod graphs;
mod host;
mod interrupt;
mod llama_cpp;
mod pytorch;
mod report;

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use hwfit_core::{Catalog, Device, HardwareType};
use hwfit_db::BenchmarkRecord;
use hwfit_learn::runner::onnxruntime::OnnxRuntime;
use hwfit_native::{BenchConfig, BenchmarkScope, DetectionReport};
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::{BenchArgs, BenchRuntime, KvCache};

/// What every record of one run shares: the runtime, how it executed, the device and the host.
pub struct RunContext {
    /// The runtime as records name it (`tract`, `ONNX Runtime`, `PyTorch`, `llama.cpp`).
    pub runtime: &'static str,
    /// Its version.
    pub version: String,
    /// How it executed (an execution provider, tract's optimized plan).
    pub execution: String,
    /// Where it ran.
    pub hardware: HardwareType,
    /// The device's name (the GPU's, or this host's CPU profile's).
    pub device_name: String,
    /// The device's id: the CPU profile's; for a GPU its name, resolved by the catalog on storing.
    pub device_id: String,
    /// The CPU as a device from its specifications, when the run is on the CPU.
    pub device_profile: Option<Device>,
    /// Threads the runtime computed on.
    pub threads: usize,
    /// The host's facts.
    pub host: serde_json::Value,
    /// The records' source.
    pub source: String,
}

impl RunContext {
    /// Names the device of records another program measured (PyTorch's runner, llama-bench) as this
    /// run does: on the CPU, this host's profile (the CPU as the runner used it).
    pub fn name_device(&self, records: &mut [BenchmarkRecord]) {
        let Some(profile) = &self.device_profile else { return };
        let profile = serde_json::to_value(profile).ok();
        for r in records.iter_mut().filter(|r| r.hardware_type.as_deref() == Some("cpu")) {
            r.device.clone_from(&self.device_id);
            r.device_name.clone_from(&self.device_name);
            r.device_profile.clone_from(&profile);
        }
    }

    /// A record with this run's shared fields.
    pub fn record(&self, model: &str) -> BenchmarkRecord {
        let mut r = BenchmarkRecord::new(model, &self.device_name, self.runtime, &self.source);
        r.device.clone_from(&self.device_id);
        r.device_profile = self.device_profile.as_ref().and_then(|d| serde_json::to_value(d).ok());
        r.hardware_type = Some(self.hardware.to_string());
        r.runtime_version = Some(self.version.clone());
        r.execution = Some(self.execution.clone());
        r.host = Some(self.host.clone());
        r.measured_at = Some(host::now_rfc3339());
        r
    }
}

/// The Python to run: `--python`, else `$HWFIT_PYTHON`, else the first of `$VIRTUAL_ENV`'s,
/// `$CONDA_PREFIX`'s and `python3` in which `modules` import, else `python3` (whose error then says
/// what is missing).
pub fn python(args: &BenchArgs, modules: &[&str]) -> PathBuf {
    args.python
        .clone()
        .or_else(|| {
            std::env::var_os("HWFIT_PYTHON")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
        })
        .or_else(|| {
            let candidates = hwfit_native::frameworks::interpreters(None);
            hwfit_native::frameworks::python_with(&candidates, modules)
        })
        .unwrap_or_else(|| PathBuf::from("python3"))
}

fn progress(args: &BenchArgs, len: u64) -> ProgressBar {
    let bar = if args.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(len)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The context of a run on the CPU (the device is this host's CPU profile) or a GPU.
fn context(
    runtime: &'static str,
    version: String,
    execution: String,
    hardware: HardwareType,
    report: &DetectionReport,
    threads: usize,
) -> Result<RunContext> {
    let on_gpu = hardware != HardwareType::Cpu;
    let (device_name, device_id, device_profile) = if on_gpu {
        let name = host::gpu_name(report, hardware).unwrap_or_else(|| hardware.to_string());
        let id = hwfit_core::DeviceCatalog::bundled()
            .ok()
            .and_then(|c| c.resolve_measured(&name).ok().map(|d| d.id.clone()))
            .unwrap_or_else(|| name.clone());
        (name, id, None)
    } else {
        let device = host::cpu_device(report, threads)?;
        (device.name.clone(), device.id.clone(), Some(device))
    };
    Ok(RunContext {
        runtime,
        version,
        execution,
        hardware,
        device_name,
        device_id,
        device_profile,
        threads,
        host: host::facts(report, threads, on_gpu),
        source: String::from("measured here (hwfit bench)"),
    })
}

/// The context of records another program measured (PyTorch's runner, llama-bench), taken from
/// the first: its runtime version, execution and hardware; the device named as this run names it
/// (on the CPU, this host's profile, set on every record). `host` from the records when they carry it.
fn context_of_records(
    runtime: &'static str,
    records: &mut [BenchmarkRecord],
    detection: &DetectionReport,
    threads: usize,
    host_from_records: bool,
) -> Result<RunContext> {
    let first = records.first().with_context(|| format!("{runtime} measured nothing"))?;
    let hardware = first
        .hardware_type
        .as_deref()
        .and_then(|h| h.parse().ok())
        .unwrap_or(HardwareType::Cpu);
    let mut context = context(
        runtime,
        first.runtime_version.clone().unwrap_or_default(),
        first.execution.clone().unwrap_or_default(),
        hardware,
        detection,
        threads,
    )?;
    if hardware != HardwareType::Cpu {
        context.device_name.clone_from(&first.device_name);
    }
    if let Some(host) = first.host.as_ref().filter(|_| host_from_records) {
        context.host = host.clone();
    }
    context.name_device(records);
    Ok(context)
}

/// The microbenchmark figures of every benchmarked device, as records.
fn microbenchmark_records(report: &DetectionReport, host: &serde_json::Value) -> Vec<BenchmarkRecord> {
    let mut out = Vec::new();
    for d in &report.devices {
        let Some(m) = &d.benchmark else { continue };
        for (what, value, unit) in [
            ("f32 matmul", m.matmul_f32_gflops, "GFLOP/s"),
            ("memory copy", m.copy_gbs, "GB/s"),
        ] {
            let mut r = BenchmarkRecord::new(
                &format!("hwfit microbenchmark: {what}"),
                &d.name,
                "hwfit microbenchmark",
                "measured here (hwfit detect --benchmark)",
            );
            r.device = d.catalog_id.clone().unwrap_or_else(|| d.key.clone());
            r.hardware_type = Some(d.hardware_type.to_string());
            r.precision = Some(String::from("fp32"));
            r.throughput = Some(value);
            r.throughput_unit = Some(String::from(unit));
            r.host = Some(host.clone());
            r.measured_at = Some(host::now_rfc3339());
            r.notes = Some(m.method.clone());
            out.push(r);
        }
    }
    out
}

/// Refuses PyTorch's options on another runtime, which would ignore them.
fn check_runtime_options(args: &BenchArgs) -> Result<()> {
    if args.runtime == BenchRuntime::Pytorch {
        return Ok(());
    }
    let p = &args.pytorch;
    let named = [
        (p.compile, "--compile"),
        (p.compile_mode.is_some(), "--compile-mode"),
        (p.kv_cache != KvCache::Dynamic, "--kv-cache"),
        (p.autocast.is_some(), "--autocast"),
    ];
    if let Some((_, flag)) = named.iter().find(|(given, _)| *given) {
        bail!("{flag} is an option of --runtime pytorch");
    }
    Ok(())
}

/// Runs `hwfit bench`.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    interrupt::watch();
    let scope = if args.no_microbenchmark {
        BenchmarkScope::Cpu
    } else {
        BenchmarkScope::All
    };
    let detection = hwfit_native::probe(scope, &BenchConfig::default(), None);
    let threads = args.threads.unwrap_or_else(|| host::physical_cores(&detection)).max(1);
    let catalog = Catalog::builtin();
    let memory_mb = detection.memory.total_mb as f64 / 4.0;
    // Opened before measuring: a database that cannot be opened is an error now, not after the run.
    let mut store = if args.no_store {
        None
    } else {
        Some(super::db::database(&args.database)?)
    };
    check_runtime_options(args)?;
    let mut added = 0;
    let (context, records) = match args.runtime {
        BenchRuntime::Tract | BenchRuntime::OnnxRuntime => {
            let models = cases::models(args, &catalog, memory_mb, cases::graph_buildable)?;
            let cases = cases::graph_cases(args, &models)?;
            let (engine, context) = if args.runtime == BenchRuntime::Tract {
                let hardware = graphs::tract_hardware(args.hardware)?;
                let context = context(
                    "tract",
                    hwfit_learn::runner::tract::VERSION.to_string(),
                    String::from("tract optimized plan"),
                    hardware,
                    &detection,
                    threads,
                )?;
                (graphs::Engine::Tract, context)
            } else {
                let library = graphs::onnxruntime_library(args)?;
                let runtime = OnnxRuntime::load(&library)
                    .with_context(|| format!("loading ONNX Runtime from {}", library.display()))?;
                let (provider, hardware) = graphs::provider(args, &runtime, &detection)?;
                let context = context(
                    "ONNX Runtime",
                    runtime.version().to_string(),
                    provider.name().to_string(),
                    hardware,
                    &detection,
                    threads,
                )?;
                (graphs::Engine::OnnxRuntime(runtime, provider), context)
            };
            let bar = progress(args, cases.len() as u64);
            let measured = graphs::run(&engine, args, &models, &cases, &context, &bar);
            bar.finish_and_clear();
            (context, measured?.into_iter().map(|(_, _, r)| r).collect())
        }
        BenchRuntime::Pytorch => {
            let models = cases::models(args, &catalog, memory_mb, cases::config_buildable)?;
            // Each model's records are stored as its runner ends, so a run stopped or failing
            // part-way keeps what it measured.
            let mut keep = |records: &[BenchmarkRecord]| -> Result<()> {
                if let Some((_, store)) = store.as_mut() {
                    added += store.insert(records, "hwfit bench")?.added;
                }
                Ok(())
            };
            pytorch::run(args, &models, &detection, threads, &mut keep)?
        }
        BenchRuntime::LlamaCpp => llama_cpp::run(args, &detection, threads)?,
    };
    let mut all = if args.no_microbenchmark {
        Vec::new()
    } else {
        microbenchmark_records(&detection, &context.host)
    };
    all.extend(records.iter().cloned());
    if let Some(path) = &args.output {
        let text = serde_json::to_string_pretty(&all)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
    }
    // Records stored as they were measured are skipped here (the store skips what it holds).
    let stored = match store.as_mut() {
        None => None,
        Some((url, store)) => {
            added += store.insert(&all, "hwfit bench")?.added;
            Some((url.clone(), added))
        }
    };
    let report = report::Report::new(&context, &records);
    if let Some(path) = &args.report {
        std::fs::write(path, report.markdown()).with_context(|| format!("writing {}", path.display()))?;
    }
    report.print(args.json, stored.as_ref().map(|(url, added)| (url.as_str(), *added)))?;
    if interrupt::stopped() {
        bail!(
            "interrupted by a signal: the {} record(s) measured before it are {}",
            records.len(),
            if stored.is_some() { "stored" } else { "reported" }
        );
    }
    Ok(())
}
