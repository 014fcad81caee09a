//! Printing: JSON for machines, tables for people, one-line errors on stderr.

use std::io::Write;

use anyhow::Result;
use comfy_table::{presets::UTF8_BORDERS_ONLY, Table};
use serde::Serialize;

/// Writes a line to stdout. A closed pipe (`hwfit … | head`) ends the program quietly instead of
/// panicking as `println!` would.
fn line(s: &str) {
    if let Err(e) = writeln!(std::io::stdout().lock(), "{s}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        error(&anyhow::Error::new(e).context("cannot write to stdout"));
        std::process::exit(1);
    }
}

/// Prints a value as pretty JSON.
pub fn json<T: Serialize>(value: &T) -> Result<()> {
    line(&serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Prints text.
pub fn text(s: &str) {
    line(s);
}

/// A table with hwfit's style and the given header.
pub fn table<const N: usize>(header: [&str; N]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_BORDERS_ONLY).set_header(header);
    t
}

/// Prints an error and its causes on one line.
#[allow(clippy::print_stderr)]
pub fn error(err: &anyhow::Error) {
    eprintln!("error: {err:#}");
}

/// Prints a note for people on stderr (stdout stays clean for `--json`).
#[allow(clippy::print_stderr)]
pub fn note(message: &str) {
    eprintln!("note: {message}");
}

/// A step's precision for people: "bf16", or for a training step "bf16 mixed precision" / "pure
/// bf16" (`mixed_precision`, absent for inference).
pub fn training_precision(precision: hwfit_core::Precision, mixed_precision: Option<bool>) -> String {
    match mixed_precision {
        Some(true) => format!("{precision} mixed precision"),
        Some(false) if precision != hwfit_core::Precision::Fp32 => format!("pure {precision}"),
        _ => precision.to_string(),
    }
}

/// Megabytes as "1,234 MB" / "12.3 GB" for people.
pub fn mb(value: f64) -> String {
    if value >= 10_240.0 {
        format!("{:.1} GB", value / 1024.0)
    } else {
        format!("{value:.0} MB")
    }
}

/// A parameter count as "110 M" / "6.74 B".
pub fn params(count: u64) -> String {
    let c = count as f64;
    if c >= 1e9 {
        format!("{:.2} B", c / 1e9)
    } else {
        format!("{:.1} M", c / 1e6)
    }
}
