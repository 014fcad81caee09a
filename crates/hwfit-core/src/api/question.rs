//! A question is a type: each request type implements [`Question`] once — its answer type, its one
//! name, its HTTP route, whether it may run on local devices, and how the core answers it. The one
//! list of questions ([`visit_questions`], [`questions`]) is what the faces iterate: the server's
//! routes and OpenAPI document, the npm package's TypeScript types, `hwfit questions` and the
//! contract test all come from it.
//!
//! One name per question, spelled the way each face spells names: `batch-select` is the CLI's
//! `hwfit batch-select`, JS's `batchSelect()` and Python's `batch_select()`.

use alloc::string::String;
use alloc::vec::Vec;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::targets::HardwareList;
use super::{
    AnalyzeRequest, BatchSelectRequest, BatchSelection, ClassifyModelRequest, CompatibilityRequest, CompatibleRequest,
    DevicesRequest, DistributedPlanRequest, Hwfit, MapRequest, MatrixRequest, ModelAnalysis, ModelDetail, ModelRequest,
    ModelsRequest, PredictAnswer, PredictRequest, RecommendRequest, ResourcePoolRequest, ResourcesAnswer,
    ResourcesRequest, SelectRequest, TemplateDecision, TemplateRequest,
};
use crate::browser::BrowserCapabilities;
use crate::catalog::CatalogSummary;
use crate::plan::distributed::DistributedConfig;
use crate::plan::map::SelectionMap;
use crate::plan::matrix::PredictionMatrix;
use crate::plan::pool::ResourcePoolConfig;
use crate::plan::recommend::{CompatibleModels, TaskRecommendations};
use crate::{Candidate, Classification, CompatibilityMatrix, CoreError, Device, DeviceSpec, Selection};

/// The JSON Schema bound of requests and answers (only with the `schema` feature).
#[cfg(feature = "schema")]
pub trait Schema: schemars::JsonSchema {}
#[cfg(feature = "schema")]
impl<T: schemars::JsonSchema + ?Sized> Schema for T {}
/// The JSON Schema bound of requests and answers (only with the `schema` feature).
#[cfg(not(feature = "schema"))]
pub trait Schema {}
#[cfg(not(feature = "schema"))]
impl<T: ?Sized> Schema for T {}

/// `GET` (the request is the query string) or `POST` (the request is the JSON body).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    /// The request is read from the query string.
    Get,
    /// The request is the JSON body.
    Post,
}

impl HttpMethod {
    /// `GET` or `POST`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
        }
    }
}

/// Which hardware a request names: a borrowed view of its `hardware`, `devices` and `device_spec`.
#[derive(Debug, Clone, Copy)]
pub struct Targets<'a> {
    /// Hardware types named.
    pub hardware: &'a HardwareList,
    /// Devices named.
    pub devices: &'a [String],
    /// A device described by its numbers.
    pub device_spec: Option<&'a DeviceSpec>,
    /// A browser described as the probe describes one.
    pub browser: Option<&'a BrowserCapabilities>,
}

impl Targets<'_> {
    /// Whether the request names any hardware, device, device spec or browser.
    #[must_use]
    pub fn names_any(&self) -> bool {
        !self.hardware.is_empty() || !self.devices.is_empty() || self.device_spec.is_some() || self.browser.is_some()
    }
}

/// Implements `named_targets()` for requests with `hardware`, `devices`, `device_spec` and
/// `browser`.
macro_rules! named_targets {
    ($($request:ty),*) => {$(
        impl $request {
            /// The hardware this request names.
            #[must_use]
            pub fn named_targets(&self) -> Targets<'_> {
                Targets {
                    hardware: &self.hardware,
                    devices: &self.devices,
                    device_spec: self.device_spec.as_ref(),
                    browser: self.browser.as_ref(),
                }
            }
        }
    )*};
}

named_targets!(
    SelectRequest,
    BatchSelectRequest,
    MapRequest,
    PredictRequest,
    MatrixRequest,
    AnalyzeRequest,
    RecommendRequest,
    ResourcePoolRequest,
    TemplateRequest
);

