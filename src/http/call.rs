//! The journalling extractor for `/api/v1` operations: the caller, and what the request says
//! about itself (`X-Purpose`, `X-Session-Id`, the assistant, path targets, query keys).

use super::AppState;
use crate::auth::Principal;
use crate::error::{Error, Result};
use crate::ids::{self, Kind};
use crate::journal::meta::{self, Purpose};
use crate::operation::{CallContext, Operation, Spec};
use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

pub const PURPOSE_HEADER: &str = "x-purpose";
pub const SESSION_HEADER: &str = "x-session-id";
pub const ASSISTANT_HEADER: &str = "x-assistant";

pub struct ApiCall {
    pub principal: Principal,
    context: CallContext,
}

impl ApiCall {
    /// Starts the journalled operation (see [`Operation`]).
    pub async fn begin(self, state: &AppState, spec: Spec) -> Result<Operation> {
        Operation::begin(
            &state.db,
            &self.principal.tenant,
            spec,
            self.context,
            state.clock.now(),
            state.config.session_rules,
        )
        .await
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>> {
    match headers.get(name) {
        None => Ok(None),
        Some(v) => v
            .to_str()
            .map(Some)
            .map_err(|_| Error::BadRequest(format!("the {name} header must be printable text"))),
    }
}

impl FromRequestParts<AppState> for ApiCall {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let principal = Principal::from_request_parts(parts, state).await?;
        let targets = match RawPathParams::from_request_parts(parts, state).await {
            Ok(params) => params
                .iter()
                .map(|(_, v)| crate::scrub::scrub(v).into_owned())
                .collect(),
            Err(_) => Vec::new(),
        };
        let headers = &parts.headers;
        let purpose = Purpose::parse(header(headers, PURPOSE_HEADER)?)
            .map_err(|e| Error::BadRequest(format!("X-Purpose: {e}")))?;
        let session = meta::session_arg(header(headers, SESSION_HEADER)?)
            .map_err(|e| Error::BadRequest(format!("X-Session-Id {e}")))?;
        let assistant = meta::assistant(
            header(headers, ASSISTANT_HEADER)?,
            headers
                .get(axum::http::header::USER_AGENT)
                .and_then(|v| v.to_str().ok()),
        );
        let query_keys: serde_json::Map<String, serde_json::Value> = parts
            .uri
            .query()
            .map(|q| {
                q.split('&')
                    .filter_map(|pair| pair.split('=').next())
                    .filter(|k| !k.is_empty())
                    .take(20)
                    .map(|k| (crate::scrub::scrub(k).into_owned(), "string".into()))
                    .collect()
            })
            .unwrap_or_default();
        let context = CallContext {
            purpose: purpose.map(|p| p.as_str().to_owned()),
            session: session.map(str::to_owned),
            assistant,
            targets,
            input_shape: (!query_keys.is_empty())
                .then(|| serde_json::json!({ "query": query_keys })),
            request_id: header(headers, "x-request-id")?.unwrap_or("-").to_owned(),
            method: parts.method.to_string(),
            path: crate::scrub::audit_path(parts.uri.path()),
        };
        Ok(ApiCall { principal, context })
    }
}

/// Finishes a journalled operation and answers: the handler's response (or problem), with
/// `X-Session-Id` when the call was recorded in a session. If recording or committing fails,
/// nothing of the operation remains and the answer is a 500.
pub async fn respond<T: IntoResponse>(op: Operation, result: Result<T>) -> Response {
    let mut response = match result {
        Ok(value) => value.into_response(),
        Err(error) => error.into_response(),
    };
    match op.finish(response.status().as_u16()).await {
        Ok(Some(session)) => {
            let id = ids::format(Kind::Session, session);
            response.headers_mut().insert(
                SESSION_HEADER,
                HeaderValue::from_str(&id).expect("ids are ASCII"),
            );
            response
        }
        Ok(None) => response,
        Err(error) => error.into_response(),
    }
}
