//! The questions hwfit answers, one request type and one answer type each, with every default
//! defined once ([`defaults`]). The faces — the CLI, the npm package, the HTTP server — gather
//! inputs (flags, JS objects, HTTP bodies; detection or probing for `local` devices), call one
//! method of [`Hwfit`] and render its answer, so all of them give the same answers.
//!
//! Requests use the field names of IPFS Accelerate's REST API (`model_name`, `batch_size`,
//! `sequence_length`, `available_hardware` …); unknown fields are refused by name, missing ones
//! take the defaults.
//!
//! ```
//! use hwfit_core::api::{Hwfit, SelectRequest};
//! use hwfit_core::HardwareType;
//!
//! let hwfit = Hwfit::builtin().unwrap();
//! let request = SelectRequest {
//!     hardware: hwfit_core::api::HardwareList::of(&[HardwareType::Cpu, HardwareType::Cuda]),
//!     ..SelectRequest::model("bert-base-uncased")
//! };
//! let answer = hwfit.select(&request, &[]).unwrap();
//! assert_eq!(answer.primary_recommendation.as_deref(), Some("cuda"));
//! ```

pub mod defaults;
mod describe;
mod inputs;
mod performance;
mod planning;
pub mod question;
mod targets;
mod template;

pub use describe::{
    ClassifyModelRequest, CompatibilityRequest, DevicesRequest, ModelDetail, ModelRequest, ModelsRequest,
    ResourcesAnswer, ResourcesRequest,
};
pub use performance::{
    AnalyzeRequest, BatchEntry, BatchModel, BatchSelectRequest, BatchSelection, MemoryOption, ModeAnalysis,
    ModelAnalysis, PerformanceSummary, PredictAnswer, PredictEntry, PredictRequest, SelectRequest,
};
pub use planning::{
    CompatibleRequest, DistributedPlanRequest, MapRequest, MatrixRequest, RecommendRequest, ResourcePoolRequest,
};
pub use question::{questions, visit_questions, HttpMethod, Question, QuestionInfo, QuestionVisitor, Targets};
pub use targets::{resolve_candidates, HardwareList};
pub use template::{StarterRuntime, TemplateDecision, TemplateRequest};

use crate::{Catalog, Classifier, CoreError, DeviceCatalog, PerfModel, SelectionConfig};

/// Everything hwfit knows, parsed once: the model and device catalogs, the classifier, the fitted
/// performance model and the selection config. Every question is a method.
#[derive(Debug, Clone)]
pub struct Hwfit {
    catalog: Catalog,
    devices: DeviceCatalog,
    classifier: Classifier,
    perf: PerfModel,
    selection: SelectionConfig,
}

impl Hwfit {
    /// The built-in knowledge with the default selection config.
    pub fn builtin() -> Result<Self, CoreError> {
        Self::with_devices(DeviceCatalog::try_builtin()?)
    }

    /// The built-in models, classifier and performance model over `devices`.
    fn with_devices(devices: DeviceCatalog) -> Result<Self, CoreError> {
        Ok(Self {
            catalog: Catalog::builtin(),
            devices,
            classifier: Classifier::try_builtin()?,
            perf: PerfModel::builtin()?,
            selection: SelectionConfig::default(),
        })
    }

    /// The built-in knowledge with the bundled device database (~2,000 GPUs and SoCs, 1,643 CPUs) added,
    /// read on first use.
    #[cfg(feature = "device-db")]
    pub fn bundled() -> Result<Self, CoreError> {
        Self::with_devices(DeviceCatalog::bundled()?)
    }

    /// The same knowledge with a device database added (the text of `device_db.csv`; curated
    /// devices stay authoritative). The npm package loads that text apart, on first use.
    pub fn with_device_database(mut self, text: &str) -> Result<Self, CoreError> {
        self.devices = self.devices.with_database(text)?;
        Ok(self)
    }

    /// The same knowledge with another selection config (IPFS Accelerate's config file).
    #[must_use]
    pub fn with_selection_config(mut self, config: SelectionConfig) -> Self {
        self.selection = config;
        self
    }

    /// The same knowledge with a learned correction on the performance model (used first inside
    /// its training domain, the analytic model elsewhere), or without one (`None`).
    #[must_use]
    pub fn with_learned(mut self, learned: Option<alloc::sync::Arc<dyn crate::perf::ResidualModel>>) -> Self {
        self.perf = self.perf.with_learned(learned);
        self
    }

    /// The same knowledge with another classifier (custom family definitions).
    #[must_use]
    pub fn with_classifier(mut self, classifier: Classifier) -> Self {
        self.classifier = classifier;
        self
    }

    /// The model catalog.
    #[must_use]
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The device catalog.
    #[must_use]
    pub fn devices_catalog(&self) -> &DeviceCatalog {
        &self.devices
    }

    /// The performance model.
    #[must_use]
    pub fn perf(&self) -> &PerfModel {
        &self.perf
    }

    /// Answers any question: on `local` (the devices the face found) where the question may run
    /// on local devices and the request names no hardware; see [`Question`] for the rule.
    pub fn ask<'h, Q: Question>(
        &'h self,
        question: &Q,
        local: &[crate::Candidate],
    ) -> Result<Q::Answer<'h>, CoreError> {
        question.ask(self, local)
    }

    /// The selection config in force.
    #[must_use]
    pub fn selection_config(&self) -> &SelectionConfig {
        &self.selection
    }
}
