//! This machine's devices, for questions that name no hardware, and the one way the CLI asks the
//! core a question (the server and the npm package apply the same rule, see `hwfit_core::api::Question`).

use anyhow::Result;
use hwfit_core::api::Question;
use hwfit_core::{Candidate, Hwfit};
use hwfit_native::{BenchmarkScope, DetectOptions, DetectionReport};

use crate::cli::DetectionArgs;
use crate::output;

/// Loads the report named by `--detection`, else detects (cache first, benchmarking unknown devices,
/// every device with `--calibrate`).
pub fn report(args: &DetectionArgs) -> Result<DetectionReport> {
    if let Some(path) = &args.detection {
        return Ok(hwfit_native::cache::read(path)?);
    }
    let detection = hwfit_native::detect(&DetectOptions {
        benchmark: if args.calibrate {
            BenchmarkScope::All
        } else {
            BenchmarkScope::Unknown
        },
        ..DetectOptions::default()
    });
    for w in &detection.warnings {
        output::note(w);
    }
    Ok(detection.report)
}

/// The detected candidates when the question may run on local devices and names none, else none.
/// Finding none it can predict on, it says so: the core then answers for every hardware type.
fn local<Q: Question>(question: &Q, args: &DetectionArgs, hwfit: &Hwfit) -> Result<Vec<Candidate>> {
    if !question.needs_local() || args.no_detect {
        return Ok(Vec::new());
    }
    let found = hwfit_native::candidates(&report(args)?, hwfit.devices_catalog(), args.calibrate);
    if !found.skipped.is_empty() {
        output::note(&format!("detected but not predicted: {}", found.skipped.join("; ")));
    }
    if found.candidates.is_empty() {
        output::note(
            "no detected device can be predicted on: answering for every hardware type with a reference device",
        );
    }
    Ok(found.candidates)
}

/// Asks the core `question`, on this machine's devices where the rule says so.
pub fn ask<'h, Q: Question>(hwfit: &'h Hwfit, question: &Q, args: &DetectionArgs) -> Result<Q::Answer<'h>> {
    let local = local(question, args, hwfit)?;
    Ok(hwfit.ask(question, &local)?)
}
