//! Each operation's documented answers, derived from its spec (`ops::SPECS`) and what its
//! handler takes, never restated on the handler: the success status (`201` when the spec
//! `creates`), the access problems of any authenticated operation (401, 414, 429, 500), the
//! 403 of its scopes, the 404 of the journal flag, the 400/404/409 of `X-Session-Id`, the
//! 413/415/422 of a JSON body, and the refusals particular to it (`Spec::errors`). A handler
//! declares only its success answer, as `2XX` (the spec says which), with its body.

use crate::operation::{Refusal, Spec};
use crate::ops::SPECS;
use serde_json::Value;
use utoipa::PartialSchema;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

/// What an operation's handler takes, as the document describes it: the problems of the
/// request's own shape follow from these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    /// A JSON body; `Some(true)` when its schema refuses unknown fields.
    pub body: Option<bool>,
    /// Query parameters (an unknown one is refused).
    pub query: bool,
    /// The journal headers (`X-Purpose`, `X-Session-Id`, `X-Assistant`).
    pub journal: bool,
    /// Bearer credentials.
    pub authenticated: bool,
}

/// One documented answer: its status, description and response headers (name, description).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub description: String,
    pub headers: Vec<Header>,
}

/// A response header: its name and what it says.
type Header = (&'static str, &'static str);

const RETRY_AFTER: Header = ("Retry-After", "Seconds to wait before retrying");

/// What any authenticated operation can answer, whatever it does.
const ACCESS: [(u16, &str, Option<Header>); 4] = [
    (
        401,
        "Missing, malformed, unknown, revoked or expired credentials (`unauthorized`).",
        Some(("WWW-Authenticate", "`Bearer`")),
    ),
    (
        414,
        "The path and query are longer than 2 KiB (`uri-too-long`).",
        None,
    ),
    (
        429,
        "Too many requests from this credential, or too many failed authentications from this \
         address (`rate-limited`).",
        Some(RETRY_AFTER),
    ),
    (
        500,
        "The server failed to answer; quote the `x-request-id` response header when reporting \
         it (`internal`).",
        None,
    ),
];

/// One reason for a problem answer: a phrase and the problem's `type`.
struct Reason {
    when: String,
    kind: &'static str,
}

impl Reason {
    fn new(kind: &'static str, when: impl Into<String>) -> Self {
        Self {
            when: when.into(),
            kind,
        }
    }
}

impl From<&Refusal> for Reason {
    fn from(refusal: &Refusal) -> Self {
        Self::new(refusal.kind, refusal.when)
    }
}

/// The problem answers of an operation with this spec and these inputs, by status.
pub fn problems(spec: &Spec, inputs: Inputs) -> Vec<Answer> {
    let mut answers: Vec<Answer> = reasons(spec, inputs)
        .into_iter()
        .filter(|(_, reasons)| !reasons.is_empty())
        .map(|(status, reasons)| Answer {
            status,
            description: sentence(&reasons),
            headers: reasons
                .iter()
                .any(|r| matches!(r.kind, "busy" | "database-unavailable"))
                .then_some(RETRY_AFTER)
                .into_iter()
                .collect(),
        })
        .collect();
    if inputs.authenticated {
        answers.extend(access());
    }
    answers.sort_by_key(|a| a.status);
    answers
}

/// The reasons for each problem status, in the order a description gives them: what the
/// request's shape refuses first, then the operation's own, then the journal headers'.
fn reasons(spec: &Spec, inputs: Inputs) -> Vec<(u16, Vec<Reason>)> {
    let own = |status: u16| {
        spec.errors
            .iter()
            .filter(move |e| e.status == status)
            .map(Reason::from)
    };
    let journal = inputs.journal;
    let mut reasons: Vec<(u16, Vec<Reason>)> = Vec::new();
    let mut bad = Vec::from_iter(
        inputs
            .body
            .map(|_| Reason::new("bad-request", "malformed JSON")),
    );
    bad.extend(own(400));
    bad.extend(
        inputs
            .query
            .then(|| Reason::new("bad-request", "an unknown query parameter")),
    );
    bad.extend(journal.then(|| {
        Reason::new(
            "bad-request",
            "a bad `X-Purpose`, `X-Session-Id` or `X-Assistant`",
        )
    }));
    reasons.push((400, bad));
    let mut forbidden = Vec::from_iter(lacking(spec.scopes));
    forbidden.extend(own(403));
    forbidden.push(Reason::new("forbidden", "an operator credential"));
    reasons.push((403, forbidden));
    let mut missing = Vec::from_iter(spec.needs_journal.then(|| {
        Reason::new(
            "journal-off",
            "the assistant journal is off for this account",
        )
    }));
    missing.extend(own(404));
    missing.extend(journal.then(|| {
        Reason::new(
            "not-found",
            "`X-Session-Id` names no session of this credential",
        )
    }));
    reasons.push((404, missing));
    let mut conflict = Vec::from_iter(own(409));
    conflict.extend(
        journal.then(|| Reason::new("conflict", "`X-Session-Id` names a session that has ended")),
    );
    reasons.push((409, conflict));
    if let Some(closed) = inputs.body {
        reasons.extend(body_problems(closed, own(422)));
    }
    let mut others: Vec<u16> = spec.errors.iter().map(|e| e.status).collect();
    others.retain(|s| !reasons.iter().any(|(known, _)| known == s));
    others.dedup();
    reasons.extend(
        others
            .into_iter()
            .map(|status| (status, own(status).collect())),
    );
    reasons
}

