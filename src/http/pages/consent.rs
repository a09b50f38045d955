//! The authorization endpoint (`/oauth/authorize`): the consent page of the OAuth flow for MCP
//! clients (see `crate::oauth`). The person signs in as on the journal pages (the request is
//! kept across the sign-in), sees the client's name, where it sends them back and the scopes
//! it asks for, and allows or denies with a CSRF-protected form.
//!
//! Until the client and its redirect URI are known good, every problem is an error page here,
//! never a redirect (an unknown client or a redirect URI not registered exactly could be
//! anyone's); after that, problems go back to the client as `error=` with its `state` and our
//! `iss` (RFC 9207).

use super::CsrfKey;
use super::render::{error_page, page};
use super::user::{PageUser, csrf_refused};
use crate::error::Error;
use crate::http::AppState;
use crate::oauth::client::Client;
use crate::oauth::grants::{self, Approval};
use crate::oauth::metadata::{self, MCP_SCOPES};
use crate::oauth::registry;
use crate::oauth::tokens;
use crate::scopes::Scopes;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The authorization request's parameters (RFC 6749 §4.1.1, RFC 7636, RFC 8707), as the query
/// of `GET` and again, as hidden fields, in the consent form.
#[derive(Debug, Default, Deserialize, Serialize, Clone)]
pub struct AuthorizeRequest {
    #[serde(default)]
    pub response_type: String,
    #[serde(default)]
    pub client_id: String,
    pub redirect_uri: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    #[serde(default)]
    pub code_challenge: String,
    pub code_challenge_method: Option<String>,
    pub resource: Option<String>,
}

/// The consent form: the request again, the decision and the CSRF token.
#[derive(Debug, Deserialize)]
pub struct Decision {
    #[serde(flatten)]
    request: AuthorizeRequest,
    #[serde(default)]
    decision: String,
    #[serde(default)]
    csrf: String,
}

/// A request whose client and redirect URI are good: from here on answers go to the client.
struct Checked {
    client: Client,
    redirect_uri: String,
    scopes: Scopes,
    resource: String,
}

fn bad(text: impl Into<String>) -> Response {
    error_page(&Error::BadRequest(text.into()), false)
}

/// The redirect back to the client with `params`, `state` and `iss`.
fn back(
    redirect_uri: &str,
    state: Option<&str>,
    issuer: &str,
    params: &[(&str, &str)],
) -> Response {
    let Ok(mut url) = url::Url::parse(redirect_uri) else {
        return bad("the redirect URI is not a URL");
    };
    {
        let mut query = url.query_pairs_mut();
        for (k, v) in params {
            query.append_pair(k, v);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", issuer);
    }
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(url.as_str()) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn error_back(
    request: &AuthorizeRequest,
    checked_uri: &str,
    issuer: &str,
    error: &str,
    description: &str,
) -> Response {
    back(
        checked_uri,
        request.state.as_deref(),
        issuer,
        &[("error", error), ("error_description", description)],
    )
}

/// The client and its redirect URI, or the error page.
async fn client_and_redirect(
    state: &AppState,
    request: &AuthorizeRequest,
) -> Result<(Client, String), Response> {
    if request.client_id.is_empty() {
        return Err(bad("the authorization request names no client_id"));
    }
    let now = state.clock.now();
    let client = match registry::find(&state.db, &state.config, &request.client_id, now).await {
        Ok(Some(client)) => client,
        Ok(None) => {
            return Err(bad(
                "this client is not registered here (or its registration expired)",
            ));
        }
        Err(e) if e.status >= 500 => {
            tracing::error!(error = ?e.cause, "finding an OAuth client failed");
            return Err(error_page(
                &Error::Internal(anyhow::anyhow!("finding the client")),
                false,
            ));
        }
        Err(e) => return Err(bad(format!("the client cannot be used: {}", e.description))),
    };
    let redirect_uri = match &request.redirect_uri {
        Some(uri) if client.allows_redirect(uri) => uri.clone(),
        Some(_) => {
            return Err(bad(
                "redirect_uri is not one the client registered (they must match exactly)",
            ));
        }
        None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
        None => return Err(bad("the authorization request names no redirect_uri")),
    };
    Ok((client, redirect_uri))
}

/// Checks the rest of the request; `Err` is the redirect with the error.
fn check_rest(
    state: &AppState,
    request: &AuthorizeRequest,
    redirect_uri: &str,
    held: &Scopes,
) -> Result<(Scopes, Scopes, String), Box<Response>> {
    check_params(state, request, held).map_err(|(error, description)| {
        let issuer = state.config.public_base();
        Box::new(error_back(
            request,
            redirect_uri,
            &issuer,
            error,
            &description,
        ))
    })
}

/// The granted and withheld scopes and the resource; `Err` is the OAuth error and its text.
fn check_params(
    state: &AppState,
    request: &AuthorizeRequest,
    held: &Scopes,
) -> Result<(Scopes, Scopes, String), (&'static str, String)> {
    let fail = |error: &'static str, description: &str| (error, description.to_owned());
    if request.response_type != "code" {
        return Err(fail(
            "unsupported_response_type",
            "only response_type=code is supported",
        ));
    }
    if request.code_challenge_method.as_deref() != Some("S256") {
        return Err(fail(
            "invalid_request",
            "PKCE is required, with code_challenge_method=S256",
        ));
    }
    if !tokens::challenge_well_formed(&request.code_challenge) {
        return Err(fail(
            "invalid_request",
            "code_challenge must be an S256 challenge (43 base64url characters)",
        ));
    }
    let resource = match &request.resource {
        None => state.config.mcp_resource(),
        Some(given) => match metadata::canonical_resource(given, &state.config) {
            Some(ours) => ours,
            None => {
                return Err(fail(
                    "invalid_target",
                    "resource must be this server's MCP endpoint",
                ));
            }
        },
    };
    let asked = match request
        .scope
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => Scopes::from_names(MCP_SCOPES.map(|s| s.as_str())).unwrap_or_default(),
        Some(text) => match Scopes::parse(text) {
            Ok(s) => s,
            Err(e) => return Err(fail("invalid_scope", &e)),
        },
    };
    let granted = asked.intersection(held);
    if granted.is_empty() {
        return Err(fail(
            "invalid_scope",
            "the signed-in key holds none of the scopes asked for",
        ));
    }
    let withheld = Scopes::from_names(
        asked
            .names()
            .iter()
            .filter(|n| !granted.names().contains(n))
            .map(String::as_str),
    )
    .unwrap_or_default();
    Ok((granted, withheld, resource))
}

async fn check(
    state: &AppState,
    request: &AuthorizeRequest,
    user: &PageUser,
) -> Result<(Checked, Scopes), Response> {
    let (client, redirect_uri) = client_and_redirect(state, request).await?;
    let (scopes, withheld, resource) =
        check_rest(state, request, &redirect_uri, user.principal.scopes()).map_err(|b| *b)?;
    Ok((
        Checked {
            client,
            redirect_uri,
            scopes,
            resource,
        },
        withheld,
    ))
}

/// Where the redirect URI sends the person: its host (or scheme, for an app's own scheme).
fn redirect_host(uri: &str) -> String {
    url::Url::parse(uri)
        .ok()
        .map(|u| match u.host_str() {
            Some(host) => match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            },
            None => format!("{}:", u.scheme()),
        })
        .unwrap_or_default()
}

