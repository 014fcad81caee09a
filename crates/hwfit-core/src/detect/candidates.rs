//! The devices a detection report lets hwfit predict on: catalog devices where the catalog knows
//! them, measured profiles where it does not (or when calibrating). The browser's twin of this rule
//! is [`crate::browser::browser_candidates`]. Every face reads a report the same way: the CLI and the
//! server on this host's detection, the npm package on a report it is given (`configure`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{DetectedDevice, DetectionReport, Profile};
use crate::perf::{PerfModel, WorkloadClass};
use crate::{calibrated_catalog_device, measured_device, Candidate, Device, DeviceCatalog, MeasuredIdentity};

/// The share of a hardware type's peak bandwidth a bandwidth-bound kernel achieves (the fitted
/// generation-class memory efficiency), for judging the copy microbenchmark of an identified device.
fn spec_memory_share(device: &Device) -> Option<f64> {
    let model = PerfModel::builtin().ok()?;
    let (e, _) = model
        .coefficients()
        .efficiency(device.hardware_type, WorkloadClass::Generate)?;
    Some(e.memory)
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
        (_, Some(m)) if calibrate => Ok(
            match identified.and_then(|spec| Some((spec, spec_memory_share(spec)?))) {
                // A device the catalog knows keeps its peaks, which every runtime's fitted shares
                // apply to; the measurement lowers only the bandwidth, where the copy shows it slower.
                Some((spec, share)) => calibrated_catalog_device(m, spec, share),
                None => measured(m),
            },
        ),
        (Some(id), _) => catalog
            .by_id(id)
            .cloned()
            .ok_or_else(|| format!("catalog device '{id}' no longer exists (refresh the detection)")),
        (None, Some(m)) => Ok(measured(m)),
        (None, None) => Err(String::from("unknown to the catalog and not benchmarked")),
    }
}

/// The candidates of `report`: with `calibrate`, every benchmarked device on its measured figures
/// (a device the catalog identified keeps its peaks, its bandwidth lowered where the copy shows it
/// slower: [`calibrated_catalog_device`]).
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

    /// The H200's own report and records (2026-11-26: the WGSL matmul at 3 % of the FP32 peak, the
    /// copy at 81 % of the bandwidth; 115 PyTorch steps measured on the same machine): with
    /// `calibrate`, every PyTorch prediction is at least as close to the measurement as the
    /// catalog's, and none is faster.
    #[test]
    fn calibrating_the_h200_never_predicts_worse_than_its_catalog_entry() {
        use crate::perf::{PerfModel, PerfRequest, Runtime};
        use crate::{Catalog, Precision, Workload};
        let text = include_str!("../../../hwfit-cli/tests/fixtures/detection_h200.json");
        let report: DetectionReport = serde_json::from_str(text).unwrap();
        let catalog = DeviceCatalog::builtin();
        let gpu = |calibrate: bool| {
            candidates(&report, &catalog, calibrate)
                .candidates
                .into_iter()
                .find(|c| c.key == "cuda:0")
                .unwrap()
                .device
        };
        let (spec_device, calibrated) = (gpu(false), gpu(true));
        assert_eq!(spec_device.id, "nvidia-h200-sxm");
        assert!(
            calibrated.source.contains("calibrated by hwfit's microbenchmark"),
            "{}",
            calibrated.source
        );
        let records: Vec<serde_json::Value> = serde_json::from_str(include_str!(
            "../../../../data/measured/hwfit_bench_pytorch_cuda_h200.json"
        ))
        .unwrap();
        let (models, perf) = (Catalog::builtin(), PerfModel::builtin().unwrap());
        let mut compared = 0;
        for r in &records {
            let text = |k: &str| r[k].as_str().unwrap_or_default();
            let math = text("math_mode");
            let precision: Precision = math
                .strip_prefix("autocast ")
                .unwrap_or(text("precision"))
                .parse()
                .unwrap();
            let request = PerfRequest {
                precision,
                workload: text("workload").parse::<Workload>().unwrap(),
                batch_size: r["batch_size"].as_u64().unwrap() as u32,
                seq_length: r["sequence_length"].as_u64().unwrap_or(1) as u32,
                runtime: Some(Runtime::Pytorch),
            };
            let spec = models.resolve(text("model_name")).unwrap().spec;
            let measured = r["throughput"].as_f64().unwrap();
            let on = |d: &Device| perf.predict(&spec, d, &request).unwrap().throughput;
            let (by_spec, by_calibration) = (on(&spec_device), on(&calibrated));
            let err = |p: f64| libm::fabs(libm::log(p / measured));
            assert!(
                by_calibration <= by_spec * (1.0 + 1e-9),
                "{}: {by_calibration} > {by_spec}",
                text("model_name")
            );
            assert!(
                err(by_calibration) <= err(by_spec) + 0.02,
                "{} {:?}: {by_calibration} vs {by_spec}, measured {measured}",
                text("model_name"),
                request
            );
            compared += 1;
        }
        assert_eq!(compared, records.len());
    }
}
