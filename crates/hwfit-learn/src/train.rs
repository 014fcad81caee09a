//! `hwfit train`: the learned correction fitted to measurements, checked by leave-devices-out
//! cross-validation against the analytic model on the same folds, and written as ONNX.
//!
//! Each fold holds out a group of devices: the analytic model is refitted without them (as
//! `hwfit fit`'s cross-validation does), the MLP learns ln(measured / analytic) on the rest
//! against that refit, and both predict the held-out devices. The learned model's domain is the
//! (hardware type, workload class) cells where it beat the analytic model on held-out devices.

use std::collections::{BTreeMap, BTreeSet};

use hwfit_core::perf::fit::{fit, summarize, Accuracy, Sample};
use hwfit_core::perf::fitting::MeasuredStep;
use hwfit_core::perf::learned::{feature_names, FeatureRange, LearnedDomain};
use hwfit_core::perf::{PerfModel, WorkloadClass};
use hwfit_core::HardwareType;
use ndarray::{Array1, Array2};
use serde::Serialize;

use crate::mlp::{Mlp, MlpConfig};
use crate::onnx::encode;
use crate::predictor::keys;
use crate::predictor::onnx_to_nnef;
use crate::reference::Case;
use crate::LearnError;

/// Continuous features whose training range bounds the domain.
const RANGED: [&str; 5] = [
    "log10_peak_tflops",
    "log10_bandwidth_gbs",
    "log10_intensity",
    "log2_batch",
    "log2_seq",
];

/// Cells need this many held-out samples before the report may prefer the learned model there.
const MIN_CELL_SAMPLES: usize = 4;

/// Training settings.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainConfig {
    /// The network.
    pub mlp: MlpConfig,
    /// Device groups for cross-validation.
    pub folds: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            mlp: MlpConfig::default(),
            folds: 10,
        }
    }
}

/// Learned against analytic in one (hardware type, workload class) cell, on held-out devices.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellReport {
    /// Hardware type.
    pub hardware_type: HardwareType,
    /// Workload class.
    pub class: WorkloadClass,
    /// Devices in the cell.
    pub devices: usize,
    /// The analytic model (refitted without the held-out devices).
    pub analytic: Accuracy,
    /// The learned correction on top of it.
    pub learned: Accuracy,
    /// Whether the learned model is used here (better median |log error| and share within ±25 %).
    pub learned_used: bool,
}

/// What training found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrainReport {
    /// Measurements trained on.
    pub samples: usize,
    /// Distinct devices.
    pub devices: usize,
    /// Cross-validation folds (device groups).
    pub folds: usize,
    /// Analytic model, all held-out predictions.
    pub analytic: Accuracy,
    /// Learned model, all held-out predictions.
    pub learned: Accuracy,
    /// What hwfit predicts with the learned model inside its domain and the analytic outside.
    pub combined: Accuracy,
    /// Per cell.
    pub cells: Vec<CellReport>,
    /// Where the model is used.
    pub domain: LearnedDomain,
    /// Network parameters.
    pub parameters: usize,
}

/// A trained model.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The ONNX model.
    pub onnx: Vec<u8>,
    /// Its NNEF form (for the npm package's `learn/` module).
    pub nnef: Vec<u8>,
    /// The cross-validation report.
    pub report: TrainReport,
    /// The network (the Rust-side reference for the ONNX graph).
    pub mlp: Mlp,
    /// Every training row's features and the network's answer (the Rust-side reference).
    pub reference: Vec<Case>,
}

/// One measurement against a model: its features and ln(measured / analytic).
struct Row {
    features: Vec<f32>,
    target: f32,
}

fn sample(step: &MeasuredStep) -> Result<Sample, LearnError> {
    Ok(Sample::new(
        &step.spec,
        &step.device,
        &step.request,
        step.measured,
        step.label.clone(),
    )?)
}

