//! Every route: its method, path, request and answer types (the OpenAPI document is built from this
//! table) and its handler. Handlers only parse, call one question of the core and answer.

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Json;
use hwfit_core::api::{
    AnalyzeRequest, BatchSelectRequest, ClassifyModelRequest, CompatibleRequest, DevicesRequest,
    DistributedPlanRequest, MapRequest, MatrixRequest, ModelRequest, ModelsRequest, PredictRequest, RecommendRequest,
    ResourcePoolRequest, ResourcesRequest, SelectRequest, Targeted, TemplateRequest,
};
use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::body::{JsonBody, QueryArgs};
use crate::error::ApiError;
use crate::state::AppState;

type Shared = Arc<AppState>;
type Answer = Result<Response, ApiError>;

/// One documented route.
pub struct Route {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// Path.
    pub path: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Request body (POST) or query (GET) schema.
    pub request: Option<fn(&mut SchemaGenerator) -> Schema>,
    /// Answer schema.
    pub answer: fn(&mut SchemaGenerator) -> Schema,
    /// The handler.
    pub handler: fn() -> MethodRouter<Shared>,
}

fn schema<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<T>()
}

#[allow(clippy::unnecessary_wraps)]
fn json<T: serde::Serialize>(value: &T) -> Answer {
    Ok(Json(value).into_response())
}

/// The route table, in the order of the API guide.
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/health",
        summary: "Health of the service and which components are available",
        request: None,
        answer: schema::<crate::state::Health>,
        handler: || get(health),
    },
    Route {
        method: "GET",
        path: "/hardware/detect",
        summary: "This server's hardware: IPFS Accelerate's map, torch_device and the detailed probes",
        request: None,
        answer: schema::<hwfit_core::detect::DetectionReport>,
        handler: || get(detect),
    },
    Route {
        method: "POST",
        path: "/hardware/select",
        summary: "Select the hardware to run a model on, ranked by predicted performance",
        request: Some(schema::<SelectRequest>),
        answer: schema::<hwfit_core::Selection>,
        handler: || post(select),
    },
    Route {
        method: "POST",
        path: "/hardware/batch",
        summary: "Select hardware for several models",
        request: Some(schema::<BatchSelectRequest>),
        answer: schema::<std::collections::BTreeMap<String, hwfit_core::api::BatchEntry>>,
        handler: || post(batch),
    },
    Route {
        method: "POST",
        path: "/hardware/map",
        summary: "The hardware selection map: families × size categories × batch sizes × modes",
        request: Some(schema::<MapRequest>),
        answer: schema::<hwfit_core::plan::map::SelectionMap>,
        handler: || post(map),
    },
    Route {
        method: "POST",
        path: "/performance/predict",
        summary: "Predict throughput, latency and memory on hardware types or devices",
        request: Some(schema::<PredictRequest>),
        answer: schema::<hwfit_core::api::PredictAnswer>,
        handler: || post(predict),
    },
    Route {
        method: "POST",
        path: "/performance/matrix",
        summary: "Predictions for models × hardware × batch sizes × precisions",
        request: Some(schema::<MatrixRequest>),
        answer: schema::<hwfit_core::plan::matrix::PredictionMatrix>,
        handler: || post(matrix),
    },
    Route {
        method: "POST",
        path: "/training/distributed",
        summary: "Plan distributed training: strategy, batches, memory, torchrun and DeepSpeed configs",
        request: Some(schema::<DistributedPlanRequest>),
        answer: schema::<hwfit_core::plan::distributed::DistributedConfig>,
        handler: || post(distributed),
    },
    Route {
        method: "POST",
        path: "/analysis/model",
        summary: "A model's predictions and recommendations across hardware, batch sizes and modes",
        request: Some(schema::<AnalyzeRequest>),
        answer: schema::<hwfit_core::api::ModelAnalysis>,
        handler: || post(analyze),
    },
    Route {
        method: "POST",
        path: "/models/classify",
        summary: "Classify a model into a family and subfamily",
        request: Some(schema::<ClassifyModelRequest>),
        answer: schema::<hwfit_core::Classification>,
        handler: || post(classify),
    },
    Route {
        method: "GET",
        path: "/models",
        summary: "The model catalog (optionally ?family=…)",
        request: Some(schema::<ModelsRequest>),
        answer: schema::<Vec<hwfit_core::catalog::CatalogSummary<'static>>>,
        handler: || get(models),
    },
    Route {
        method: "POST",
        path: "/models/detail",
        summary: "One model's architecture and derived figures",
        request: Some(schema::<ModelRequest>),
        answer: schema::<hwfit_core::api::ModelDetail>,
        handler: || post(model),
    },
    Route {
        method: "POST",
        path: "/models/recommend",
        summary: "Catalog models for a pipeline task under hardware constraints",
        request: Some(schema::<RecommendRequest>),
        answer: schema::<hwfit_core::plan::recommend::TaskRecommendations>,
        handler: || post(recommend),
    },
    Route {
        method: "POST",
        path: "/models/compatible",
        summary: "Which models run on a hardware type or device",
        request: Some(schema::<CompatibleRequest>),
        answer: schema::<hwfit_core::plan::recommend::CompatibleModels>,
        handler: || post(compatible),
    },
    Route {
        method: "POST",
        path: "/resources",
        summary: "Memory, CPU cores and disk a model needs on a hardware type",
        request: Some(schema::<ResourcesRequest>),
        answer: schema::<hwfit_core::api::ResourcesAnswer>,
        handler: || post(resources),
    },
    Route {
        method: "POST",
        path: "/resources/pool",
        summary: "A resource-pool configuration for several models",
        request: Some(schema::<ResourcePoolRequest>),
        answer: schema::<hwfit_core::plan::pool::ResourcePoolConfig>,
        handler: || post(pool),
    },
    Route {
        method: "GET",
        path: "/compat",
        summary: "Which hardware types run which families and precisions",
        request: None,
        answer: schema::<hwfit_core::CompatibilityMatrix>,
        handler: || get(compat),
    },
    Route {
        method: "GET",
        path: "/benchmarks",
        summary: "Measurements in the benchmark database (hwfit bench, hwfit db import), newest first; 503 without --database",
        request: Some(schema::<crate::benchmarks::BenchmarksQuery>),
        answer: schema::<Vec<hwfit_db::BenchmarkRecord>>,
        handler: || get(benchmarks),
    },
    Route {
        method: "GET",
        path: "/benchmarks/stats",
        summary: "What the benchmark database holds: counts by hardware type, runtime and import",
        request: None,
        answer: schema::<hwfit_db::Stats>,
        handler: || get(benchmark_stats),
    },
    Route {
        method: "GET",
        path: "/devices",
        summary: "The device catalog with sourced specs (optionally ?hardware=…)",
        request: Some(schema::<DevicesRequest>),
        answer: schema::<Vec<hwfit_core::Device>>,
        handler: || get(devices),
    },
    Route {
        method: "POST",
        path: "/templates",
        summary: "The starter-file decision for a model on its recommended hardware",
        request: Some(schema::<TemplateRequest>),
        answer: schema::<hwfit_core::api::TemplateDecision>,
        handler: || post(template),
    },
];

