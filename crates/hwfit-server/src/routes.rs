//! Every route: its method, path, request and answer types (the OpenAPI document is built from this
//! list) and its handler. The core's questions are routed by one generic handler each, from the core's
//! one list of questions; the server's own routes (health, detection, the benchmark database, the
//! question list) are written out below.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Json;
use hwfit_core::api::{visit_questions, HttpMethod, Question, QuestionInfo, QuestionVisitor};
use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::body::{JsonBody, QueryArgs};
use crate::error::ApiError;
use crate::state::AppState;

type Shared = Arc<AppState>;
type Answer = Result<Response, ApiError>;

/// One documented route.
pub struct Route {
    /// `GET` or `POST`.
    pub method: HttpMethod,
    /// Path.
    pub path: &'static str,
    /// The OpenAPI operation id (a question's JS name).
    pub operation: String,
    /// One line.
    pub summary: &'static str,
    /// Request body (POST) or query (GET) schema.
    pub request: Option<fn(&mut SchemaGenerator) -> Schema>,
    /// Answer schema.
    pub answer: fn(&mut SchemaGenerator) -> Schema,
    /// The handler.
    pub handler: MethodRouter<Shared>,
}

fn schema<T: JsonSchema + ?Sized>(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<T>()
}

fn answer_schema<Q: Question>(g: &mut SchemaGenerator) -> Schema
where
    for<'h> Q::Answer<'h>: JsonSchema,
{
    g.subschema_for::<Q::Answer<'static>>()
}

#[allow(clippy::unnecessary_wraps)]
fn json<T: serde::Serialize>(value: &T) -> Answer {
    Ok(Json(value).into_response())
}

/// A question asked over HTTP: on this host's devices when it names no hardware (the core's rule).
/// The core's work and the answer's serialization run off the async workers, so `/health` and
/// shutdown stay responsive while a large question is answered, and at most
/// `max_concurrent_questions` are computed at once (the others wait their turn, within the timeout).
async fn ask<Q: Question>(s: Shared, question: Q) -> Answer {
    let local = s.local_for(question.needs_local()).await?;
    let turn = s.question_turn().await?;
    let body = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, ApiError> {
        let _turn = turn;
        let answer = s.hwfit.ask(&question, &local)?;
        serde_json::to_vec(&answer).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("answer not serializable: {e}"),
            )
        })
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("question task: {e}")))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

async fn ask_body<Q: Question>(State(s): State<Shared>, JsonBody(q): JsonBody<Q>) -> Answer {
    ask(s, q).await
}

async fn ask_query<Q: Question>(State(s): State<Shared>, QueryArgs(q): QueryArgs<Q>) -> Answer {
    ask(s, q).await
}

/// The route of each question of the core's list.
struct QuestionRoutes(Vec<Route>);

impl QuestionVisitor for QuestionRoutes {
    fn visit<Q: Question>(&mut self) {
        let info = QuestionInfo::of::<Q>();
        self.0.push(Route {
            method: Q::METHOD,
            path: Q::PATH,
            operation: info.js,
            summary: Q::SUMMARY,
            request: Some(schema::<Q>),
            answer: answer_schema::<Q>,
            handler: match Q::METHOD {
                HttpMethod::Get => get(ask_query::<Q>),
                HttpMethod::Post => post(ask_body::<Q>),
            },
        });
    }
}

/// Every route: the server's own, then the core's questions in the list's order.
#[must_use]
pub fn routes() -> Vec<Route> {
    let own = |method, path: &'static str, operation: &str, summary, request, answer, handler| Route {
        method,
        path,
        operation: operation.to_owned(),
        summary,
        request,
        answer,
        handler,
    };
    let mut all = vec![
        own(
            HttpMethod::Get,
            "/health",
            "health",
            "Health of the service and which components are available",
            None,
            schema::<crate::state::Health>,
            get(health),
        ),
        own(
            HttpMethod::Get,
            "/hardware/detect",
            "detect",
            "This server's hardware: IPFS Accelerate's map, torch_device and the detailed probes",
            None,
            schema::<hwfit_core::detect::DetectionReport>,
            get(detect),
        ),
        own(
            HttpMethod::Get,
            "/questions",
            "questions",
            "The questions this server answers: name in each face, route, and whether they run on this host's devices",
            None,
            schema::<Vec<QuestionInfo>>,
            get(questions),
        ),
        own(
            HttpMethod::Get,
            "/benchmarks",
            "benchmarks",
            "Measurements in the benchmark database (hwfit bench, hwfit db import), newest first; 503 without --database",
            Some(schema::<crate::benchmarks::BenchmarksQuery>),
            schema::<Vec<hwfit_db::BenchmarkRecord>>,
            get(benchmarks),
        ),
        own(
            HttpMethod::Get,
            "/benchmarks/stats",
            "benchmarkStats",
            "What the benchmark database holds: counts by hardware type, runtime and import",
            None,
            schema::<hwfit_db::Stats>,
            get(benchmark_stats),
        ),
    ];
    let mut questions = QuestionRoutes(Vec::new());
    visit_questions(&mut questions);
    all.append(&mut questions.0);
    all
}

async fn health(State(s): State<Shared>) -> Json<crate::state::Health> {
    Json(s.health())
}

async fn detect(State(s): State<Shared>) -> Answer {
    let detection = s.detection().await?;
    json(&detection.report)
}

async fn questions() -> Json<Vec<QuestionInfo>> {
    Json(hwfit_core::api::questions())
}

async fn benchmarks(State(s): State<Shared>, QueryArgs(q): QueryArgs<crate::benchmarks::BenchmarksQuery>) -> Answer {
    let filter = q.filter();
    json(&s.with_database(move |db| db.list(&filter)).await?)
}

async fn benchmark_stats(State(s): State<Shared>) -> Answer {
    json(&s.with_database(|db| db.stats()).await?)
}
