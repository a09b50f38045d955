//! The REST adapter: the journalling extractor for `/api/v1` operations (the caller, and what
//! the request says about itself: `X-Purpose`, `X-Session-Id`, the assistant, query keys), and
//! [`Reply`], which turns a finished operation into the answer.

use crate::auth::Principal;
use crate::error::{Error, Result};
use crate::ids::SessionId;
use crate::journal::meta;
use crate::ops::Services;
use crate::ops::{self, CallContext, ContextError, Finished, Op, RawContext, Via};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub const PURPOSE_HEADER: &str = "x-purpose";
pub const SESSION_HEADER: &str = "x-session-id";
pub const ASSISTANT_HEADER: &str = "x-assistant";

pub struct ApiCall {
    pub principal: Principal,
    context: CallContext,
}

impl ApiCall {
    /// Adds the shape of the JSON body (keys and types, never values) to what the journal keeps.
    /// The body is the parsed one, where a key never sent reads as `null`: nulls are left out,
    /// so the shape lists what the caller sent (a key sent as `null` is recorded as not sent).
    pub fn body<B: Serialize>(mut self, body: &B) -> Self {
        let mut sent = serde_json::to_value(body).unwrap_or_default();
        drop_nulls(&mut sent);
        let shape = meta::shape(&sent);
        self.context.input_shape = Some(match self.context.input_shape.take() {
            Some(serde_json::Value::Object(mut query)) => {
                query.insert("body".into(), shape);
                serde_json::Value::Object(query)
            }
            _ => serde_json::json!({ "body": shape }),
        });
        self
    }

    /// Runs the operation for this caller (see [`ops::run`]).
    pub async fn run<I: Op>(self, state: &Services, input: I) -> Finished<I::Output> {
        ops::run(state, &self.principal.tenant, self.context, input).await
    }

    /// Runs the operation and answers with it: what a REST handler does once it has the input.
    pub async fn reply<I: Op>(self, state: &Services, input: I) -> Reply<I::Output> {
        Reply(self.run(state, input).await)
    }

    /// [`ApiCall::reply`] for an input sent as a JSON body: the journal keeps its shape.
    pub async fn reply_body<I: Op + Serialize>(
        self,
        state: &Services,
        input: I,
    ) -> Reply<I::Output> {
        Reply(self.body(&input).run(state, input).await)
    }
}

/// A REST handler that runs one operation and answers with it, declared once: its extractors
/// (each a tuple struct: `id: Path<String>`, `input: ApiQuery<T>`, `body: ApiJson<T>`), its
/// success body, and the input they make, run by [`ApiCall::reply`] or, for a JSON body whose
/// shape the journal keeps, [`ApiCall::reply_body`]. Its doc comment and `#[utoipa::path]` are
/// written above it, as on any handler; the answers it documents are its spec's.
macro_rules! handler {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $extract:ident<$inner:ty>),* $(,)?) -> $out:ty
            = $run:ident($input:expr)
    ) => {
        $(#[$attr])*
        $vis async fn $name(
            axum::extract::State(state): axum::extract::State<$crate::ops::Services>,
            call: $crate::http::call::ApiCall,
            $($extract($arg): $extract<$inner>),*
        ) -> $crate::http::call::Reply<$out> {
            call.$run(&state, $input).await
        }
    };
}
pub(crate) use handler;

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>> {
    match headers.get(name) {
        None => Ok(None),
        Some(v) => v
            .to_str()
            .map(Some)
            .map_err(|_| Error::BadRequest(format!("the {name} header must be printable text"))),
    }
}

impl FromRequestParts<Services> for ApiCall {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &Services) -> Result<Self> {
        let principal = Principal::from_request_parts(parts, state).await?;
        let headers = &parts.headers;
        let purpose = header(headers, PURPOSE_HEADER)?;
        let session = header(headers, SESSION_HEADER)?;
        let assistant = header(headers, ASSISTANT_HEADER)?;
        let query_keys: serde_json::Map<String, serde_json::Value> = parts
            .uri
            .query()
            .map(|q| {
                q.split('&')
                    .filter_map(|pair| pair.split('=').next())
                    .filter(|k| !k.is_empty())
                    .take(20)
                    .map(|k| {
                        let key: String = k.chars().take(64).collect();
                        (crate::scrub::scrub(&key).into_owned(), "string".into())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let raw = RawContext {
            via: Via::Rest,
            purpose,
            session,
            assistant,
            user_agent: headers
                .get(axum::http::header::USER_AGENT)
                .and_then(|v| v.to_str().ok()),
            input_shape: (!query_keys.is_empty())
                .then(|| serde_json::json!({ "query": query_keys })),
            request_id: header(headers, "x-request-id")?,
            method: parts.method.as_str(),
            path: parts.uri.path(),
            own: false,
        };
        let context = CallContext::new(raw).map_err(|e| match e {
            ContextError::Purpose(e) => Error::BadRequest(format!("X-Purpose: {e}")),
            ContextError::Session(e) => Error::BadRequest(format!("X-Session-Id {e}")),
            ContextError::Assistant(e) => Error::BadRequest(e),
        })?;
        Ok(ApiCall { principal, context })
    }
}

/// The REST answer of a finished operation: its value as JSON with the spec's status (201 when
/// it creates), or its problem; `X-Session-Id` when the call was recorded in a session.
pub struct Reply<T>(pub Finished<T>);

impl<T: Serialize> IntoResponse for Reply<T> {
    fn into_response(self) -> Response {
        self.render(|value| axum::Json(value).into_response())
    }
}

impl<T> Reply<T> {
    /// Answers with `render` for the value instead of JSON (e.g. markdown).
    pub fn render(self, render: impl FnOnce(T) -> Response) -> Response {
        let Finished {
            spec,
            result,
            session,
        } = self.0;
        let mut response = match result {
            Ok(value) => {
                let mut response = render(value);
                if spec.creates {
                    *response.status_mut() = StatusCode::CREATED;
                }
                response
            }
            Err(error) => error.into_response(),
        };
        if let Some(session) = session {
            response
                .headers_mut()
                .insert(SESSION_HEADER, session_header(session));
        }
        response
    }
}

fn session_header(session: SessionId) -> HeaderValue {
    HeaderValue::from_str(&session.to_string()).expect("ids are ASCII")
}

/// The longest path (with its query) a request may have. Ids and filters are far shorter; a
/// longer one is refused before anything runs, so nothing oversized reaches the journal.
pub const MAX_URI_BYTES: usize = 2048;

/// 414 for paths over [`MAX_URI_BYTES`].
pub async fn limit_uri(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if length > MAX_URI_BYTES {
        return Error::UriTooLong(format!(
            "the path and query are {length} bytes; this server accepts at most {MAX_URI_BYTES}"
        ))
        .into_response();
    }
    next.run(request).await
}

fn drop_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}
