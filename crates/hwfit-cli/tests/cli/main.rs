//! End-to-end tests of the `hwfit` binary: JSON outputs as insta snapshots, human output and errors.

mod bench;
mod classify;
mod compatibility;
mod db;
mod detect;
mod errors;
mod models;
mod perf;
mod plan;
mod resources;
mod select;
mod template;

use assert_cmd::Command;

/// The repository root, where the shared fixtures live.
fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `hwfit` with `args`, asserts success and returns stdout.
fn run_ok(args: &[&str]) -> String {
    let out = Command::cargo_bin("hwfit").unwrap().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "hwfit {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `hwfit --json`-style commands and parses stdout.
fn run_json(args: &[&str]) -> serde_json::Value {
    let stdout = run_ok(args);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("hwfit {args:?} printed invalid JSON ({e}): {stdout}"))
}

/// Runs `hwfit` expecting failure; returns stderr.
fn run_err(args: &[&str]) -> String {
    let out = Command::cargo_bin("hwfit").unwrap().args(args).output().unwrap();
    assert!(!out.status.success(), "hwfit {args:?} should fail");
    assert!(out.stdout.is_empty(), "a failing command prints nothing on stdout");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}