fn rows(model: &PerfModel, steps: &[&MeasuredStep]) -> Result<Vec<Row>, LearnError> {
    steps
        .iter()
        .map(|s| {
            let (p, features) = model.analytic_with_features(&s.spec, &s.device, &s.request)?;
            Ok(Row {
                features,
                target: (s.measured / p.throughput).ln() as f32,
            })
        })
        .collect()
}

fn fit_mlp(rows: &[Row], config: &MlpConfig) -> Mlp {
    let width = rows.first().map_or(0, |r| r.features.len());
    let x = Array2::from_shape_fn((rows.len(), width), |(i, j)| rows[i].features[j]);
    let y = Array1::from_iter(rows.iter().map(|r| r.target));
    Mlp::fit(&x, &y, config)
}

fn cell(step: &MeasuredStep) -> (HardwareType, WorkloadClass) {
    (step.device.hardware_type, WorkloadClass::of(step.request.workload))
}

/// Held-out |log errors| of one step: (analytic, learned).
type Held = ((HardwareType, WorkloadClass), String, f64, f64);

fn cross_validate(steps: &[MeasuredStep], config: &TrainConfig) -> Result<Vec<Held>, LearnError> {
    let devices: BTreeSet<&str> = steps.iter().map(|s| s.device.id.as_str()).collect();
    let fold_of: BTreeMap<&str, usize> = devices
        .iter()
        .enumerate()
        .map(|(i, d)| (*d, i % config.folds.max(2)))
        .collect();
    let mut held = Vec::new();
    for fold in 0..config.folds.max(2) {
        let (test, train): (Vec<&MeasuredStep>, Vec<&MeasuredStep>) =
            steps.iter().partition(|s| fold_of[s.device.id.as_str()] == fold);
        if test.is_empty() {
            continue;
        }
        let samples = train.iter().map(|s| sample(s)).collect::<Result<Vec<_>, _>>()?;
        let analytic = PerfModel::with_coefficients(fit(&samples, "cross-validation fold"));
        let mlp = fit_mlp(&rows(&analytic, &train)?, &config.mlp);
        for (step, row) in test.iter().zip(rows(&analytic, &test)?) {
            let learned = f64::from(row.target - mlp.predict(&row.features));
            held.push((
                cell(step),
                step.device.id.clone(),
                f64::from(row.target).abs(),
                learned.abs(),
            ));
        }
    }
    Ok(held)
}

fn domain(cells: &[CellReport], all_rows: &[Row]) -> LearnedDomain {
    let names = feature_names();
    let ranges = RANGED
        .iter()
        .filter_map(|f| {
            let i = names.iter().position(|n| n == f)?;
            let values = all_rows.iter().map(|r| r.features[i]);
            let (min, max) = values.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
            Some(FeatureRange {
                feature: (*f).to_string(),
                min,
                max,
            })
        })
        .collect();
    LearnedDomain {
        cells: cells
            .iter()
            .filter(|c| c.learned_used)
            .map(|c| (c.hardware_type, c.class))
            .collect(),
        ranges,
        margin: 0.5,
    }
}

