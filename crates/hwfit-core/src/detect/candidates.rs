//! The devices a detection report lets hwfit predict on: catalog devices where the catalog knows
//! them, measured profiles where it does not (or when calibrating). The browser's twin of this rule
//! is [`crate::browser::browser_candidates`]. Every face reads a report the same way: the CLI and the
//! server on this host's detection, the npm package on a report it is given (`configure`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{DetectedDevice, DetectionReport, Profile};
use crate::perf::{PerfModel, WorkloadClass};
use crate::{calibrated_device, measured_device, Candidate, Device, DeviceCatalog, MeasuredIdentity, SpecShares};

/// The shares of a hardware type's peaks the spec-based prediction achieves (the fitted
/// generation-class efficiencies: the class of the microbenchmark's bandwidth- and compute-bound
/// kernels alike), for judging a measurement of an identified device.
fn spec_shares(device: &Device) -> Option<SpecShares> {
    let model = PerfModel::builtin().ok()?;
    let (e, _) = model
        .coefficients()
        .efficiency(device.hardware_type, WorkloadClass::Generate)?;
    Some(SpecShares {
        compute: e.compute,
        memory: e.memory,
    })
}

/// Candidates from a report, and the devices left out with the reason.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectedCandidates {
    /// One candidate per distinct device (eight identical GPUs are one candidate, `cuda:0`).
    pub candidates: Vec<Candidate>,
    /// `key (name): why` for each device that cannot be predicted on.
    pub skipped: Vec<String>,
}

/// The device a detected one is predicted on, or why there is none.
fn profile_of(d: &DetectedDevice, catalog: &DeviceCatalog, calibrate: bool) -> Result<Device, String> {
    let identity = || MeasuredIdentity {
        id: format!("measured-{}", d.key.replace(':', "-")),
        name: d.name.clone(),
        vendor: String::new(),
        hardware_type: d.hardware_type,
        memory_gb: d.memory_mb as f64 / 1024.0,
    };
    let measured = |m: &crate::Measurement| measured_device(identity(), m);
    let identified = d.catalog_id.as_ref().and_then(|id| catalog.by_id(id));
    match (&d.catalog_id, &d.benchmark) {
        (_, Some(m)) if calibrate => Ok(match identified.and_then(|spec| Some((spec, spec_shares(spec)?))) {
            // A measurement of a device the catalog knows is judged against its spec.
            Some((spec, shares)) => calibrated_device(identity(), m, spec, shares),
            None => measured(m),
        }),
        (Some(id), _) => catalog
            .by_id(id)
            .cloned()
            .ok_or_else(|| format!("catalog device '{id}' no longer exists (refresh the detection)")),
        (None, Some(m)) => Ok(measured(m)),
        (None, None) => Err(String::from("unknown to the catalog and not benchmarked")),
    }
}

/// The candidates of `report`: with `calibrate`, every benchmarked device on its measured figures
/// (judged against the catalog's spec where the catalog identified it: [`calibrated_device`]).
#[must_use]
pub fn candidates(report: &DetectionReport, catalog: &DeviceCatalog, calibrate: bool) -> DetectedCandidates {
    let mut out = DetectedCandidates {
        candidates: Vec::new(),
        skipped: Vec::new(),
    };
    for d in &report.devices {
        match profile_of(d, catalog, calibrate) {
            Ok(device) => {
                let same = out
                    .candidates
                    .iter()
                    .any(|c| c.device == device || (d.profile == Profile::Catalog && c.device.id == device.id));
                if !same {
                    out.candidates.push(Candidate {
                        key: d.key.clone(),
                        device,
                        resolved_from: None,
                    });
                }
            }
            Err(why) => out.skipped.push(format!("{} ({}): {why}", d.key, d.name)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recorded `hwfit detect --json` report (snake_case, as printed) reads in every build — the
    /// npm package's camelCase one too — and gives its measured CPU as the one candidate.
    #[test]
    fn a_recorded_report_gives_its_devices() {
        let text = include_str!("../../../hwfit-cli/tests/fixtures/detection_ci_2core_llvmpipe.json");
        let report: DetectionReport = serde_json::from_str(text).unwrap();
        let found = candidates(&report, &DeviceCatalog::builtin(), false);
        assert_eq!(found.candidates.len(), 1, "{:?}", found.skipped);
        assert_eq!(found.candidates[0].key, "cpu");
        assert!(found.candidates[0].device.id.starts_with("measured-"));
        let none = DetectionReport {
            devices: Vec::new(),
            ..report
        };
        assert!(candidates(&none, &DeviceCatalog::builtin(), false)
            .candidates
            .is_empty());
    }
}
