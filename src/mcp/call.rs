//! One MCP call of an operation, as the caller of the request: the context the journal keeps
//! (purpose, session, assistant, input shape), the operation run through `ops::run`, and the
//! refusals that come before it. Tools and resource reads both come through here.

use super::server::JournalMcp;
use crate::auth::Principal;
use crate::ops::{self, CallContext, ContextError, Finished, Op, RawContext, Via};
use axum::http::request::Parts;
use rmcp::RoleServer;
use rmcp::service::RequestContext;
use serde_json::Value;

/// Why a call was refused before its operation ran (a tool error, or a JSON-RPC error for a
/// resource read).
pub(super) struct Refused {
    pub title: &'static str,
    pub detail: String,
}

impl Refused {
    fn new(title: &'static str, detail: impl Into<String>) -> Self {
        Self {
            title,
            detail: detail.into(),
        }
    }
}

impl JournalMcp {
    /// Runs one operation as the caller of this MCP request, journalled like any call (a tool's
    /// or a resource read's); a refusal is logged with the operation's name, as REST logs it.
    pub(super) async fn execute<I: Op>(
        &self,
        ctx: &RequestContext<RoleServer>,
        call: Call<'_>,
        input: I,
    ) -> Result<Finished<I::Output>, Refused> {
        let Some(parts) = ctx.extensions.get::<Parts>() else {
            return Err(Refused::new(
                "Internal error",
                "the request carried no HTTP parts",
            ));
        };
        let Some(principal) = parts.extensions.get::<Principal>() else {
            return Err(Refused::new(
                "Unauthorized",
                "send `Authorization: Bearer <API key>`",
            ));
        };
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let request_id = header("x-request-id").unwrap_or("-").to_owned();
        let name = I::SPEC.name(Via::Mcp);
        let raw = RawContext {
            via: Via::Mcp,
            purpose: call.purpose,
            session: call.session,
            // An OAuth grant's calls are its client's, under the name shown at consent.
            assistant: match &principal.oauth {
                Some(_) => None,
                None => header("x-assistant"),
            },
            user_agent: match &principal.oauth {
                Some(oauth) => Some(oauth.client_name.as_str()),
                None => header("user-agent"),
            },
            input_shape: Some(call.input_shape),
            request_id: Some(&request_id),
            method: "MCP",
            path: &call.path,
            own: false,
        };
        let context = match CallContext::new(raw) {
            Ok(context) => context,
            Err(ContextError::Purpose(e)) => return Err(Refused::new("Bad purpose", e)),
            Err(ContextError::Session(e)) => {
                return Err(Refused::new("Bad session", format!("session {e}")));
            }
            Err(ContextError::Assistant(e)) => return Err(Refused::new("Bad assistant", e)),
        };
        let finished = ops::run(&self.state, &principal.tenant, context, input).await;
        if let Err(e) = &finished.result {
            if e.status().is_server_error() {
                tracing::error!(operation = %name, %request_id, error = %e, "MCP call failed");
            } else {
                tracing::info!(operation = %name, %request_id, status = e.status().as_u16(), "MCP call refused");
            }
        }
        Ok(finished)
    }
}

/// What the journal keeps of one MCP call besides its operation.
pub(super) struct Call<'a> {
    pub purpose: Option<&'a str>,
    pub session: Option<&'a str>,
    pub input_shape: Value,
    pub path: String,
}