/// The pages' policy, with the redirect URI's origin allowed as a form's destination: the
/// browser applies `form-action` to the redirect that answers the form.
fn consent_policy(redirect_uri: &str) -> Option<HeaderValue> {
    let url = url::Url::parse(redirect_uri).ok()?;
    let source = match url.scheme() {
        "http" | "https" => url.origin().ascii_serialization(),
        scheme => format!("{scheme}:"),
    };
    if source
        .chars()
        .any(|c| c.is_whitespace() || c == ';' || c == ',' || c == '\'')
    {
        return None;
    }
    let policy = crate::http::headers::CONTENT_SECURITY_POLICY.replace(
        "form-action 'self'",
        &format!("form-action 'self' {source}"),
    );
    HeaderValue::from_str(&policy).ok()
}

/// `GET /oauth/authorize`: the consent page (or the sign-in, which comes back here).
pub async fn authorize(
    State(state): State<AppState>,
    user: Result<PageUser, Response>,
    Query(request): Query<AuthorizeRequest>,
) -> Response {
    // The client and redirect URI first: a bad one is an error page even before sign-in.
    let (client, redirect_uri) = match client_and_redirect(&state, &request).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let user = match user {
        Ok(user) => user,
        Err(to_sign_in) => return to_sign_in,
    };
    let (scopes, withheld, _resource) =
        match check_rest(&state, &request, &redirect_uri, user.principal.scopes()) {
            Ok(checked) => checked,
            Err(redirect) => return *redirect,
        };
    let mut fields: BTreeMap<&str, String> = BTreeMap::new();
    let serialized = serde_json::to_value(&request).unwrap_or_default();
    if let Some(map) = serialized.as_object() {
        for (k, v) in map {
            if let Some(text) = v.as_str() {
                fields.insert(k.as_str(), text.to_owned());
            }
        }
    }
    fields.insert("redirect_uri", redirect_uri.clone());
    let mut response = page(
        "consent.html",
        serde_json::json!({
            "csrf": user.csrf,
            "client_name": client.client_name,
            "client_id": client.client_id,
            "redirect_host": redirect_host(&redirect_uri),
            "granted": scopes.names(),
            "withheld": withheld.names(),
            "repository": user.principal.tenant.repository,
            "request": fields,
        }),
    );
    if let Some(policy) = consent_policy(&redirect_uri) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

/// `POST /oauth/authorize`: the person's decision.
pub async fn decide(
    State(state): State<AppState>,
    user: PageUser,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Form(form): Form<Decision>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let request = &form.request;
    let (checked, _) = match check(&state, request, &user).await {
        Ok(checked) => checked,
        Err(answer) => return answer,
    };
    let issuer = state.config.public_base();
    if form.decision != "approve" {
        return error_back(
            request,
            &checked.redirect_uri,
            &issuer,
            "access_denied",
            "the person denied the request",
        );
    }
    let approval = Approval {
        approver: &user.principal.tenant,
        client: &checked.client,
        redirect_uri: &checked.redirect_uri,
        code_challenge: &request.code_challenge,
        scopes: &checked.scopes,
        resource: &checked.resource,
    };
    match grants::approve(&state.db, approval, state.clock.now()).await {
        Ok(code) => back(
            &checked.redirect_uri,
            request.state.as_deref(),
            &issuer,
            &[("code", &code)],
        ),
        Err(e) => {
            tracing::error!(error = %e, "approving an OAuth grant failed");
            error_back(
                request,
                &checked.redirect_uri,
                &issuer,
                "server_error",
                "the grant could not be made; try again",
            )
        }
    }
}
