//! The core's typed errors. Every message names the field or value at fault.

use alloc::string::String;

/// Everything the core can refuse.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CoreError {
    /// A named value (hardware type, precision, mode, family …) that hwfit does not know.
    #[error("unknown {what} '{value}' (expected one of: {expected})")]
    UnknownValue {
        /// What kind of value was expected, e.g. "precision".
        what: &'static str,
        /// The value given.
        value: String,
        /// The accepted values, comma-separated.
        expected: String,
    },
    /// A model name that is neither in the catalog nor estimable from its name.
    #[error("unknown model '{name}': not in the catalog and its name states no parameter count (its config.json would describe it){}", suggestion_suffix(.suggestions))]
    UnknownModel {
        /// The name given.
        name: String,
        /// Closest catalog names, comma-separated (may be empty).
        suggestions: String,
    },
    /// A device name that matches nothing in the device catalog.
    #[error("unknown device '{name}' (closest: {suggestions})")]
    UnknownDevice {
        /// The name given.
        name: String,
        /// Closest device names, comma-separated.
        suggestions: String,
    },
    /// A device name that matches several devices equally well.
    #[error("ambiguous device '{name}': it matches {candidates}; say which")]
    AmbiguousDevice {
        /// The name given.
        name: String,
        /// The equally good matches, comma-separated.
        candidates: String,
    },
    /// A workload the model cannot perform (prefill or decode on a model that generates no text).
    #[error("workload {workload} needs a model that generates text; {model} does not (use forward)")]
    WorkloadMismatch {
        /// The workload asked for.
        workload: &'static str,
        /// The model.
        model: String,
    },
    /// A hardware type with no reference device in the catalog.
    #[error("no reference device for {hardware} in the device catalog; name a concrete device in devices")]
    NoReferenceDevice {
        /// The hardware type.
        hardware: &'static str,
    },
    /// Nothing the planner can choose fits the memory.
    #[error("{what} does not fit: the leanest configuration needs {needed_gb} GB per GPU")]
    DoesNotFit {
        /// What was planned.
        what: String,
        /// Memory per GPU the leanest configuration needs, GB.
        needed_gb: f64,
    },
    /// The performance model has no coefficients to predict with.
    #[error("the performance model has no fitted coefficients (run `hwfit fit --write`)")]
    MissingCoefficients,
    /// A list argument that is empty.
    #[error("the list of {what} is empty")]
    EmptyList {
        /// Which list.
        what: &'static str,
    },
    /// A selection with no candidates.
    #[error("no hardware to choose from: the candidate list is empty")]
    NoCandidates,
    /// A selection configuration that is not valid.
    #[error("selection config: {0}")]
    InvalidSelectionConfig(String),
    /// A numeric argument outside its valid range.
    #[error("invalid {}: {value} ({reason})", field_name(.field))]
    InvalidNumber {
        /// The field name, e.g. "batch_size".
        field: &'static str,
        /// The value given, as text.
        value: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// A sequence longer than the model accepts.
    #[error(
        "invalid {}: {seq_length} is longer than {model}'s maximum of {max_positions} positions",
        field_name("sequence_length")
    )]
    SequenceTooLong {
        /// The sequence length asked for.
        seq_length: u32,
        /// The model's maximum.
        max_positions: u32,
        /// The model.
        model: String,
    },
    /// A Hugging Face config that lacks a field hwfit needs.
    #[error("model config: {0}")]
    InvalidConfig(String),
    /// A custom family definition file that does not describe families.
    #[error("family definitions: {0}")]
    InvalidFamilyDefinitions(String),
    /// A precision that the hardware type cannot run.
    #[error("{hardware} does not support precision {precision} (supported: {supported})")]
    UnsupportedPrecision {
        /// The hardware type.
        hardware: &'static str,
        /// The precision asked for.
        precision: &'static str,
        /// The precisions it does support, comma-separated.
        supported: String,
    },
    /// A precision the hardware type cannot run that the request left to the checkpoint: its
    /// published format.
    #[error(
        "{hardware} does not support precision {precision}, the checkpoint's format ({stated_by}); state a precision it supports ({supported})"
    )]
    UnsupportedCheckpointFormat {
        /// The hardware type.
        hardware: &'static str,
        /// The checkpoint's format.
        precision: &'static str,
        /// What states the format.
        stated_by: String,
        /// The precisions the hardware supports, comma-separated.
        supported: String,
    },
    /// A request that lacks a field it needs.
    #[error("{} is required", field_name(.field))]
    MissingField {
        /// The field (or fields) missing.
        field: &'static str,
    },
    /// A measurement file (fitting data) that cannot be read.
    #[error("measured data: {0}")]
    InvalidMeasurements(String),
    /// A request asks for more work than one answer may take (a name, a list or a matrix over its
    /// cap); the caps are in [`crate::api::defaults`].
    #[error("{what} is too large: {size} (at most {max})")]
    TooLarge {
        /// What (`model name`, `matrix cells` …).
        what: &'static str,
        /// How large it is.
        size: usize,
        /// The cap.
        max: usize,
    },
    /// A data file built into hwfit does not parse (a bug: tests parse every one).
    #[error("built-in data {file} is broken: {message}")]
    BrokenBuiltinData {
        /// The file, relative to the repository.
        file: &'static str,
        /// What the parser said.
        message: String,
    },
    /// A request that cannot be answered as asked.
    #[error("{0}")]
    InvalidRequest(String),
    /// A model family stated in a request that contradicts the model's.
    #[error("{} '{given}' contradicts {model}'s family {actual}", field_name("model_family"))]
    FamilyMismatch {
        /// The family the request states.
        given: &'static str,
        /// The model.
        model: String,
        /// Its family.
        actual: &'static str,
    },
    /// Training asked for at a precision that cannot hold trainable weights.
    #[error("training at {precision} is not supported: quantized weights cannot be trained directly (use fp32, fp16 or bf16)")]
    UntrainablePrecision {
        /// The precision asked for.
        precision: &'static str,
    },
    /// A training step asked of a runtime that only runs inference.
    #[error("{runtime} does not train: a training step runs on {trains}")]
    RuntimeDoesNotTrain {
        /// The runtime asked for.
        runtime: &'static str,
        /// The runtimes that train.
        trains: String,
    },
}

