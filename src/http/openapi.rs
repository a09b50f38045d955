//! The OpenAPI description: the document's frame (info, tags, the bearer scheme), what every
//! journalled operation shares (its request headers), and the routes that serve it
//! (`/openapi.json`, Swagger UI at `/docs`). The operations themselves are described on their
//! handlers in `rest/`, and their problem answers derived from their specs (`responses`).

mod responses;
mod webhooks;
pub use responses::add_responses;
pub use webhooks::add_webhooks;

use crate::error::Problem;
use axum::Router;
use axum::http::header;
use axum::routing::get;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoParams, Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

#[derive(OpenApi)]
#[openapi(
    info(
        // No `version`: utoipa takes the crate's (`CARGO_PKG_VERSION`), the binary's own.
        title = "n8v-journal",
        description = "The assistant journal records what your connected AI assistants did \
            through the API on your behalf, and why: sessions, the calls made in them and their \
            purposes, never payloads. A new conversation picks up where the last one left off by \
            reading it.\n\n\
            Every `/api/v1` operation accepts `X-Purpose` (why this call is made) and \
            `X-Session-Id` (the conversation making it), and answers with `X-Session-Id` when the \
            call was recorded in a session. Every error is `application/problem+json` with a \
            stable `type`. A `503` of type `database-unavailable` (with `Retry-After`) means the \
            database was briefly out of reach and nothing of the request was stored: it is safe \
            to retry, writes included, after `Retry-After` seconds (its `detail` says so when a \
            lost commit leaves the outcome unknown).\n\n\
            ## Connecting assistants (MCP)\n\n\
            The MCP server is at [`/mcp`](/mcp) (streamable HTTP). [`GET /`](/) names the URL to \
            give MCP clients (`mcp_url`): with `N8V_PUBLIC_URL` set, `<N8V_PUBLIC_URL>/mcp`, the \
            one address its OAuth tokens are issued for; without it, on a loopback bind, \
            `http://localhost:PORT/mcp`, `http://127.0.0.1:PORT/mcp` and `http://[::1]:PORT/mcp` \
            all work, and a token got at one works at the others. A client either sends \
            `Authorization: Bearer <API key>` or signs in through OAuth 2.1, discovered from \
            `/mcp`'s `401`: the protected resource metadata (RFC 9728) at \
            [`/.well-known/oauth-protected-resource/mcp`](/.well-known/oauth-protected-resource/mcp), \
            the authorization server metadata (RFC 8414) at \
            [`/.well-known/oauth-authorization-server`](/.well-known/oauth-authorization-server); \
            client ID metadata documents and dynamic registration are both accepted. How to \
            connect each assistant (Claude, ChatGPT, Cursor, VS Code, Codex, …): \
            [the integrations guide](/integrations.md). The MCP Registry entry is the \
            repository's `server.json`.",
        license(name = "MIT", identifier = "MIT")
    ),
    tags(
        (name = "records", description = "Records: append-only logs, one per account and one per \
            organization, where lines are put on record."),
        (name = "journal", description = "The assistant journal: sessions, the calls made in them \
            and why. Open a session with one sentence describing the goal, reuse the returned ID, \
            give each call a purpose, and close the session with what happened. Behind the \
            `assistantJournal` feature flag; reading needs `chats:read`, and a credential reads \
            only sessions whose recorded scopes it also holds."),
        (name = "audit", description = "The account's audit log; each journal call links to the \
            audit entry of its request."),
        (name = "auth", description = "Short-lived access tokens minted from API keys."),
        (name = "account", description = "The account itself: deleting it, with every row of it."),
        (name = "webhooks", description = "Webhook endpoints: the journal tells your own systems \
            when a session ended, a summary or digest is ready, an open loop opened or closed, or \
            a credential was scrubbed, signed as Standard Webhooks specifies. Needs \
            `webhooks:write`.\n\n\
            The events (the document's `webhooks` section has each body): `session.ended`, \
            `summary.ready`, `loop.opened`, `loop.closed`, `exposure.seen`, `digest.ready`, \
            `endpoint.disabled`, and `webhook.test`, sent to one endpoint when asked \
            (`POST /api/v1/webhooks/{id}/test`) whatever events it asked for.\n\n\
            Verify each delivery with the endpoint's secret (`whsec_…`) and a Standard Webhooks \
            library, on the raw body as received, before parsing it. Python \
            (`pip install standardwebhooks`):\n\n\
            ```python\n\
            from standardwebhooks import Webhook\n\n\
            # body: the raw request body; headers: the request headers (webhook-id, \
            webhook-timestamp, webhook-signature)\n\
            event = Webhook(secret).verify(body, headers)  # raises WebhookVerificationError\n\
            ```\n\n\
            TypeScript (`npm install standardwebhooks`):\n\n\
            ```ts\n\
            import { Webhook } from \"standardwebhooks\";\n\n\
            // body: the raw request body as a string; headers: a Record<string, string>\n\
            const event = new Webhook(secret).verify(body, headers); // throws when it is not genuine\n\
            ```\n\n\
            Drop a `webhook-id` seen before (a retry), and answer any 2xx."),
        (name = "admin", description = "Operator endpoints (operator keys only): the feature \
            flags, such as `assistantJournal`, globally or for an account."),
        (name = "health", description = "Liveness and readiness probes; no credentials needed."),
    ),
    components(schemas(Problem)),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