async fn health(State(s): State<Shared>) -> Json<crate::state::Health> {
    Json(s.health())
}

async fn detect(State(s): State<Shared>) -> Answer {
    let detection = s.detection().await?;
    json(&detection.report)
}

async fn select(State(s): State<Shared>, JsonBody(r): JsonBody<SelectRequest>) -> Answer {
    let local = s.local_for(r.needs_local()).await?;
    json(&s.hwfit.select(&r, &local)?)
}

async fn batch(State(s): State<Shared>, JsonBody(r): JsonBody<BatchSelectRequest>) -> Answer {
    let local = s.local_for(r.needs_local()).await?;
    json(&s.hwfit.batch_select(&r, &local)?)
}

async fn map(State(s): State<Shared>, JsonBody(r): JsonBody<MapRequest>) -> Answer {
    json(&s.hwfit.map(&r, &[])?)
}

async fn predict(State(s): State<Shared>, JsonBody(r): JsonBody<PredictRequest>) -> Answer {
    let local = s.local_for(r.needs_local()).await?;
    json(&s.hwfit.predict(&r, &local)?)
}

async fn matrix(State(s): State<Shared>, JsonBody(r): JsonBody<MatrixRequest>) -> Answer {
    json(&s.hwfit.matrix(&r, &[])?)
}

async fn distributed(State(s): State<Shared>, JsonBody(r): JsonBody<DistributedPlanRequest>) -> Answer {
    json(&s.hwfit.distributed(&r)?)
}

async fn analyze(State(s): State<Shared>, JsonBody(r): JsonBody<AnalyzeRequest>) -> Answer {
    let local = s.local_for(r.needs_local()).await?;
    json(&s.hwfit.analyze(&r, &local)?)
}

async fn classify(State(s): State<Shared>, JsonBody(r): JsonBody<ClassifyModelRequest>) -> Answer {
    json(&s.hwfit.classify(&r)?)
}

async fn models(State(s): State<Shared>, QueryArgs(r): QueryArgs<ModelsRequest>) -> Answer {
    json(&s.hwfit.models(&r))
}

async fn model(State(s): State<Shared>, JsonBody(r): JsonBody<ModelRequest>) -> Answer {
    json(&s.hwfit.model(&r)?)
}

async fn recommend(State(s): State<Shared>, JsonBody(r): JsonBody<RecommendRequest>) -> Answer {
    json(&s.hwfit.recommend(&r, &[])?)
}

async fn compatible(State(s): State<Shared>, JsonBody(r): JsonBody<CompatibleRequest>) -> Answer {
    json(&s.hwfit.compatible(&r)?)
}

async fn resources(State(s): State<Shared>, JsonBody(r): JsonBody<ResourcesRequest>) -> Answer {
    json(&s.hwfit.resources(&r)?)
}

async fn pool(State(s): State<Shared>, JsonBody(r): JsonBody<ResourcePoolRequest>) -> Answer {
    json(&s.hwfit.resource_pool(&r, &[])?)
}

async fn compat(State(s): State<Shared>) -> Answer {
    json(&s.hwfit.compat())
}

async fn benchmarks(State(s): State<Shared>, QueryArgs(q): QueryArgs<crate::benchmarks::BenchmarksQuery>) -> Answer {
    let filter = q.filter();
    json(&s.with_database(move |db| db.list(&filter)).await?)
}

async fn benchmark_stats(State(s): State<Shared>) -> Answer {
    json(&s.with_database(|db| db.stats()).await?)
}

async fn devices(State(s): State<Shared>, QueryArgs(r): QueryArgs<DevicesRequest>) -> Answer {
    json(&s.hwfit.devices(&r))
}

async fn template(State(s): State<Shared>, JsonBody(r): JsonBody<TemplateRequest>) -> Answer {
    json(&s.hwfit.template(&r)?)
}
