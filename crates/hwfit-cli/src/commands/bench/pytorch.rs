//! The PyTorch runner: the Python client's `hwfit_client/bench.py` (compiled into this binary, so
//! the Python needs only torch and transformers) run per model on its config.json; the records it
//! prints are read back, checked and named with hwfit's device ids.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use hwfit_core::Mode;
use hwfit_db::BenchmarkRecord;
use hwfit_native::DetectionReport;

use super::cases::{check_sizes, BenchModel};
use super::RunContext;
use crate::cli::{BenchArgs, BenchHardware, CompileMode, KvCache};

/// The runner's source, as the Python client ships it.
const RUNNER: &str = include_str!("../../../../../clients/python/hwfit_client/bench.py");

fn join(values: &[u32]) -> String {
    values.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

fn hardware_flag(hardware: BenchHardware) -> &'static str {
    match hardware {
        BenchHardware::Auto => "auto",
        BenchHardware::Cpu => "cpu",
        BenchHardware::Cuda => "cuda",
        BenchHardware::Rocm => "rocm",
        BenchHardware::Mps => "mps",
        BenchHardware::Xpu => "xpu",
    }
}

fn compile_mode_flag(mode: CompileMode) -> &'static str {
    match mode {
        CompileMode::Default => "default",
        CompileMode::ReduceOverhead => "reduce-overhead",
        CompileMode::MaxAutotune => "max-autotune",
        CompileMode::MaxAutotuneNoCudagraphs => "max-autotune-no-cudagraphs",
    }
}

/// The runner's command line for `models` (config file, model, records file each): one process
/// imports torch and initialises the device once for all of them.
fn command<'a>(
    args: &BenchArgs,
    python: &Path,
    runner: &Path,
    models: impl Iterator<Item = (&'a Path, &'a BenchModel, &'a Path)>,
    threads: usize,
) -> Command {
    let mut c = Command::new(python);
    c.arg(runner);
    for (config, model, output) in models {
        c.arg("--config")
            .arg(config)
            .args(["--model-name", &model.name])
            .arg("--output")
            .arg(output);
    }
    c.args(["--hardware", hardware_flag(args.hardware)])
        .args([
            "--mode",
            if args.mode == Mode::Training {
                "training"
            } else {
                "inference"
            },
        ])
        .args(["--batch-sizes", &join(&args.batch_sizes)])
        .args(["--seq-lengths", &join(&args.seq_lengths)])
        .args(["--threads", &threads.to_string()])
        .args(["--budget-ms", &args.budget_ms.to_string()]);
    if let Some(precision) = &args.pytorch.precision {
        c.args(["--precision", precision]);
    }
    if let Some(autocast) = &args.pytorch.autocast {
        c.args(["--autocast", autocast]);
    }
    if !args.workloads.is_empty() {
        let names: Vec<String> = args.workloads.iter().map(ToString::to_string).collect();
        c.args(["--workloads", &names.join(",")]);
    }
    match args.pytorch.compile_mode {
        Some(mode) => {
            c.args(["--compile-mode", compile_mode_flag(mode)]);
        }
        None if args.pytorch.compile => {
            c.arg("--compile");
        }
        None => {}
    }
    if args.pytorch.kv_cache == KvCache::Static {
        c.args(["--kv-cache", "static"]);
    }
    c
}

/// The last lines of a runner's error output.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// Runs the runner on every model and returns the run's context and records; `keep` receives each
/// model's records (its devices named) as soon as its runner ends.
pub fn run(
    args: &BenchArgs,
    models: &[BenchModel],
    detection: &DetectionReport,
    threads: usize,
    keep: &mut dyn FnMut(&[BenchmarkRecord]) -> Result<()>,
) -> Result<(RunContext, Vec<BenchmarkRecord>)> {
    check_sizes(args)?;
    super::cases::check_workloads(args)?;
    if args.onnxruntime.execution_provider.is_some()
        || args.onnxruntime.onnxruntime_lib.is_some()
        || args.llama_cpp.llama_bench.is_some()
    {
        bail!("--execution-provider, --onnxruntime-lib and --llama-bench belong to other runtimes");
    }
    if let Some(model) = models.iter().find(|m| m.config.is_none()) {
        bail!(
            "{}: the PyTorch runner builds models from their config.json, and hwfit has none for it; pass the config.json file as --model",
            model.name
        );
    }
    let python = super::python(args, &["torch", "transformers"]);
    let dir = tempfile::tempdir().context("a temporary directory for the runner")?;
    let runner = dir.path().join("hwfit_bench_runner.py");
    std::fs::write(&runner, RUNNER)?;
    let bar = super::progress(args, models.len() as u64);
    bar.set_message(format!("{} model(s) in one PyTorch process", models.len()));
    let mut files = Vec::with_capacity(models.len());
    for (i, model) in models.iter().enumerate() {
        let config = dir.path().join(format!("config-{i}.json"));
        let json = model.config.as_ref().context("a model without its config.json")?;
        std::fs::write(&config, serde_json::to_string(json)?)?;
        files.push((config, dir.path().join(format!("records-{i}.json"))));
    }
    let jobs = files
        .iter()
        .zip(models)
        .map(|((config, output), model)| (config.as_path(), model, output.as_path()));
    let out = super::interrupt::run_to_end(&mut command(args, &python, &runner, jobs, threads))
        .with_context(|| format!("running {}", python.display()))?;
    // Each model's records file is rewritten as each of its cases ends: a runner stopped part way
    // (a time limit, a crash, a signal to hwfit) leaves the cases it finished, which are kept.
    let mut records: Vec<BenchmarkRecord> = Vec::new();
    let mut context: Option<RunContext> = None;
    let mut unmeasured = Vec::new();
    for ((_, output), model) in files.iter().zip(models) {
        if !output.exists() {
            unmeasured.push(model.name.as_str());
            continue;
        }
        let read = hwfit_db::import::read_file(output)?;
        if let Some(bad) = read.rejected.first() {
            bail!(
                "the PyTorch runner wrote a record hwfit refuses ({}: {})",
                bad.at,
                bad.reason
            );
        }
        let mut measured: Vec<BenchmarkRecord> = read
            .records
            .into_iter()
            .map(|mut r| {
                r.model_family = Some(model.spec.family.to_string());
                r.model_architecture = serde_json::to_value(&model.spec).ok();
                hwfit_db::import::enrich(r)
            })
            .collect();
        if measured.is_empty() {
            unmeasured.push(model.name.as_str());
            continue;
        }
        match &context {
            Some(c) => c.name_device(&mut measured),
            None => {
                context = Some(super::context_of_records(
                    "PyTorch",
                    &mut measured,
                    detection,
                    threads,
                    true,
                )?);
            }
        }
        keep(&measured)?;
        records.extend(measured);
        bar.inc(1);
    }
    if !out.status.success() && !super::interrupt::stopped() {
        let kept = if records.is_empty() {
            String::new()
        } else {
            format!("; the {} records of the models it measured are kept", records.len())
        };
        let missing = if unmeasured.is_empty() {
            String::new()
        } else {
            format!(" without measuring {}", unmeasured.join(", "))
        };
        bail!(
            "the PyTorch runner ended ({}){missing}{kept}:\n{}",
            out.status,
            tail(&String::from_utf8_lossy(&out.stderr))
        );
    }
    bar.finish_and_clear();
    let context = context.context(if super::interrupt::stopped() {
        "interrupted by a signal before PyTorch measured anything"
    } else {
        "PyTorch measured nothing"
    })?;
    Ok((context, records))
}
