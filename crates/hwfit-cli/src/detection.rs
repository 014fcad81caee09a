//! Candidates from this machine's detected hardware: catalog devices where the catalog knows them,
//! measured profiles where it does not (or with `--calibrate`).

use anyhow::Result;
use hwfit_core::{measured_device, Candidate, DeviceCatalog, MeasuredIdentity};
use hwfit_native::{BenchmarkScope, DetectOptions, DetectedDevice, DetectionReport, Profile};

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

/// The device a detected one is predicted on, or why there is none.
fn profile_of(d: &DetectedDevice, catalog: &DeviceCatalog, calibrate: bool) -> Result<hwfit_core::Device, String> {
    let measured = |m: &hwfit_core::Measurement| {
        measured_device(
            MeasuredIdentity {
                id: format!("measured-{}", d.key.replace(':', "-")),
                name: d.name.clone(),
                vendor: String::new(),
                hardware_type: d.hardware_type,
                memory_gb: d.memory_mb as f64 / 1024.0,
            },
            m,
        )
    };
    match (&d.catalog_id, &d.benchmark) {
        (_, Some(m)) if calibrate => Ok(measured(m)),
        (Some(id), _) => catalog
            .by_id(id)
            .cloned()
            .ok_or_else(|| format!("catalog device '{id}' no longer exists (refresh the detection)")),
        (None, Some(m)) => Ok(measured(m)),
        (None, None) => Err(String::from("unknown to the catalog and not benchmarked")),
    }
}

/// One candidate per distinct detected device (eight identical GPUs are one candidate, `cuda:0`).
pub fn candidates(args: &DetectionArgs, catalog: &DeviceCatalog) -> Result<Vec<Candidate>> {
    let report = report(args)?;
    let mut out: Vec<Candidate> = Vec::new();
    let mut skipped = Vec::new();
    for d in &report.devices {
        match profile_of(d, catalog, args.calibrate) {
            Ok(device) => {
                let same = out
                    .iter()
                    .any(|c| c.device == device || (d.profile == Profile::Catalog && c.device.id == device.id));
                if !same {
                    out.push(Candidate {
                        key: d.key.clone(),
                        device,
                    });
                }
            }
            Err(why) => skipped.push(format!("{} ({}): {why}", d.key, d.name)),
        }
    }
    if !skipped.is_empty() {
        output::note(&format!("detected but not predicted: {}", skipped.join("; ")));
    }
    anyhow::ensure!(
        !out.is_empty(),
        "no detected device can be predicted on; name hardware with --hardware or --device"
    );
    Ok(out)
}
