//! JSON body and query extractors whose rejections are our own problem+json answers.

use crate::error::Error;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `axum::Json`, with rejections as problems: 400 for malformed JSON, 422 for JSON of the
/// wrong shape (a body that is not an object, or unknown fields where the type denies them),
/// 413 over the body limit, 415 without `Content-Type: application/json`.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let value = json_value(req, state).await?;
        object(value)
            .map(ApiJson)
            .map_err(IntoResponse::into_response)
    }
}

async fn json_value<S: Send + Sync>(
    req: Request,
    state: &S,
) -> Result<serde_json::Value, Response> {
    match axum::Json::<serde_json::Value>::from_request(req, state).await {
        Ok(axum::Json(value)) => Ok(value),
        Err(rejection) => Err(json_problem(rejection).into_response()),
    }
}

/// Every request body is a JSON object: serde would otherwise read a struct from an array
/// (`[null, null]`), which no client means.
fn object<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, Error> {
    if !value.is_object() {
        return Err(Error::Unprocessable(
            "the body must be a JSON object (see the operation's schema in /openapi.json)".into(),
        ));
    }
    serde_json::from_value(value)
        .map_err(|e| Error::Unprocessable(format!("the body does not fit the schema: {e}")))
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

fn json_problem(rejection: JsonRejection) -> JsonError {
    let status = rejection.status();
    let detail = rejection.body_text();
    JsonError(match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            Error::PayloadTooLarge("the request body is larger than this server accepts".into())
        }
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Error::UnsupportedMediaType(
            "send the body as JSON with `Content-Type: application/json`".into(),
        ),
        StatusCode::UNPROCESSABLE_ENTITY => Error::Unprocessable(detail),
        _ => Error::BadRequest(detail),
    })
}

struct JsonError(Error);

impl IntoResponse for JsonError {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

/// `axum::extract::Query`, with a 400 problem naming the bad parameter.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| ApiQuery(q.0))
            .map_err(|e: QueryRejection| Error::BadRequest(e.body_text()))
    }
}

/// A JSON body that may be absent: an empty body or JSON `null` is `None`; anything else must
/// be valid JSON of the right shape (same problems as [`ApiJson`]).
pub struct OptionalJson<T>(pub Option<T>);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let has_body = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .is_none_or(|len| len.as_bytes() != b"0");
        if !has_body
            || req
                .headers()
                .get(axum::http::header::CONTENT_TYPE)
                .is_none()
        {
            // No body (or no declared type): treat as absent only if it is really empty.
            let bytes = axum::body::Bytes::from_request(req, state)
                .await
                .map_err(|e| e.into_response())?;
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(OptionalJson(None));
            }
            return Err(Error::UnsupportedMediaType(
                "send the body as JSON with `Content-Type: application/json`".into(),
            )
            .into_response());
        }
        match json_value(req, state).await? {
            serde_json::Value::Null => Ok(OptionalJson(None)),
            value => object(value)
                .map(|v| OptionalJson(Some(v)))
                .map_err(IntoResponse::into_response),
        }
    }
}
