//! What every request shares: the core's knowledge (read-only) and this host's detection, made
//! once, lazily and off the request path. Nothing mutable is shared, so any number of instances can
//! run behind a load balancer.

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use hwfit_core::{Candidate, Hwfit};
use hwfit_native::{BenchmarkScope, DetectOptions, Detection};
use serde::Serialize;
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// Where the server learns its host's hardware (for `/hardware/detect` and questions naming none).
#[derive(Debug, Clone)]
pub enum HostHardware {
    /// Detect it, once, on first use.
    Detect,
    /// Use this detection report (`hwfit detect --json`; `hwfit serve --detection FILE`).
    Report(Box<hwfit_core::detect::DetectionReport>),
    /// None: questions naming no hardware answer for every hardware type (`--no-detect`).
    Off,
}

/// The shared state.
pub struct AppState {
    /// The core's knowledge.
    pub hwfit: Hwfit,
    /// Where this host's hardware comes from.
    pub host: HostHardware,
    /// The benchmark database named at start (`/benchmarks`, `/benchmarks/stats`, `/health`).
    database: Option<Mutex<Box<dyn hwfit_db::Store + Send>>>,
    detection: OnceCell<Result<Arc<Detection>, String>>,
    /// Turns to compute a question (`ServerOptions::max_concurrent_questions`).
    questions: Arc<tokio::sync::Semaphore>,
}

/// `/health`'s answer (IPFS Accelerate's shape).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Health {
    /// `healthy`.
    pub status: &'static str,
    /// hwfit's version.
    pub version: &'static str,
    /// Which parts answer.
    pub available_components: Components,
    /// Whether a benchmark database is connected (`hwfit serve --database`).
    pub database_connected: bool,
}

/// The components `/health` reports (IPFS Accelerate's flags).
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Components {
    /// Hardware selection.
    pub hardware_selection: bool,
    /// Performance prediction (the fitted analytic model).
    pub hardware_prediction: bool,
    /// Hardware detection on this host.
    pub hardware_detection: bool,
    /// A benchmark database.
    pub database: bool,
}

impl AppState {
    /// The state; detection runs on first use when `host` says to detect.
    #[must_use]
    pub fn new(hwfit: Hwfit, host: HostHardware, database: Option<Box<dyn hwfit_db::Store + Send>>) -> Self {
        Self {
            hwfit,
            host,
            database: database.map(Mutex::new),
            detection: OnceCell::new(),
            questions: Arc::new(tokio::sync::Semaphore::new(crate::default_concurrent_questions())),
        }
    }

    /// Computes at most `n` questions at once (at least one).
    pub fn limit_questions(&mut self, n: usize) {
        self.questions = Arc::new(tokio::sync::Semaphore::new(n.max(1)));
    }

    /// A turn to compute a question: waits while the limit is reached. The turn is held until the
    /// computation ends, even when the request timed out meanwhile, so abandoned work still counts.
    pub async fn question_turn(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        Arc::clone(&self.questions)
            .acquire_owned()
            .await
            .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is shutting down"))
    }

    /// Runs `read` on the benchmark database off the async workers (SQLite and PostgreSQL calls
    /// block); 503 when the server has none.
    pub async fn with_database<T: Send + 'static>(
        self: &Arc<Self>,
        read: impl FnOnce(&mut dyn hwfit_db::Store) -> Result<T, hwfit_db::DbError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = Arc::clone(self);
        let outcome = tokio::task::spawn_blocking(move || {
            state.database.as_ref().map(|db| {
                let mut store = db.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                read(store.as_mut())
            })
        })
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("database task: {e}")))?;
        outcome
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "no benchmark database: start the server with --database PATH|postgres://… (or BENCHMARK_DB_PATH)",
                )
            })?
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("benchmark database: {e}")))
    }

    /// `/health`.
    #[must_use]
    pub fn health(&self) -> Health {
        Health {
            status: "healthy",
            version: env!("CARGO_PKG_VERSION"),
            available_components: Components {
                hardware_selection: true,
                hardware_prediction: true,
                hardware_detection: !matches!(self.host, HostHardware::Off),
                database: self.database.is_some(),
            },
            database_connected: self.database.is_some(),
        }
    }

    /// This host's detection (cached by hwfit-native; probed once per process).
    pub async fn detection(&self) -> Result<Arc<Detection>, ApiError> {
        let given = match &self.host {
            HostHardware::Off => {
                return Err(ApiError::new(
                    StatusCode::NOT_FOUND,
                    "hardware detection is off on this server (started with --no-detect)",
                ))
            }
            HostHardware::Report(report) => Some(report.clone()),
            HostHardware::Detect => None,
        };
        self.detection
            .get_or_init(|| async {
                if let Some(report) = given {
                    return Ok(Arc::new(Detection {
                        report: *report,
                        origin: hwfit_native::Origin::Given,
                        warnings: Vec::new(),
                    }));
                }
                tokio::task::spawn_blocking(|| {
                    Arc::new(hwfit_native::detect(&DetectOptions {
                        benchmark: BenchmarkScope::Unknown,
                        ..DetectOptions::default()
                    }))
                })
                .await
                .map_err(|e| format!("detection failed: {e}"))
            })
            .await
            .clone()
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))
    }

    /// The candidates for a question that names no hardware: this host's devices (none when
    /// detection is off or finds none, so the core answers for every hardware type).
    pub async fn local_for(&self, needed: bool) -> Result<Vec<Candidate>, ApiError> {
        if !needed || matches!(self.host, HostHardware::Off) {
            return Ok(Vec::new());
        }
        let detection = self.detection().await?;
        Ok(hwfit_native::candidates(&detection.report, self.hwfit.devices_catalog(), false).candidates)
    }
}
