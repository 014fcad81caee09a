//! The prediction matrix in the predictor guide's JSON shape:
//! `models → predictions → hardware → batch → precision → {throughput, latency_mean, memory_usage}`.

use crate::map::SortedMap;
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
// Read back in camelCase too: the npm package's charts module reads the matrix the questions wrote.
#[cfg_attr(feature = "camel-case", serde(rename_all_fields = "camelCase"))]
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
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelRow {
    /// Model name.
    pub name: String,
    /// Its family (the guide's `category`).
    pub category: Family,
    /// hardware → batch → precision → cell.
    pub predictions: SortedMap<String, SortedMap<String, SortedMap<Precision, Cell>>>,
}

/// The matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "camel-case", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictionMatrix {
    /// Mode.
    pub mode: Mode,
    /// Rows by model name.
    pub models: SortedMap<String, ModelRow>,
    /// Hardware keys.
    pub hardware_platforms: Vec<String>,
    /// Batch sizes.
    pub batch_sizes: Vec<u32>,
    /// Precisions.
    pub precision_options: Vec<Precision>,
    /// Where the predictions come from.
    pub prediction_source: String,
}

impl PredictionMatrix {
    /// This matrix with `other`'s rows added (the same targets and batch sizes, other models or
    /// precisions): its precisions join this one's.
    #[must_use]
    pub fn with_rows_of(mut self, other: Self) -> Self {
        for (name, row) in other.models {
            self.models.insert(name, row);
        }
        for p in other.precision_options {
            if !self.precision_options.contains(&p) {
                self.precision_options.push(p);
            }
        }
        self
    }
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
    // A length no cell could use is the request's error, not one per cell.
    crate::resources::check_range("sequence_length", seq_length, crate::resources::MAX_SEQ_LENGTH)?;
    let mut rows = SortedMap::new();
    for spec in models {
        let workload = match mode {
            Mode::Training => Workload::TrainStep,
            Mode::Inference if spec.is_generative() => Workload::Decode,
            Mode::Inference => Workload::Forward,
        };
        let mut predictions = SortedMap::new();
        for t in targets {
            let mut by_batch = SortedMap::new();
            for &batch in batch_sizes {
                let mut by_precision = SortedMap::new();
                for &precision in precisions {
                    let req = PerfRequest {
                        precision,
                        workload,
                        batch_size: batch,
                        seq_length: seq_length.min(spec.max_positions.max(1)),
                        runtime: t.runtime_for(None, workload, precision).0,
                        prompt_chunk: None,
                        mixed_precision: None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perf::ThroughputUnit;
    use crate::{Catalog, DeviceCatalog, HardwareType};

    fn specs(names: &[&str]) -> Vec<ModelSpec> {
        names
            .iter()
            .map(|n| Catalog::builtin().resolve(n).unwrap().spec)
            .collect()
    }

    fn cuda_and_mps() -> Vec<Candidate> {
        let hw = [HardwareType::Cuda, HardwareType::Mps];
        crate::candidates_from(&DeviceCatalog::builtin(), &hw, &[] as &[&str]).unwrap()
    }

    fn matrix(
        models: &[&str],
        batch_sizes: &[u32],
        precisions: &[Precision],
        mode: Mode,
        seq: u32,
    ) -> Result<PredictionMatrix, CoreError> {
        prediction_matrix(
            &specs(models),
            &cuda_and_mps(),
            batch_sizes,
            precisions,
            mode,
            seq,
            &PerfModel::builtin().unwrap(),
        )
    }

    fn unit(cell: &Cell) -> Option<ThroughputUnit> {
        match cell {
            Cell::Predicted { throughput_unit, .. } => Some(*throughput_unit),
            Cell::Refused { .. } => None,
        }
    }

    #[test]
    fn an_unsupported_precision_is_a_refused_cell_and_the_rest_are_predicted() {
        let m = matrix(
            &["gpt2", "bert-base-uncased"],
            &[1, 8],
            &[Precision::Fp16, Precision::Fp8],
            Mode::Inference,
            128,
        )
        .unwrap();
        assert_eq!(m.hardware_platforms, ["cuda", "mps"]);
        assert_eq!(m.batch_sizes, [1, 8]);
        let gpt2 = &m.models["openai-community/gpt2"];
        assert_eq!(gpt2.category, Family::TextGeneration);
        assert_eq!(m.models["google-bert/bert-base-uncased"].category, Family::Embedding);
        for (model, expected_unit) in [
            // A text generator is predicted decoding, an encoder running forward passes.
            ("openai-community/gpt2", ThroughputUnit::Tokens),
            ("google-bert/bert-base-uncased", ThroughputUnit::Items),
        ] {
            let row = &m.models[model].predictions;
            assert_eq!(row.keys().map(String::as_str).collect::<Vec<_>>(), ["cuda", "mps"]);
            for by_batch in row.values() {
                assert_eq!(by_batch.keys().map(String::as_str).collect::<Vec<_>>(), ["1", "8"]);
            }
            for batch in ["1", "8"] {
                // FP8 runs on CUDA (Ada/Hopper tensor cores); Apple GPUs have no FP8.
                assert_eq!(unit(&row["cuda"][batch][&Precision::Fp16]), Some(expected_unit));
                assert_eq!(unit(&row["cuda"][batch][&Precision::Fp8]), Some(expected_unit));
                assert_eq!(unit(&row["mps"][batch][&Precision::Fp16]), Some(expected_unit));
                assert_eq!(
                    row["mps"][batch][&Precision::Fp8],
                    Cell::Refused {
                        error: String::from(
                            "mps does not support precision fp8 \
                             (supported: fp32, fp16, bf16, int8, int4, mxfp4, \
                             MLX's formats (mlx_2bit … mlx_8bit), \
                             every GGUF type (q4_0 … q8_0, k-quants, i-quants, f16))"
                        )
                    }
                );
            }
        }
    }

    #[test]
    fn training_predicts_train_steps_and_refuses_quantized_weights() {
        let m = matrix(
            &["gpt2", "bert-base-uncased"],
            &[4],
            &[Precision::Bf16, Precision::Int8],
            Mode::Training,
            128,
        )
        .unwrap();
        assert_eq!(m.mode, Mode::Training);
        for row in m.models.values() {
            for hw in ["cuda", "mps"] {
                let cells = &row.predictions[hw]["4"];
                assert_eq!(unit(&cells[&Precision::Bf16]), Some(ThroughputUnit::Samples));
                assert_eq!(
                    cells[&Precision::Int8],
                    Cell::Refused {
                        error: String::from(
                            "training at int8 is not supported: quantized weights cannot be trained \
                             directly (use fp32, fp16 or bf16)"
                        )
                    }
                );
            }
        }
    }

    #[test]
    fn a_sequence_longer_than_the_model_is_cut_to_its_maximum_not_refused() {
        // GPT-2 has 1024 positions.
        let m = matrix(&["gpt2"], &[1], &[Precision::Fp16], Mode::Inference, 4096).unwrap();
        let row = &m.models["openai-community/gpt2"].predictions;
        assert_eq!(unit(&row["cuda"]["1"][&Precision::Fp16]), Some(ThroughputUnit::Tokens));
    }

    #[test]
    fn empty_lists_and_bad_batch_sizes_are_errors() {
        let p = [Precision::Fp16];
        let perf = PerfModel::builtin().unwrap();
        let models = specs(&["gpt2"]);
        let targets = cuda_and_mps();
        let empty = |what| CoreError::EmptyList { what };
        let run = |models: &[ModelSpec], targets: &[Candidate], batches: &[u32], precisions: &[Precision]| {
            prediction_matrix(models, targets, batches, precisions, Mode::Inference, 128, &perf).unwrap_err()
        };
        assert_eq!(run(&[], &targets, &[1], &p), empty("models"));
        assert_eq!(run(&models, &[], &[1], &p), empty("hardware"));
        assert_eq!(run(&models, &targets, &[], &p), empty("batch sizes"));
        assert_eq!(run(&models, &targets, &[1], &[]), empty("precisions"));
        assert!(matches!(
            run(&models, &targets, &[1, 0], &p),
            CoreError::InvalidNumber {
                field: "batch_size",
                ..
            }
        ));
        let no_tokens = prediction_matrix(&models, &targets, &[1], &p, Mode::Inference, 0, &perf).unwrap_err();
        assert!(
            matches!(
                no_tokens,
                CoreError::InvalidNumber {
                    field: "sequence_length",
                    ..
                }
            ),
            "{no_tokens:?}"
        );
    }
}