/// One question hwfit answers: a request type with its answer type, name, route and answer.
///
/// **The local-device rule**, the same in every face: a question whose [`targets`](Self::targets)
/// are `Some` but name nothing runs on the devices the face found on its machine — detected by the
/// CLI and the server, probed by the npm package — passed to [`ask`](Self::ask) as `local`. When the
/// face found none it can predict on (detection off or empty), `local` is empty and the answer
/// covers every hardware type with a reference device. Questions whose targets are `None` never
/// look at `local`.
pub trait Question: Serialize + DeserializeOwned + Default + Schema + Send + Sync + 'static {
    /// The answer, borrowing from the knowledge where it lists it.
    type Answer<'h>: Serialize + Schema;
    /// The one name, kebab-case (`batch-select`): the CLI subcommand; JS and Python spell it
    /// camelCase and snake_case.
    const NAME: &'static str;
    /// Older spellings that keep working, kebab-case.
    const ALIASES: &'static [&'static str] = &[];
    /// HTTP method.
    const METHOD: HttpMethod;
    /// HTTP path (IPFS Accelerate's routes).
    const PATH: &'static str;
    /// One line saying what the question answers.
    const SUMMARY: &'static str;
    /// Whether the question may run on local devices (then `targets()` is `Some`).
    const TARGETED: bool;

    /// The hardware the request names, for questions that may run on local devices; `None` for
    /// the others.
    fn targets(&self) -> Option<Targets<'_>>;

    /// The core's answer, on `local` where the request names no hardware.
    fn ask<'h>(&self, hwfit: &'h Hwfit, local: &[Candidate]) -> Result<Self::Answer<'h>, CoreError>;

    /// Whether the answer rests on the local devices: the question may run on them and the request
    /// names no hardware.
    fn needs_local(&self) -> bool {
        self.targets().is_some_and(|t| !t.names_any())
    }
}

/// Something done once per question of the list (route tables, schemas, type declarations).
pub trait QuestionVisitor {
    /// Called for each question, in the list's order.
    fn visit<Q: Question>(&mut self);
}

/// A question's facts, as `hwfit questions --json` and `GET /questions` list them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct QuestionInfo {
    /// The one name (kebab-case), the CLI subcommand.
    pub name: &'static str,
    /// The name in JS (camelCase): the npm package's export.
    pub js: String,
    /// The name in Python (snake_case): the client's method.
    pub python: String,
    /// Older spellings that still work (kebab-case).
    pub aliases: Vec<&'static str>,
    /// HTTP method.
    pub method: HttpMethod,
    /// HTTP path.
    pub path: &'static str,
    /// What it answers.
    pub summary: &'static str,
    /// Whether it runs on the local devices when the request names no hardware.
    pub targeted: bool,
}

impl QuestionInfo {
    /// The facts of `Q`.
    #[must_use]
    pub fn of<Q: Question>() -> Self {
        Self {
            name: Q::NAME,
            js: camel_case(Q::NAME),
            python: Q::NAME.replace('-', "_"),
            aliases: Q::ALIASES.to_vec(),
            method: Q::METHOD,
            path: Q::PATH,
            summary: Q::SUMMARY,
            targeted: Q::TARGETED,
        }
    }
}

/// `batch-select` → `batchSelect`.
#[must_use]
pub fn camel_case(kebab: &str) -> String {
    let mut out = String::with_capacity(kebab.len());
    let mut upper = false;
    for c in kebab.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Implements [`Question::targets`] for a request with `hardware`, `devices` and `device_spec`.
macro_rules! targeted {
    () => {
        const TARGETED: bool = true;
        fn targets(&self) -> Option<Targets<'_>> {
            Some(self.named_targets())
        }
    };
}

/// Implements [`Question::targets`] for a request that names its hardware itself.
macro_rules! untargeted {
    () => {
        const TARGETED: bool = false;
        fn targets(&self) -> Option<Targets<'_>> {
            None
        }
    };
}

/// The one list of questions, in the order of IPFS Accelerate's API guide: for each request type
/// its answer, its one name (and former names), its route, whether it may run on local devices,
/// what it answers, and how the core answers it. It implements [`Question`] for each and
/// [`visit_questions`] over all of them.
macro_rules! questions {
    ($(
        $request:ty => $answer:ty, $name:literal $(aka [$($alias:literal),+])?, $method:ident $path:literal,
        $targets:ident, $summary:literal, |$q:ident, $hwfit:ident, $local:ident| $body:expr;
    )*) => {
        $(
            impl Question for $request {
                type Answer<'h> = $answer;
                const NAME: &'static str = $name;
                const ALIASES: &'static [&'static str] = &[$($($alias),+)?];
                const METHOD: HttpMethod = HttpMethod::$method;
                const PATH: &'static str = $path;
                const SUMMARY: &'static str = $summary;
                $targets!();
                #[allow(clippy::needless_lifetimes, unused_variables)]
                fn ask<'h>(&self, $hwfit: &'h Hwfit, $local: &[Candidate]) -> Result<Self::Answer<'h>, CoreError> {
                    let $q = self;
                    $body
                }
            }
        )*

        /// Visits every question, in the list's order.
        pub fn visit_questions<V: QuestionVisitor>(visitor: &mut V) {
            $( visitor.visit::<$request>(); )*
        }
    };
}

