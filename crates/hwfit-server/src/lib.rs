//! hwfit's REST API: IPFS Accelerate's hardware-selection API (its paths and JSON field names) on
//! axum, answered by hwfit's core. Every handler parses a request, calls one question of
//! [`hwfit_core::Hwfit`] and answers; errors are `{"status": "error", "message": …}` with 400, 401,
//! 404, 413 or 422 for bad input. Optional bearer-key auth, CORS, a body limit, a request timeout,
//! structured logs and graceful shutdown on SIGINT/SIGTERM.

pub mod benchmarks;
mod body;
mod closing_reply;
pub mod connections;
pub mod error;
pub mod openapi;
pub mod protocol_errors;
pub mod routes;
pub mod state;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use hwfit_core::Hwfit;
use subtle::ConstantTimeEq;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use connections::{serve_with_limits, ConnectionLimits};
pub use error::ApiError;
pub use state::{AppState, HostHardware};

/// How to serve.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Bearer key every route but `/health` needs, when set.
    pub api_key: Option<String>,
    /// Origins allowed cross-origin (`*`: any); none: CORS off.
    pub cors_origins: Vec<String>,
    /// Largest body, bytes.
    pub max_body_bytes: usize,
    /// Longest a request may take.
    pub request_timeout: Duration,
    /// Connections open at once (in total, per client) and the header timeout.
    pub connections: ConnectionLimits,
    /// Questions computed at once; the others wait (within the request timeout) for a turn.
    pub max_concurrent_questions: usize,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            api_key: None,
            cors_origins: Vec::new(),
            max_body_bytes: 1024 * 1024,
            request_timeout: Duration::from_secs(30),
            connections: ConnectionLimits::default(),
            max_concurrent_questions: default_concurrent_questions(),
        }
    }
}

/// One question computed at a time per CPU core: more would only share the same cores and slow
/// `/health` and every other request down.
#[must_use]
pub fn default_concurrent_questions() -> usize {
    std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
}

/// Errors starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// A CORS origin is not a valid header value.
    #[error("invalid --cors-origin '{0}'")]
    CorsOrigin(String),
    /// Serving failed.
    #[error("server error: {0}")]
    Serve(std::io::Error),
}

struct Auth {
    key: Option<String>,
}

/// The router with every route and layer.
pub fn router(mut state: AppState, options: &ServerOptions) -> Result<Router, ServeError> {
    state.limit_questions(options.max_concurrent_questions);
    let state = Arc::new(state);
    let mut api = Router::new();
    for route in routes::routes() {
        api = api.route(route.path, route.handler);
    }
    let openapi = Arc::new(openapi::document());
    api = api.route(
        "/openapi.json",
        get(move || std::future::ready(Json((*openapi).clone()))),
    );
    let auth = Arc::new(Auth {
        key: options.api_key.clone(),
    });
    let mut app = api
        .with_state(state)
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such route (see GET /openapi.json)") })
        .layer(middleware::from_fn_with_state(auth, require_key))
        .layer(middleware::from_fn_with_state(
            options.max_body_bytes,
            refuse_declared_oversize,
        ))
        .layer(middleware::map_response(json_errors))
        .layer(DefaultBodyLimit::max(options.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            options.request_timeout,
        ))
        .layer(TraceLayer::new_for_http());
    if !options.cors_origins.is_empty() {
        let origins = if options.cors_origins.iter().any(|o| o == "*") {
            AllowOrigin::any()
        } else {
            let list = options
                .cors_origins
                .iter()
                .map(|o| HeaderValue::from_str(o).map_err(|_| ServeError::CorsOrigin(o.clone())))
                .collect::<Result<Vec<_>, _>>()?;
            AllowOrigin::list(list)
        };
        app = app.layer(
            CorsLayer::new()
                .allow_origin(origins)
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION]),
        );
    }
    Ok(app)
}

/// 401 unless the request carries the key (compared in constant time); `/health` stays open.
async fn require_key(State(auth): State<Arc<Auth>>, req: Request, next: Next) -> Response {
    let Some(key) = &auth.key else {
        return next.run(req).await;
    };
    if req.uri().path() == "/health" || req.method() == Method::OPTIONS {
        return next.run(req).await;
    }
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if bool::from(given.as_bytes().ct_eq(key.as_bytes())) {
        next.run(req).await
    } else {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing or wrong API key (Authorization: Bearer …)",
        )
        .into_response()
    }
}

/// 413 at once for a body whose declared `Content-Length` is over the limit, before any of it is
/// read (a client that declares a large body and then sends nothing would otherwise hold the
/// connection until the request timeout).
async fn refuse_declared_oversize(State(limit): State<usize>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(length) if length > limit as u64 => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body of {length} bytes is larger than the server's limit of {limit} bytes"),
        )
        .into_response(),
        _ => next.run(req).await,
    }
}

/// Errors the framework answers itself (405, 408, 413 from layers) get the JSON error shape too.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let message = match status {
            StatusCode::METHOD_NOT_ALLOWED => "method not allowed on this route".to_owned(),
            StatusCode::REQUEST_TIMEOUT => "the request took longer than the server's timeout".to_owned(),
            StatusCode::PAYLOAD_TOO_LARGE => "request body is larger than the server's limit".to_owned(),
            other => other.canonical_reason().unwrap_or("error").to_owned(),
        };
        return ApiError::new(status, message).into_response();
    }
    response
}

/// Binds `addr` and serves until SIGINT/SIGTERM, letting in-flight requests finish. `on_bound`
/// receives the bound address (port 0 picks a free one).
pub async fn serve(
    addr: &str,
    hwfit: Hwfit,
    host: HostHardware,
    database: Option<Box<dyn hwfit_db::Store + Send>>,
    options: &ServerOptions,
    on_bound: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: addr.to_owned(),
            source,
        })?;
    let bound = listener.local_addr().map_err(ServeError::Serve)?;
    if !bound.ip().is_loopback() && options.api_key.is_none() {
        tracing::warn!(%bound, "listening on a non-loopback address without --api-key: anyone who can reach it can use it");
    }
    let state = AppState::new(hwfit, host, database);
    let app = router(state, options)?;
    on_bound(bound);
    serve_with_limits(listener, app, options.connections, shutdown_signal()).await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}
