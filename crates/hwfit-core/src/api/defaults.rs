//! Every default of every question, defined once. The faces (CLI flags, JS objects, HTTP bodies)
//! leave a field out and get these.

use crate::{HardwareType, Mode, Precision};

/// Items per step.
pub const BATCH_SIZE: u32 = 1;
/// Tokens per sequence (the KV context for decode).
pub const SEQUENCE_LENGTH: u32 = 128;
/// Weight precision of predictions, selection and resource estimates, for a model whose checkpoint
/// states no format of its own (see [`precision`]).
pub const PRECISION: Precision = Precision::Fp32;
/// Inference or training.
pub const MODE: Mode = Mode::Inference;
/// Hardware type of a resource estimate.
pub const RESOURCES_HARDWARE: HardwareType = HardwareType::Cpu;
/// Batch sizes of the prediction matrix and the model analysis (the predictor guide's 1, 8, 32).
pub const BATCH_SIZES: &[u32] = &[1, 8, 32];
/// Models of the prediction matrix (the predictor guide's example set).
pub const MATRIX_MODELS: &[&str] = &["bert-base-uncased", "t5-small", "gpt2", "vit-base-patch16-224"];
/// Batch sizes of the selection map (the selection guide's).
pub const MAP_BATCH_SIZES: &[u32] = &[1, 4, 16, 32, 64];
/// Tokens per sequence of a distributed-training plan.
pub const DISTRIBUTED_SEQUENCE_LENGTH: u32 = 512;
/// Weight precision of a resource-pool plan and of model recommendations.
pub const POOL_PRECISION: Precision = Precision::Fp16;

/// The longest model or device name read, bytes: every real name is far shorter, and resolving a
/// name costs time in proportion to its length.
pub const MAX_NAME_BYTES: usize = 256;
/// The most cells (models × targets × batch sizes × precisions) one prediction matrix answers.
pub const MAX_MATRIX_CELLS: usize = 10_000;

/// The sequence length a question about `spec` uses: the one asked for (checked later against the
/// model), else `default` capped at the positions of a model that reads text — CLIP's 77 under the
/// default 128 — with a note saying so.
#[must_use]
pub fn sequence_length(
    requested: Option<u32>,
    default: u32,
    spec: &crate::ModelSpec,
) -> (u32, Option<alloc::string::String>) {
    if let Some(asked) = requested {
        return (asked, None);
    }
    if spec.reads_text() && spec.max_positions > 0 && default > spec.max_positions {
        let note = alloc::format!(
            "sequence_length: {}, the most {} takes, instead of the default {default}",
            spec.max_positions,
            spec.name
        );
        return (spec.max_positions, Some(note));
    }
    (default, None)
}

/// The precision a question about `model` is answered at: the one asked for, else the format its
/// checkpoint is published in (an FP8, AWQ or MXFP4 checkpoint's `quantization_config`, a
/// `-Q4_K_M` in its name), else `default` — with a note whenever the request did not decide it and
/// the checkpoint had a say.
#[must_use]
pub fn precision(
    requested: Option<Precision>,
    model: &crate::ResolvedModel,
    default: Precision,
) -> (Precision, Option<alloc::string::String>) {
    match (requested, &model.checkpoint) {
        (Some(asked), _) => (asked, None),
        (None, Some(crate::CheckpointFormat { precision: Some(p), stated_by })) => (
            *p,
            Some(alloc::format!(
                "precision: {p}, the checkpoint's format ({stated_by}); state a precision for another"
            )),
        ),
        (None, Some(crate::CheckpointFormat { precision: None, stated_by })) => (
            default,
            Some(alloc::format!(
                "precision: {default}, the default: the checkpoint's format ({stated_by}) is not one hwfit models; state the precision nearest to it"
            )),
        ),
        (None, None) => (default, None),
    }
}

/// `error`, when it refuses a precision the request did not state, as the checkpoint's format
/// refused: the caller learns where the precision came from and what to state instead.
#[must_use]
pub fn checkpoint_refused(
    error: crate::CoreError,
    requested: Option<Precision>,
    model: &crate::ResolvedModel,
) -> crate::CoreError {
    match (error, requested, &model.checkpoint) {
        (
            crate::CoreError::UnsupportedPrecision {
                hardware,
                precision,
                supported,
            },
            None,
            Some(crate::CheckpointFormat { stated_by, .. }),
        ) => crate::CoreError::UnsupportedCheckpointFormat {
            hardware,
            precision,
            stated_by: stated_by.clone(),
            supported,
        },
        (error, ..) => error,
    }
}

