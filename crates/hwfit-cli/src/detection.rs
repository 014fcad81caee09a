//! This machine's devices as candidates, for questions that name no hardware.

use anyhow::Result;
use hwfit_core::api::Targeted;
use hwfit_core::{Candidate, DeviceCatalog};
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

/// The detected candidates when the request names no hardware or devices (the core's rule), else none.
pub fn local(request: &impl Targeted, args: &DetectionArgs, catalog: &DeviceCatalog) -> Result<Vec<Candidate>> {
    if !request.needs_local() {
        return Ok(Vec::new());
    }
    let found = hwfit_native::candidates(&report(args)?, catalog, args.calibrate);
    if !found.skipped.is_empty() {
        output::note(&format!("detected but not predicted: {}", found.skipped.join("; ")));
    }
    anyhow::ensure!(
        !found.candidates.is_empty(),
        "no detected device can be predicted on; name hardware with --hardware or --device"
    );
    Ok(found.candidates)
}