/// Trains on `steps`: cross-validation report, then the final model on everything against
/// `analytic` (the model it will correct), written as ONNX with its domain.
pub fn train(steps: &[MeasuredStep], analytic: &PerfModel, config: &TrainConfig) -> Result<Trained, LearnError> {
    // Steps the analytic model refuses (a precision the hardware type cannot run) cannot be corrected;
    // steps the runtime step model answers (TensorRT and PyTorch on CUDA: host costs fitted to their
    // own measurements) are not corrected either, so they are not trained on.
    let steps: Vec<MeasuredStep> = steps
        .iter()
        .filter(|s| {
            analytic
                .analytic_with_features(&s.spec, &s.device, &s.request)
                .is_ok_and(|(p, _)| p.host_costs.is_none())
        })
        .cloned()
        .collect();
    let steps = steps.as_slice();
    let devices: BTreeSet<&str> = steps.iter().map(|s| s.device.id.as_str()).collect();
    if devices.len() < 3 {
        return Err(LearnError::Training(format!(
            "{} measurements from {} devices: leave-devices-out validation needs at least 3 devices",
            steps.len(),
            devices.len()
        )));
    }
    let held = cross_validate(steps, config)?;
    let mut by_cell: BTreeMap<(HardwareType, WorkloadClass), Vec<&Held>> = BTreeMap::new();
    for h in &held {
        by_cell.entry(h.0).or_default().push(h);
    }
    let cells: Vec<CellReport> = by_cell
        .iter()
        .map(|(&(hardware_type, class), hs)| {
            let analytic = summarize(&hs.iter().map(|h| h.2).collect::<Vec<_>>());
            let learned = summarize(&hs.iter().map(|h| h.3).collect::<Vec<_>>());
            let devices = hs.iter().map(|h| h.1.as_str()).collect::<BTreeSet<_>>().len();
            let learned_used = hs.len() >= MIN_CELL_SAMPLES
                && learned.median_abs_log_error < analytic.median_abs_log_error
                && learned.within_25_percent >= analytic.within_25_percent;
            CellReport {
                hardware_type,
                class,
                devices,
                analytic,
                learned,
                learned_used,
            }
        })
        .collect();
    let used: BTreeSet<_> = cells
        .iter()
        .filter(|c| c.learned_used)
        .map(|c| (c.hardware_type, c.class))
        .collect();
    let all: Vec<&MeasuredStep> = steps.iter().collect();
    let all_rows = rows(analytic, &all)?;
    let mlp = fit_mlp(&all_rows, &config.mlp);
    let domain = domain(&cells, &all_rows);
    let report = TrainReport {
        samples: steps.len(),
        devices: devices.len(),
        folds: config.folds,
        analytic: summarize(&held.iter().map(|h| h.2).collect::<Vec<_>>()),
        learned: summarize(&held.iter().map(|h| h.3).collect::<Vec<_>>()),
        combined: summarize(
            &held
                .iter()
                .map(|h| if used.contains(&h.0) { h.3 } else { h.2 })
                .collect::<Vec<_>>(),
        ),
        cells,
        domain: domain.clone(),
        parameters: mlp.parameter_count(),
    };
    let trained_on = format!(
        "MLP {:?} ({} parameters, seed {}, {} Adam epochs) on {} measurements from {} devices; leave-devices-out CV over {} folds: analytic {:.0}% within ±25%, learned where used {:.0}%",
        config.mlp.hidden,
        report.parameters,
        config.mlp.seed,
        config.mlp.epochs,
        report.samples,
        report.devices,
        report.folds,
        report.analytic.within_25_percent * 100.0,
        report.combined.within_25_percent * 100.0,
    );
    let metadata = [
        (keys::FEATURES, feature_names().join(",")),
        (
            keys::DOMAIN,
            serde_json::to_string(&domain).map_err(|e| LearnError::Training(e.to_string()))?,
        ),
        (keys::TRAINED_ON, trained_on),
    ];
    let onnx = encode(&mlp.to_graph().into_model(&metadata));
    let nnef = onnx_to_nnef(&onnx)?;
    let tract = crate::TractPredictor::from_nnef(&nnef)?;
    let reference = all
        .iter()
        .zip(all_rows)
        .map(|(step, row)| {
            Ok(Case {
                step: step.label.clone(),
                correction: mlp.predict(&row.features),
                tract: tract.evaluate(&row.features)?,
                features: row.features,
            })
        })
        .collect::<Result<_, LearnError>>()?;
    Ok(Trained {
        onnx,
        nnef,
        report,
        mlp,
        reference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::training_set;
    use crate::reference::TOLERANCE;
    use crate::TractPredictor;
    use hwfit_core::perf::learned::FEATURE_COUNT;
    use hwfit_core::{Catalog, DeviceCatalog};

    fn trained() -> Trained {
        let steps = training_set(Vec::new(), &Catalog::builtin(), &DeviceCatalog::bundled().unwrap()).unwrap();
        train(&steps, &PerfModel::builtin().unwrap(), &TrainConfig::default()).unwrap()
    }

    /// The ONNX graph, run by tract, computes what the Rust network computes.
    #[test]
    fn onnx_through_tract_matches_the_rust_reference() {
        let t = trained();
        let onnx = TractPredictor::from_bytes(&t.onnx).unwrap();
        let nnef = TractPredictor::from_bytes(&t.nnef).unwrap();
        assert_eq!(t.reference[0].features.len(), FEATURE_COUNT);
        for case in &t.reference {
            for tract in [&onnx, &nnef] {
                let a = tract.evaluate(&case.features).unwrap();
                assert!(
                    (a - f64::from(case.correction)).abs() <= TOLERANCE,
                    "tract {a} vs reference {}",
                    case.correction
                );
            }
        }
    }

    /// The committed default model is what `hwfit train` produces from the committed data.
    #[test]
    fn the_default_model_is_reproducible() {
        let t = trained();
        let default = TractPredictor::default_model().unwrap();
        assert_eq!(default.domain(), &t.report.domain);
        for case in &t.reference {
            let a = default.evaluate(&case.features).unwrap();
            assert!(
                (a - f64::from(case.correction)).abs() <= 1e-4,
                "default {a} vs retrained {}: regenerate with scripts/train-default",
                case.correction
            );
        }
        // The committed reference is the retrained network's answers on the same steps.
        let committed = crate::reference::cases().unwrap();
        assert!(!committed.is_empty());
        for case in &committed {
            let fresh = t
                .reference
                .iter()
                .find(|c| c.step == case.step && c.features == case.features);
            let fresh = fresh.unwrap_or_else(|| panic!("{} is not a training step any more", case.step));
            assert!((fresh.correction - case.correction).abs() <= 1e-4, "{}", case.step);
        }
    }

    /// The committed default model, run by tract, computes the committed reference: the Rust
    /// network's answer within 1e-5, tract's own f64 answer within 1e-12 from either form.
    #[test]
    fn the_default_model_computes_the_reference() {
        let (onnx, nnef) = (
            TractPredictor::from_onnx(crate::predictor::DEFAULT_MODEL).unwrap(),
            TractPredictor::from_nnef(crate::predictor::DEFAULT_MODEL_NNEF).unwrap(),
        );
        for case in crate::reference::cases().unwrap() {
            for tract in [&onnx, &nnef] {
                let a = tract.evaluate(&case.features).unwrap();
                assert!(
                    (a - f64::from(case.correction)).abs() <= TOLERANCE,
                    "{}: tract {a} vs reference {}",
                    case.step,
                    case.correction
                );
                assert!(
                    (a - case.tract).abs() <= crate::reference::TRACT_TOLERANCE,
                    "{}: tract {a} vs tract's committed f64 answer {}",
                    case.step,
                    case.tract
                );
            }
        }
    }

    /// The learned model is used only where it beat the analytic model on held-out devices.
    #[test]
    fn the_domain_is_where_cross_validation_says() {
        let t = trained();
        for c in &t.report.cells {
            let inside = t.report.domain.cells.contains(&(c.hardware_type, c.class));
            assert_eq!(inside, c.learned_used);
            if c.learned_used {
                assert!(c.learned.median_abs_log_error < c.analytic.median_abs_log_error);
            }
        }
        assert!(t.report.combined.median_abs_log_error <= t.report.analytic.median_abs_log_error);
    }

    #[test]
    fn too_few_devices_is_an_error() {
        let steps = training_set(Vec::new(), &Catalog::builtin(), &DeviceCatalog::bundled().unwrap()).unwrap();
        let one: Vec<_> = steps
            .iter()
            .filter(|s| s.device.id == steps[0].device.id)
            .cloned()
            .collect();
        let err = train(&one, &PerfModel::builtin().unwrap(), &TrainConfig::default()).unwrap_err();
        assert!(err.to_string().contains("at least 3 devices"), "{err}");
    }
}
