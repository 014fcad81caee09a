//! # hwfit-core
//!
//! The pure, `no_std` + `alloc` heart of hwfit. It holds every decision; the faces (CLI, wasm,
//! server) probe, read files and present.
//!
//! - **Models**: the model [`catalog`], Hugging Face `config.json` ingestion ([`hf_config`]) and
//!   name-based estimates ([`name_estimate`]), all as a [`ModelSpec`]; the [`classifier`] puts them
//!   into families.
//! - **Hardware**: hardware types and their family and precision support ([`compat`]), the
//!   [`device`] catalog of concrete devices with sourced peak figures, device profiles built from
//!   microbenchmark results ([`measure`]), and what a machine or browser offers ([`available`],
//!   [`browser`]).
//! - **Estimates**: the resources (memory) a model needs on a hardware type at a precision
//!   ([`resources`]), and the analytic performance model ([`perf`]): a roofline with efficiencies
//!   fitted to public measurements, predicting throughput, latency and memory.
//! - **Decisions**: hardware selection ranked by predictions ([`select`]), and the planning outputs
//!   ([`plan`]): the prediction matrix, the hardware selection map, distributed-training and
//!   resource-pool configurations, and task → model recommendations.
//!
//! It does no I/O, reads no clock and holds no global state.
//!
//! ```
//! use hwfit_core::{Catalog, Classifier, ClassifierInput};
//!
//! let catalog = Catalog::builtin();
//! let bert = catalog.resolve("bert-base-uncased").unwrap();
//! assert_eq!(bert.spec.parameters() / 1_000_000, 108); // 110 M published, norms and biases aside
//!
//! let classifier = Classifier::builtin();
//! let result = classifier.classify(&ClassifierInput::named("gpt2"));
//! assert_eq!(result.family.as_deref(), Some("text_generation"));
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[macro_use]
mod macros;

pub mod api;
pub mod available;
pub mod browser;
pub mod catalog;
pub mod checkpoint;
pub mod classifier;
pub mod compat;
mod csv;
pub mod detect;
pub mod device;
pub mod error;
pub mod family;
pub mod hardware;
pub mod hf_config;
pub mod map;
pub mod measure;
pub mod mode;
pub mod name_estimate;
pub mod perf;
pub mod plan;
pub mod precision;
pub mod resources;
pub mod select;
pub mod spec;
mod text;

pub use api::Hwfit;
pub use available::AvailableHardware;
pub use catalog::{Catalog, ResolvedModel, SpecSource};
pub use checkpoint::CheckpointFormat;
pub use classifier::{Analysis, Classification, Classifier, ClassifierInput, FamilyDefinition};
pub use compat::{compatibility, CompatibilityEntry, CompatibilityMatrix, SupportLevel};
pub use device::{Device, DeviceCatalog, DeviceProfile, DeviceSpec, ResolvedFrom};
pub use error::CoreError;
pub use family::{Family, Subfamily};
pub use hardware::HardwareType;
pub use hf_config::{parse_config_text, HfConfig};
pub use map::SortedMap;
pub use measure::{
    calibrated_catalog_device, calibrated_device, measured_device, MeasuredIdentity, Measurement, SpecShares,
};
pub use mode::{Mode, Workload};
pub use perf::{PerfModel, PerfRequest, Prediction, PredictionSource, Runtime, ThroughputUnit};
pub use precision::Precision;
pub use resources::{estimate_resources, MemoryBreakdown, ResourceInput, ResourceRequirements};
pub use select::{candidates_from, select_hardware, Candidate, Selection, SelectionConfig, SelectionInput, TaskType};
pub use spec::{
    Component, ConvNet, LatentAttention, MixerKind, Modality, ModelSpec, PromptChunks, SlidingWindow, StateMixer,
    TransformerStack,
};