/// A name a request gives, refused when longer than [`MAX_NAME_BYTES`].
pub(crate) fn check_name_length(what: &'static str, name: &str) -> Result<(), crate::CoreError> {
    let max = MAX_NAME_BYTES;
    if name.len() > max {
        return Err(crate::CoreError::TooLarge {
            what,
            size: name.len(),
            max,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    #[test]
    fn a_checkpoints_format_is_the_default_precision_an_asked_one_wins() {
        let catalog = Catalog::builtin();
        let gpt_oss = catalog.resolve("openai/gpt-oss-20b").unwrap();
        let (p, note) = precision(None, &gpt_oss, PRECISION);
        assert_eq!(p, Precision::Mxfp4);
        assert!(note.unwrap().contains("quant_method 'mxfp4'"));
        assert_eq!(
            precision(Some(Precision::Bf16), &gpt_oss, PRECISION),
            (Precision::Bf16, None)
        );
        let bert = catalog.resolve("bert-base-uncased").unwrap();
        assert_eq!(precision(None, &bert, PRECISION), (PRECISION, None));
        // Another organisation's upload is its own files: the base's FP8 does not carry over.
        let gguf = catalog.resolve("unsloth/DeepSeek-V3-GGUF").unwrap();
        assert_eq!(precision(None, &gguf, PRECISION), (PRECISION, None));
        let fp8 = catalog.resolve("Qwen/Qwen3-8B-FP8").unwrap();
        assert_eq!(precision(None, &fp8, PRECISION).0, Precision::Fp8);
        // Qwen3.6 is read from NVIDIA's NVFP4 upload's config: the base model is not NVFP4, the
        // upload by its name is.
        let base = catalog.resolve("Qwen/Qwen3.6-27B").unwrap();
        assert_eq!(base.checkpoint, None);
        let nvfp4 = catalog.resolve("nvidia/Qwen3.6-27B-NVFP4").unwrap();
        assert_eq!(precision(None, &nvfp4, PRECISION).0, Precision::Nvfp4);
        // Kimi K2.5 states its 4-bit experts under text_config.
        let kimi = catalog.resolve("moonshotai/Kimi-K2.5").unwrap();
        assert_eq!(precision(None, &kimi, PRECISION).0, Precision::Awq);
    }

    #[test]
    fn a_refused_checkpoint_format_says_where_it_came_from() {
        use alloc::string::ToString;
        let hwfit = crate::Hwfit::builtin().unwrap();
        let ask = |precision| {
            hwfit.predict(
                &crate::api::PredictRequest {
                    hardware: crate::api::targets::HardwareList::of(&[crate::HardwareType::Wasm]),
                    precision,
                    ..crate::api::PredictRequest::model("openai/gpt-oss-20b")
                },
                &[],
            )
        };
        let err = ask(None).unwrap_err().to_string();
        assert!(
            err.starts_with("wasm does not support precision mxfp4, the checkpoint's format (quantization_config: quant_method 'mxfp4'); state a precision it supports ("),
            "{err}"
        );
        let stated = ask(Some(Precision::Mxfp4)).unwrap_err().to_string();
        assert!(
            stated.starts_with("wasm does not support precision mxfp4 (supported: "),
            "{stated}"
        );
        assert!(ask(Some(Precision::Q4KM)).is_ok());
    }

    #[test]
    fn the_default_sequence_length_fits_the_model_an_asked_one_is_kept() {
        let clip = Catalog::builtin().resolve("openai/clip-vit-base-patch32").unwrap().spec;
        let (seq, note) = sequence_length(None, SEQUENCE_LENGTH, &clip);
        assert_eq!(seq, 77);
        assert!(note.unwrap().contains("instead of the default 128"));
        assert_eq!(sequence_length(Some(128), SEQUENCE_LENGTH, &clip), (128, None));
        let gpt2 = Catalog::builtin().resolve("gpt2").unwrap().spec;
        assert_eq!(sequence_length(None, SEQUENCE_LENGTH, &gpt2), (SEQUENCE_LENGTH, None));
        let resnet = Catalog::builtin().resolve("microsoft/resnet-50").unwrap().spec;
        assert_eq!(sequence_length(None, SEQUENCE_LENGTH, &resnet), (SEQUENCE_LENGTH, None));
    }
}
