//! Request bodies and query strings parsed into the core's request types, with IPFS Accelerate's
//! error shapes instead of axum's plain-text rejections.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body (an empty body is `{}`: every field takes its default).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "request body is larger than the server's limit",
                )
            } else {
                ApiError::new(e.status(), e.body_text())
            }
        })?;
        let text: &[u8] = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            None => b"{}",
            // serde would read an array as a struct's fields in order; a request is an object.
            Some(b'[') => {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid request: the body must be a JSON object",
                ))
            }
            Some(_) => &bytes,
        };
        let mut de = serde_json::Deserializer::from_slice(text);
        let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let mut err = ApiError::from(e.into_inner());
            if path != "." && err.status == StatusCode::UNPROCESSABLE_ENTITY {
                err.message = format!(
                    "invalid request: {path}: {}",
                    err.message.trim_start_matches("invalid request: ")
                );
            }
            err
        })?;
        de.end()?;
        Ok(Self(value))
    }
}

/// A query string (percent-decoded, `+` as a space; `true`/`false` for flags).
pub struct QueryArgs<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryArgs<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        serde_urlencoded::from_str(query)
            .map(Self)
            .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, format!("invalid query: {e}")))
    }
}