questions! {
    SelectRequest => Selection, "select", Post "/hardware/select", targeted,
    "Select the hardware to run a model on, ranked by predicted performance",
    |request, hwfit, local| hwfit.select(request, local);
    BatchSelectRequest => BatchSelection, "batch-select" aka ["batch"], Post "/hardware/batch", targeted,
    "Select hardware for several models",
    |request, hwfit, local| hwfit.batch_select(request, local);
    MapRequest => SelectionMap, "map", Post "/hardware/map", targeted,
    "The hardware selection map: families × size categories × batch sizes × modes",
    |request, hwfit, local| hwfit.map(request, local);
    PredictRequest => PredictAnswer, "predict", Post "/performance/predict", targeted,
    "Predict throughput, latency and memory on hardware types or devices",
    |request, hwfit, local| hwfit.predict(request, local);
    MatrixRequest => PredictionMatrix, "matrix", Post "/performance/matrix", targeted,
    "Predictions for models × hardware × batch sizes × precisions",
    |request, hwfit, local| hwfit.matrix(request, local);
    DistributedPlanRequest => DistributedConfig, "distributed", Post "/training/distributed", untargeted,
    "Plan distributed training: strategy, batches, memory, torchrun and DeepSpeed configs",
    |request, hwfit, _local| hwfit.distributed(request);
    AnalyzeRequest => ModelAnalysis, "analyze", Post "/analysis/model", targeted,
    "A model's predictions and recommendations across hardware, batch sizes and modes",
    |request, hwfit, local| hwfit.analyze(request, local);
    ClassifyModelRequest => Classification, "classify", Post "/models/classify", untargeted,
    "Classify a model into a family and subfamily, with the analyses behind it",
    |request, hwfit, _local| hwfit.classify(request);
    ModelsRequest => Vec<CatalogSummary<'h>>, "models", Get "/models", untargeted,
    "The model catalog (optionally one family's part)",
    |request, hwfit, _local| Ok(hwfit.models(request));
    ModelRequest => ModelDetail, "model", Post "/models/detail", untargeted,
    "One model's architecture and derived figures",
    |request, hwfit, _local| hwfit.model(request);
    RecommendRequest => TaskRecommendations, "recommend", Post "/models/recommend", targeted,
    "Catalog models for a pipeline task under hardware constraints",
    |request, hwfit, local| hwfit.recommend(request, local);
    CompatibleRequest => CompatibleModels, "compatible-models" aka ["compatible"], Post "/models/compatible", untargeted,
    "Which of the given models run on one hardware type or device",
    |request, hwfit, _local| hwfit.compatible_models(request);
    ResourcesRequest => ResourcesAnswer, "resources", Post "/resources", untargeted,
    "Memory, CPU cores and disk a model needs on a hardware type",
    |request, hwfit, _local| hwfit.resources(request);
    ResourcePoolRequest => ResourcePoolConfig, "resource-pool" aka ["resource-config"], Post "/resources/pool", targeted,
    "A resource-pool configuration for several models",
    |request, hwfit, local| hwfit.resource_pool(request, local);
    CompatibilityRequest => CompatibilityMatrix, "compatibility" aka ["compat"], Get "/compat", untargeted,
    "Which hardware types run which model families and precisions",
    |request, hwfit, _local| Ok(hwfit.compatibility());
    DevicesRequest => Vec<&'h Device>, "devices", Get "/devices", untargeted,
    "The device catalog with sourced specs (optionally one hardware type's part, or a search)",
    |request, hwfit, _local| Ok(hwfit.devices(request));
    TemplateRequest => TemplateDecision, "template", Post "/templates", targeted,
    "The starter-file decision for a model on its recommended hardware",
    |request, hwfit, local| hwfit.template(request, local);
}