/// How a refusal should reach a user: HTTP status classes, JS error types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A model or device that hwfit does not know (HTTP 404).
    NotFound,
    /// A value outside its range or set (HTTP 422; JS `RangeError`).
    OutOfRange,
    /// A request that cannot be answered as asked (HTTP 422; JS `Error`).
    Invalid,
    /// hwfit's own data is broken (HTTP 500).
    Internal,
}

impl CoreError {
    /// The kind of refusal.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::UnknownModel { .. } | Self::UnknownDevice { .. } => ErrorKind::NotFound,
            Self::InvalidNumber { .. }
            | Self::SequenceTooLong { .. }
            | Self::UnknownValue { .. }
            | Self::TooLarge { .. } => ErrorKind::OutOfRange,
            Self::MissingCoefficients | Self::BrokenBuiltinData { .. } => ErrorKind::Internal,
            _ => ErrorKind::Invalid,
        }
    }
}

/// A request field's name as the caller wrote it: IPFS Accelerate's snake_case, or camelCase in the
/// npm package's build (feature `camel-case`). Several fields (`a or b`) are renamed word by word.
pub(crate) fn field_name(field: &str) -> alloc::borrow::Cow<'_, str> {
    if cfg!(feature = "camel-case") && field.contains('_') {
        let mut out = String::with_capacity(field.len());
        let mut upper = false;
        for c in field.chars() {
            match c {
                '_' => upper = true,
                c if upper => {
                    out.push(c.to_ascii_uppercase());
                    upper = false;
                }
                c => out.push(c),
            }
        }
        alloc::borrow::Cow::Owned(out)
    } else {
        alloc::borrow::Cow::Borrowed(field)
    }
}

fn suggestion_suffix(suggestions: &str) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        alloc::format!("; did you mean: {suggestions}?")
    }
}
