//! `hwfit-fuzz [TARGET…] [--seconds N] [--runs N] [--seed N]`: replays each target's corpus and
//! mutates it for a bounded time and count; prints what ran; exits 1 on a finding, whose input is
//! written to `fuzz/artifacts/<target>/`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Parser;
use hwfit_fuzz::{driver, Budget, TARGETS};

/// Fuzz hwfit's inputs on stable Rust (no coverage feedback; cargo-fuzz in fuzz/ for that).
#[derive(Debug, Parser)]
#[command(name = "hwfit-fuzz")]
struct Args {
    /// Targets to run (default: all): http, config_json, device_spec, browser, selection_config, import, names.
    targets: Vec<String>,
    /// Seconds of mutations per target, after the corpus replay.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Most mutated inputs per target.
    #[arg(long, default_value_t = u64::MAX)]
    runs: u64,
    /// Seed of the mutations (the same seed, the same inputs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest input, bytes.
    #[arg(long, default_value_t = 64 * 1024)]
    max_len: usize,
    /// The corpus: one folder per target.
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Where findings are written (one folder per target).
    #[arg(long)]
    artifacts: Option<PathBuf>,
}

fn main() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    if !(args.seconds.is_finite() && args.seconds >= 0.0) {
        bail!("--seconds must be a non-negative number, not {}", args.seconds);
    }
    let targets = if args.targets.is_empty() {
        TARGETS.to_vec()
    } else {
        args.targets
            .iter()
            .map(|name| {
                hwfit_fuzz::target(name).with_context(|| {
                    let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
                    format!("no target '{name}' (targets: {})", names.join(", "))
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    let corpus_root = args.corpus.unwrap_or_else(hwfit_fuzz::corpus_root);
    let artifacts = args.artifacts.unwrap_or_else(|| corpus_root.join("../artifacts"));
    let budget = Budget {
        time: Duration::from_secs_f64(args.seconds),
        max_runs: args.runs,
        seed: args.seed,
        max_len: args.max_len,
    };
    println!(
        "{:<18} {:>7} {:>11} {:>9}  finding",
        "target", "corpus", "executions", "exec/s"
    );
    let mut failed = false;
    for target in &targets {
        let dir = corpus_root.join(target.name);
        let corpus = driver::load_corpus(&dir).with_context(|| format!("cannot read {}", dir.display()))?;
        let report = driver::run(target, &corpus, &budget);
        let rate = report.executions as f64 / report.elapsed.as_secs_f64().max(1e-9);
        let outcome = match &report.finding {
            None => String::from("none"),
            Some(finding) => {
                failed = true;
                let dir = artifacts.join(target.name);
                std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
                let path = dir.join(format!("crash-{:016x}", fnv1a(&finding.input)));
                std::fs::write(&path, &finding.input).with_context(|| format!("cannot write {}", path.display()))?;
                format!("{} (input: {})", finding.message, path.display())
            }
        };
        println!(
            "{:<18} {:>7} {:>11} {:>9.0}  {outcome}",
            target.name, report.corpus, report.executions, rate
        );
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// A stable name for a finding's file.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
