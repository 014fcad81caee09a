//! The prediction matrix in the predictor guide's JSON shape:
//! `models → predictions → hardware → batch → precision → {throughput, latency_mean, memory_usage}`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::perf::{PerfModel, PerfRequest};
use crate::select::Candidate;
use crate::spec::ModelSpec;
use crate::{CoreError, Family, Mode, Precision, Workload};

/// One cell: a prediction, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Cell {
    /// The prediction.
    Predicted {
        /// Items or tokens per second.
        throughput: f64,
        /// Its unit.
        throughput_unit: crate::perf::ThroughputUnit,
        /// Time per step, ms.
        latency_mean: f64,
        /// Memory, MB.
        memory_usage: f64,
        /// Whether it fits the device.
        fits_in_memory: bool,
        /// Coefficient provenance.
        source: crate::perf::PredictionSource,
    },
    /// No prediction.
    Refused {
        /// Why.
        error: String,
    },
}

/// One model's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelRow {
    /// Model name.
    pub name: String,
    /// Its family (the guide's `category`).
    pub category: Family,
    /// hardware → batch → precision → cell.
    pub predictions: BTreeMap<String, BTreeMap<String, BTreeMap<Precision, Cell>>>,
}

/// The matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictionMatrix {
    /// Mode.
    pub mode: Mode,
    /// Rows by model name.
    pub models: BTreeMap<String, ModelRow>,
    /// Hardware keys.
    pub hardware_platforms: Vec<String>,
    /// Batch sizes.
    pub batch_sizes: Vec<u32>,
    /// Precisions.
    pub precision_options: Vec<Precision>,
    /// Where the predictions come from.
    pub prediction_source: String,
}

/// Builds the matrix. Inference predicts decode for text generators and forward otherwise, at
/// `seq_length`; training predicts a train step.
pub fn prediction_matrix(
    models: &[ModelSpec],
    targets: &[Candidate],
    batch_sizes: &[u32],
    precisions: &[Precision],
    mode: Mode,
    seq_length: u32,
    perf: &PerfModel,
) -> Result<PredictionMatrix, CoreError> {
    if models.is_empty() || targets.is_empty() || batch_sizes.is_empty() || precisions.is_empty() {
        return Err(CoreError::EmptyList {
            what: if models.is_empty() {
                "models"
            } else if targets.is_empty() {
                "hardware"
            } else if batch_sizes.is_empty() {
                "batch sizes"
            } else {
                "precisions"
            },
        });
    }
    for &batch in batch_sizes {
        crate::resources::check_range("batch_size", batch, crate::resources::MAX_BATCH_SIZE)?;
    }
    let mut rows = BTreeMap::new();
    for spec in models {
        let workload = match mode {
            Mode::Training => Workload::TrainStep,
            Mode::Inference if spec.is_generative() => Workload::Decode,
            Mode::Inference => Workload::Forward,
        };
        let mut predictions = BTreeMap::new();
        for t in targets {
            let mut by_batch = BTreeMap::new();
            for &batch in batch_sizes {
                let mut by_precision = BTreeMap::new();
                for &precision in precisions {
                    let req = PerfRequest {
                        precision,
                        workload,
                        batch_size: batch,
                        seq_length: seq_length.min(spec.max_positions.max(1)),
                    };
                    let cell = match perf.predict(spec, &t.device, &req) {
                        Ok(p) => Cell::Predicted {
                            throughput: p.throughput,
                            throughput_unit: p.throughput_unit,
                            latency_mean: p.latency,
                            memory_usage: p.memory_usage,
                            fits_in_memory: p.fits_in_memory,
                            source: p.source,
                        },
                        Err(e) => Cell::Refused { error: format!("{e}") },
                    };
                    by_precision.insert(precision, cell);
                }
                by_batch.insert(format!("{batch}"), by_precision);
            }
            predictions.insert(t.key.clone(), by_batch);
        }
        rows.insert(
            spec.name.clone(),
            ModelRow {
                name: spec.name.clone(),
                category: spec.family,
                predictions,
            },
        );
    }
    Ok(PredictionMatrix {
        mode,
        models: rows,
        hardware_platforms: targets.iter().map(|t| t.key.clone()).collect(),
        batch_sizes: batch_sizes.to_vec(),
        precision_options: precisions.to_vec(),
        prediction_source: String::from("analytic_model"),
    })
}
