//! The refusals particular to one operation, as its spec names them for the documentation (the
//! OpenAPI document derives each operation's problem answers from its spec: see
//! `http::openapi::responses`). What every operation shares (credentials, scopes, the journal
//! flag, `X-Session-Id`, the request's own shape) is not listed here but derived.

/// One way an operation refuses, in a few words: `when` is a phrase that completes "The
/// operation answers `status` for …" (e.g. "no session with this id is visible to this
/// credential"), and `kind` the problem's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub kind: &'static str,
    pub when: &'static str,
}

impl Refusal {
    /// A 400 (`bad-request`): an argument the operation refuses.
    pub const fn bad_request(when: &'static str) -> Self {
        Self::new(400, "bad-request", when)
    }

    /// A 403 (`forbidden`) other than a missing scope.
    pub const fn forbidden(when: &'static str) -> Self {
        Self::new(403, "forbidden", when)
    }

    /// A 404 (`not-found`): what the operation names is not the caller's to reach.
    pub const fn not_found(when: &'static str) -> Self {
        Self::new(404, "not-found", when)
    }

    /// A 409 (`conflict`): the state of what the operation names refuses it.
    pub const fn conflict(when: &'static str) -> Self {
        Self::new(409, "conflict", when)
    }

    /// A 422 (`invalid-body`): a body of the wrong shape, in particular.
    pub const fn invalid_body(when: &'static str) -> Self {
        Self::new(422, "invalid-body", when)
    }

    /// A 503 of this `kind`: the service cannot do it now.
    pub const fn unavailable(kind: &'static str, when: &'static str) -> Self {
        Self::new(503, kind, when)
    }

    pub const fn new(status: u16, kind: &'static str, when: &'static str) -> Self {
        Self { status, kind, when }
    }
}