/// The problems of a JSON body: too large, not JSON, the wrong shape (with the operation's
/// own `shape` reasons).
fn body_problems(closed: bool, shape: impl Iterator<Item = Reason>) -> [(u16, Vec<Reason>); 3] {
    let wrong = if closed {
        "JSON of the wrong shape, unknown fields included"
    } else {
        "JSON of the wrong shape"
    };
    [
        (
            413,
            vec![Reason::new(
                "payload-too-large",
                "the body is larger than the server accepts",
            )],
        ),
        (
            415,
            vec![Reason::new(
                "unsupported-media-type",
                "the body is not sent with `Content-Type: application/json`",
            )],
        ),
        (
            422,
            std::iter::once(Reason::new("invalid-body", wrong))
                .chain(shape)
                .collect(),
        ),
    ]
}

/// What any authenticated operation can answer.
fn access() -> impl Iterator<Item = Answer> {
    ACCESS.iter().map(|(status, description, header)| Answer {
        status: *status,
        description: (*description).to_owned(),
        headers: header.iter().copied().collect(),
    })
}

/// The refusal of a credential without the operation's scopes.
fn lacking(scopes: &[crate::auth::Scope]) -> Option<Reason> {
    let named: Vec<String> = scopes.iter().map(|s| format!("`{}`", s.as_str())).collect();
    let text = match named.split_last() {
        None => return None,
        Some((last, [])) => last.clone(),
        Some((last, first)) => format!("{} or {last}", first.join(", ")),
    };
    Some(Reason::new(
        "missing-scope",
        format!("a credential lacking {text}"),
    ))
}

/// The reasons as one sentence, each run of one problem type followed by the type:
/// "A, b (`x`), or c (`y`)".
fn sentence(reasons: &[Reason]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (i, reason) in reasons.iter().enumerate() {
        let mut part = reason.when.clone();
        if reasons
            .get(i + 1)
            .is_none_or(|next| next.kind != reason.kind)
        {
            part.push_str(&format!(" (`{}`)", reason.kind));
        }
        parts.push(part);
    }
    let mut text = match parts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, first)) => format!("{}, or {last}", first.join(", ")),
        None => String::new(),
    };
    if let Some(first) = text.get(..1) {
        text.replace_range(..1, &first.to_uppercase());
    }
    text
}

/// Adds every operation's derived answers to the document: each operation with a spec (found
/// by its operation id) has its `2XX` success renamed to the spec's status and its problem
/// answers inserted; every authenticated one has the access problems. A handler that also
/// declares a status the spec derives is a mistake this refuses.
pub fn add_responses(document: &mut OpenApi) {
    let schemas = serde_json::to_value(&document.components).unwrap_or_default();
    for operation in super::operations(document) {
        let id = operation.operation_id.clone().unwrap_or_default();
        let spec = SPECS.iter().find(|s| s.id == id);
        let inputs = inputs(operation, &schemas);
        let answers = match spec {
            Some(spec) => {
                success(operation, spec);
                problems(spec, inputs)
            }
            None if inputs.authenticated => access().collect(),
            None => Vec::new(),
        };
        let responses = &mut operation.responses.responses;
        for answer in answers {
            let previous = responses.insert(answer.status.to_string(), problem(&answer));
            assert!(previous.is_none(), "{id} declares {} itself", answer.status);
        }
    }
}

/// Renames the handler's `2XX` to the spec's success status.
fn success(operation: &mut Operation, spec: &Spec) {
    let id = &spec.id;
    let responses = &mut operation.responses.responses;
    let answer = responses
        .remove("2XX")
        .unwrap_or_else(|| panic!("{id} declares no `2XX` success answer"));
    responses.insert(spec.success_status().to_string(), answer);
}

/// What the operation's handler takes, read from the document.
pub fn inputs(operation: &Operation, components: &Value) -> Inputs {
    let parameters = operation.parameters.iter().flatten();
    let mut inputs = Inputs {
        authenticated: operation.security.as_ref().is_some_and(|s| !s.is_empty()),
        ..Inputs::default()
    };
    for parameter in parameters {
        if let RefOr::T(p) = parameter {
            inputs.query |= p.parameter_in == ParameterIn::Query;
            inputs.journal |= p.name == "X-Session-Id";
        }
    }
    if let Some(RefOr::T(body)) = &operation.request_body
        && let Some(RefOr::T(json)) = body.content.get("application/json")
    {
        let schema = serde_json::to_value(&json.schema).unwrap_or_default();
        inputs.body = Some(closed(&schema, components));
    }
    inputs
}

/// Whether a body schema refuses unknown fields (`additionalProperties: false`), through its
/// reference and a nullable `oneOf`.
fn closed(schema: &Value, components: &Value) -> bool {
    if let Some(name) = schema["$ref"].as_str().and_then(|r| r.rsplit('/').next()) {
        return closed(&components["schemas"][name], components);
    }
    if let Some(variants) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
        return variants
            .iter()
            .filter(|v| v["type"] != "null")
            .all(|v| closed(v, components));
    }
    schema["additionalProperties"] == Value::Bool(false)
}

/// The answer as a problem+json response.
fn problem(answer: &Answer) -> RefOr<Response> {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("Problem")))
        .build();
    let mut response = ResponseBuilder::new()
        .description(&answer.description)
        .content("application/problem+json", content);
    for (name, description) in &answer.headers {
        let schema = match *name {
            "Retry-After" => u64::schema(),
            _ => ObjectBuilder::new().schema_type(Type::String).into(),
        };
        let header = HeaderBuilder::new()
            .schema(Some(schema))
            .description(Some(*description))
            .build();
        response = response.header(*name, header);
    }
    RefOr::T(response.build())
}
