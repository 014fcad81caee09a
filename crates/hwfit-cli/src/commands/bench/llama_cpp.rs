//! The llama.cpp runner: `llama-bench -o json` on GGUF files — prompt tests at each sequence
//! length, then generation tests at each as the context depth — read back as records.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use hwfit_core::Workload;
use hwfit_db::{BenchmarkRecord, FileRecords};
use hwfit_native::DetectionReport;

use super::cases::check_sizes;
use super::RunContext;
use crate::cli::{BenchArgs, BenchHardware, BenchRuntime};

fn join(values: &[u32]) -> String {
    values.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

/// The llama-bench to run: `--llama-bench`, else `llama-bench` on PATH.
fn binary(args: &BenchArgs) -> PathBuf {
    args.llama_cpp
        .llama_bench
        .clone()
        .unwrap_or_else(|| PathBuf::from("llama-bench"))
}

/// llama-bench's arguments for one model and pass: prompt tests (`-p`), or generation tests at
/// each context depth (`-n … -d`).
fn arguments(args: &BenchArgs, model: &Path, threads: usize, prompt: bool) -> Vec<String> {
    let layers = if args.hardware == BenchHardware::Cpu { "0" } else { "99" };
    let mut a: Vec<String> = vec![
        "-m".into(),
        model.display().to_string(),
        "-t".into(),
        threads.to_string(),
        "-ngl".into(),
        layers.into(),
        "-o".into(),
        "json".into(),
    ];
    if prompt {
        a.extend(["-p".into(), join(&args.seq_lengths), "-n".into(), "0".into()]);
    } else {
        a.extend([
            "-p".into(),
            "0".into(),
            "-n".into(),
            args.llama_cpp.gen_tokens.to_string(),
            "-d".into(),
            join(&args.seq_lengths),
        ]);
    }
    a
}

/// Names each record's model by the catalog entry its GGUF file's name stands for
/// (`Llama-3.2-1B-Instruct-Q4_0` → `meta-llama/Llama-3.2-1B-Instruct`), so the records join the fits
/// as they are; a file the catalog does not know keeps its name (the file is in `host.model_file`).
fn name_models(records: &mut [BenchmarkRecord], catalog: &hwfit_core::Catalog) {
    for r in records {
        if let Some(m) = catalog
            .lookup(&r.model_name)
            .or_else(|| catalog.lookup_repackaged(&r.model_name))
        {
            r.model_name = m.spec.name;
        }
    }
}

/// Runs llama-bench on every model (GGUF files) and returns the run's context and records.
pub fn run(
    args: &BenchArgs,
    detection: &DetectionReport,
    threads: usize,
) -> Result<(RunContext, Vec<BenchmarkRecord>)> {
    debug_assert_eq!(args.runtime, BenchRuntime::LlamaCpp);
    check_sizes(args)?;
    if args.mode == hwfit_core::Mode::Training {
        bail!("llama.cpp runs inference; training steps are measured by --runtime pytorch");
    }
    if args.models.is_empty() {
        bail!("llama.cpp measures GGUF files: pass each as --model FILE.gguf");
    }
    if args.llama_cpp.gen_tokens == 0 {
        bail!("--gen-tokens must be at least 1");
    }
    if let Some(other) = args
        .workloads
        .iter()
        .find(|w| !matches!(w, Workload::Prefill | Workload::Decode))
    {
        bail!("llama-bench measures prefill and decode, not {other}");
    }
    let passes: Vec<bool> = [(true, Workload::Prefill), (false, Workload::Decode)]
        .into_iter()
        .filter(|&(_, w)| super::cases::wanted(args, w))
        .map(|(prompt, _)| prompt)
        .collect();
    let models: Vec<&Path> = args.models.iter().map(Path::new).collect();
    if let Some(bad) = models
        .iter()
        .find(|m| !(m.is_file() && m.extension().is_some_and(|e| e.eq_ignore_ascii_case("gguf"))))
    {
        bail!("{} is not a GGUF file", bad.display());
    }
    let llama_bench = binary(args);
    let bar = super::progress(args, (passes.len() * models.len()) as u64);
    let mut read = FileRecords::default();
    'models: for model in &models {
        for &prompt in &passes {
            bar.set_message(format!(
                "{} {}",
                model.display(),
                if prompt { "prefill" } else { "decode" }
            ));
            let out =
                super::interrupt::run_to_end(Command::new(&llama_bench).args(arguments(args, model, threads, prompt)))
                    .with_context(|| {
                        format!(
                            "running {} (install llama.cpp, or pass --llama-bench PATH)",
                            llama_bench.display()
                        )
                    })?;
            if super::interrupt::stopped() {
                break 'models;
            }
            if !out.status.success() {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let tail: Vec<&str> = stderr.lines().rev().take(8).collect();
                bail!(
                    "llama-bench failed on {} ({}):\n{}",
                    model.display(),
                    out.status,
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                );
            }
            let text = String::from_utf8_lossy(&out.stdout);
            let value: serde_json::Value = serde_json::from_str(&text).context("llama-bench printed no JSON array")?;
            let tests = value.as_array().context("llama-bench printed no JSON array")?;
            hwfit_db::llama_bench::read_tests(
                tests.iter().enumerate().map(|(i, t)| (format!("[{i}]"), t)),
                "measured here (hwfit bench --runtime llama.cpp)",
                &mut read,
            );
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    if let Some(bad) = read.rejected.first() {
        bail!("llama-bench printed a test hwfit refuses ({}: {})", bad.at, bad.reason);
    }
    let mut records = read.records;
    name_models(&mut records, &hwfit_core::Catalog::builtin());
    let context = super::context_of_records("llama.cpp", &mut records, detection, threads, false)?;
    Ok((context, records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gguf_file_names_become_catalog_models() {
        let mut records = vec![
            BenchmarkRecord::new("Llama-3.2-1B-Instruct-Q4_0", "cpu", "llama.cpp", "test"),
            BenchmarkRecord::new("my-own-finetune", "cpu", "llama.cpp", "test"),
        ];
        name_models(&mut records, &hwfit_core::Catalog::builtin());
        let names: Vec<&str> = records.iter().map(|r| r.model_name.as_str()).collect();
        assert_eq!(names[0], "meta-llama/Llama-3.2-1B-Instruct");
        assert_eq!(names[1], "my-own-finetune");
    }
}