/// Every question's facts, in the list's order.
#[must_use]
pub fn questions() -> Vec<QuestionInfo> {
    struct Collect(Vec<QuestionInfo>);
    impl QuestionVisitor for Collect {
        fn visit<Q: Question>(&mut self) {
            self.0.push(QuestionInfo::of::<Q>());
        }
    }
    let mut all = Collect(Vec::new());
    visit_questions(&mut all);
    all.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;

    #[test]
    fn names_routes_and_js_names_are_unique() {
        let all = questions();
        assert_eq!(all.len(), 17);
        let mut names = BTreeSet::new();
        let mut routes = BTreeSet::new();
        for q in &all {
            assert!(names.insert(q.name), "{} twice", q.name);
            for alias in &q.aliases {
                assert!(names.insert(alias), "{alias} twice");
            }
            assert!(
                routes.insert((q.method, q.path)),
                "{} {} twice",
                q.method.as_str(),
                q.path
            );
            assert!(
                q.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                q.name
            );
        }
        let batch = all.iter().find(|q| q.name == "batch-select").unwrap();
        assert_eq!(
            (batch.js.as_str(), batch.python.as_str()),
            ("batchSelect", "batch_select")
        );
        assert_eq!(batch.aliases, ["batch"]);
    }

    #[test]
    fn targeted_questions_see_their_targets() {
        struct Check;
        impl QuestionVisitor for Check {
            fn visit<Q: Question>(&mut self) {
                let empty = Q::default();
                assert_eq!(empty.targets().is_some(), Q::TARGETED, "{}", Q::NAME);
                assert_eq!(
                    empty.needs_local(),
                    Q::TARGETED,
                    "{}: a request naming nothing",
                    Q::NAME
                );
            }
        }
        visit_questions(&mut Check);
        let named = SelectRequest {
            devices: alloc::vec![String::from("rtx 4090")],
            ..Default::default()
        };
        assert!(!named.needs_local());
    }

    /// Every question that may run on local devices takes a browser, described in words or as the
    /// probe's object; the others refuse the field.
    #[test]
    fn targeted_questions_take_a_browser() {
        struct Check;
        impl QuestionVisitor for Check {
            fn visit<Q: Question>(&mut self) {
                for body in [
                    r#"{"browser": "firefox, webgpu=integrated"}"#,
                    r#"{"browser": {"wasm": true, "crossOriginIsolated": true}}"#,
                ] {
                    let request = serde_json::from_str::<Q>(body);
                    assert_eq!(request.is_ok(), Q::TARGETED, "{}: {body}", Q::NAME);
                    if let Ok(request) = request {
                        assert!(!request.needs_local(), "{}: a browser is named hardware", Q::NAME);
                    }
                }
            }
        }
        visit_questions(&mut Check);
    }

    /// A browser described to the core is answered as the npm package answers in that browser
    /// (its probe's candidates as the local devices).
    #[test]
    fn a_described_browser_is_answered_as_the_probed_one() {
        let hwfit = Hwfit::builtin().unwrap();
        let caps = BrowserCapabilities::describe("chrome, gpu=ANGLE (Apple, ANGLE Metal Renderer: Apple M2 Pro, Unspecified Version), isolated, cores=12, webnn=cpu").unwrap();
        let probed = crate::browser::browser_candidates(&caps, hwfit.devices_catalog());
        for batch_size in [1, 32] {
            let described = PredictRequest {
                browser: Some(caps.clone()),
                batch_size,
                ..PredictRequest::model("sentence-transformers/all-MiniLM-L6-v2")
            };
            let in_browser = PredictRequest {
                batch_size,
                ..PredictRequest::model("sentence-transformers/all-MiniLM-L6-v2")
            };
            let answer = described.ask(&hwfit, &[]).unwrap();
            assert_eq!(answer, in_browser.ask(&hwfit, &probed).unwrap());
            let keys: Vec<&str> = answer.predictions.keys().map(String::as_str).collect();
            assert_eq!(keys, ["wasm", "webgpu", "webnn-cpu"]);
            let select = SelectRequest {
                browser: Some(caps.clone()),
                batch_size,
                ..SelectRequest::model("sentence-transformers/all-MiniLM-L6-v2")
            };
            let local = SelectRequest {
                batch_size,
                ..SelectRequest::model("sentence-transformers/all-MiniLM-L6-v2")
            };
            assert_eq!(select.ask(&hwfit, &[]).unwrap(), local.ask(&hwfit, &probed).unwrap());
        }
    }
}