/// Adds the `bearer` security scheme the operations refer to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("API key or JWT")
                    .description(Some(
                        "`Authorization: Bearer <token>` with an API key (`n8v_sk_…`) or an \
                         access token minted from one with `POST /api/v1/auth/token`. \
                         `/internal/admin/*` takes operator keys only.",
                    ))
                    .build(),
            ),
        );
    }
}

/// What a journalled (`/api/v1`) operation reads about itself from the request headers.
#[derive(IntoParams)]
#[into_params(names("X-Purpose", "X-Session-Id", "X-Assistant"), parameter_in = Header)]
#[allow(dead_code)] // documentation only; `http::call::ApiCall` reads the headers
pub struct JournalHeaders(
    /// Why this call is made: one sentence, ≤ 500 characters, no control characters; credentials in it are scrubbed
    #[param(
        nullable = false,
        max_length = 500,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*$",
        example = "Pick up where we stopped"
    )]
    Option<String>,
    /// The conversation making the request (ses_…); omit to join your recent open session or get a new one
    #[param(nullable = false, example = "ses_01M72AZ1M0ETFB59TDWH9EDD1R")]
    Option<String>,
    /// The assistant making the call (default: the `User-Agent`): letters, digits, spaces and . _ - / ( ) + : , @ (anything else is a 400), kept to 100 characters; sessions record it and can be filtered by it, and a call without X-Session-Id joins only a session of the same assistant (its name up to the first /, without case)
    #[param(
        nullable = false,
        pattern = "^[A-Za-z0-9 ._/()+:,@-]*$",
        example = "Claude"
    )]
    Option<String>,
);

/// What the `X-Session-Id` answer header says, on every journalled operation's success.
const SESSION_ANSWER: &str =
    "The session this call was recorded in (`ses_…`); sent when the assistant journal is on";

/// Describes the `X-Session-Id` answer header on the success answers of every operation that
/// reads `X-Session-Id` (see [`JournalHeaders`]): written once here, not on each handler.
pub fn add_session_answer(document: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{RefOr, header::HeaderBuilder};
    for operation in operations(document) {
        let journalled = operation
            .parameters
            .iter()
            .flatten()
            .any(|p| matches!(p, RefOr::T(p) if p.name == "X-Session-Id"));
        if !journalled {
            continue;
        }
        for (status, response) in &mut operation.responses.responses {
            if let (true, RefOr::T(response)) = (status.starts_with('2'), response) {
                let header = HeaderBuilder::new()
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
                    .description(Some(SESSION_ANSWER))
                    .build();
                response
                    .headers
                    .insert("X-Session-Id".into(), RefOr::T(header));
            }
        }
    }
}

/// Every operation of the document, whatever its method.
fn operations(
    document: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    document.paths.paths.values_mut().flat_map(|item| {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        operations.into_iter().flatten()
    })
}

/// The document as pretty JSON with a trailing newline, as served and committed.
pub fn json(document: &utoipa::openapi::OpenApi) -> String {
    let mut json = document
        .to_pretty_json()
        .expect("the OpenAPI document serializes");
    json.push('\n');
    json
}

/// `GET /openapi.json` and Swagger UI at `/docs`.
pub fn routes<S: Clone + Send + Sync + 'static>(json: String) -> Router<S> {
    let json = axum::body::Bytes::from(json);
    Router::new()
        .route(
            "/openapi.json",
            get(move || {
                std::future::ready(([(header::CONTENT_TYPE, "application/json")], json.clone()))
            }),
        )
        .merge(SwaggerUi::new("/docs").config(utoipa_swagger_ui::Config::from("/openapi.json")))
}
