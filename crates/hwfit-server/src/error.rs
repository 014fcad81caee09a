//! Errors as IPFS Accelerate's API sends them: `{"status": "error", "message": …}` with a status
//! that says whose fault it is (400 malformed, 401 no key, 404 unknown model or device, 413 too
//! large, 422 a field's value; 500 only for hwfit's own faults).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use hwfit_core::error::ErrorKind;
use hwfit_core::CoreError;
use serde::Serialize;

/// An error answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// What went wrong, for people.
    pub message: String,
}

/// The error body.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ErrorBody {
    /// Always `error`.
    pub status: &'static str,
    /// What went wrong.
    pub message: String,
}

impl ApiError {
    /// An error with a status.
    #[must_use]
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }
}

impl From<CoreError> for ApiError {
    fn from(e: CoreError) -> Self {
        let status = match e.kind() {
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::OutOfRange | ErrorKind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Self::new(status, e.to_string())
    }
}

impl From<serde_json::Error> for ApiError {
    /// Syntax errors are 400 with the position; wrong fields, types and values are 422 naming them.
    fn from(e: serde_json::Error) -> Self {
        use serde_json::error::Category;
        match e.classify() {
            Category::Syntax | Category::Eof | Category::Io => {
                Self::new(StatusCode::BAD_REQUEST, format!("malformed JSON: {e}"))
            }
            Category::Data => Self::new(StatusCode::UNPROCESSABLE_ENTITY, format!("invalid request: {e}")),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(status = %self.status, message = %self.message, "request failed");
        }
        (
            self.status,
            Json(ErrorBody {
                status: "error",
                message: self.message,
            }),
        )
            .into_response()
    }
}
