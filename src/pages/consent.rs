//! The authorization endpoint (`/oauth/authorize`): the consent page of the OAuth flow for MCP
//! clients (see `crate::oauth`). The person signs in as on the journal pages (the request is
//! kept across the sign-in), sees who the client is (a metadata-document client by the host
//! of its document, its name only as its own claim; a registered client's name marked as
//! self-declared), the account they are signed in as, where the client sends them back (with
//! its scheme, or "an app on this computer") and what each scope lets it do
//! ([`super::words`]), and allows or denies with a CSRF-protected form.
//!
//! Until the client and its redirect URI are known good, every problem is an error page here,
//! never a redirect (an unknown client or a redirect URI not registered exactly could be
//! anyone's); after that, problems go back to the client as `error=` with its `state` and our
//! `iss` (RFC 9207). Those rules are `oauth::authorize`'s, and the grant is made by
//! `oauth::grants::approve` from the request it checked: this page renders and posts.

use super::CsrfKey;
use super::render::{error_page, page, page_with};
use super::user::{PageUser, csrf_refused};
use super::words;
use crate::error::Error;
use crate::ids::{self, Kind};
use crate::oauth::authorize::{Addressed, AuthorizeRequest, Refusal, Reply, Unaddressed};
use crate::oauth::documents::Asker;
use crate::oauth::grants;
use crate::ops::Services;
use axum::Form;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The connection's peer, when the server was started with it.
type Peer = Option<axum::Extension<ConnectInfo<SocketAddr>>>;

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

fn bad(text: impl Into<String>) -> Response {
    error_page(&Error::BadRequest(text.into()), false)
}

/// The answer sent back to the client, as a redirect.
fn back(reply: &Reply, state: &Services) -> Response {
    let Some(url) = reply.location(&state.config.public_base()) else {
        return bad("the redirect URI is not a URL");
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(url.as_str()) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The error page of a request whose client or redirect URI is not known good: the client
/// when it is known, what went wrong and what to do (and, for a redirect URI, the one sent and
/// those registered).
fn unaddressed_page(why: &Unaddressed) -> Response {
    let client = (!why.client_id.is_empty()).then(|| {
        words::client(
            &why.client_id,
            why.client.as_ref().map(|c| c.client_name.as_str()),
        )
    });
    page_with(
        StatusCode::BAD_REQUEST,
        "consent_error.html",
        serde_json::json!({
            "client": client,
            "problem": why.problem,
            "remedy": why.remedy,
            "sent_redirect": why.sent_redirect,
            "registered": why.client.as_ref().map(|c| &c.redirect_uris),
        }),
    )
}

/// A refused request: an error page, or the error sent back to the client.
fn refused(refusal: Refusal, state: &Services) -> Response {
    match refusal {
        Refusal::Unaddressed(why) => {
            tracing::info!(problem = %why.problem, "an authorization request cannot proceed");
            unaddressed_page(&why)
        }
        Refusal::Busy {
            text,
            retry_after_secs,
        } => {
            tracing::info!(%text, "an authorization request over its document fetch budget");
            let mut response = error_page(&Error::RateLimited { retry_after_secs }, false);
            if let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            response
        }
        Refusal::Fault(cause) => {
            tracing::error!(error = ?cause, "finding an OAuth client failed");
            error_page(
                &Error::Internal(anyhow::anyhow!("finding the client")),
                false,
            )
        }
        Refusal::ToClient(reply) => back(&reply, state),
    }
}

/// The request's client and redirect URI (checked before anything else); a metadata document
/// fetched for it is on the budget of the client address, as the limits count it.
async fn address(
    state: &Services,
    peer: Peer,
    headers: &HeaderMap,
    request: AuthorizeRequest,
) -> Result<Addressed, Response> {
    let peer = peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.0.ip());
    let asker = Asker {
        oauth: &state.oauth,
        address: state.auth.limits.client_address(peer, headers),
    };
    request
        .address(&state.db, &state.config, state.clock.now(), asker)
        .await
        .map_err(|refusal| refused(refusal, state))
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
    State(state): State<Services>,
    peer: Peer,
    headers: HeaderMap,
    user: Result<PageUser, Response>,
    Query(request): Query<AuthorizeRequest>,
) -> Response {
    // The client and redirect URI first: a bad one is an error page even before sign-in.
    let addressed = match address(&state, peer, &headers, request).await {
        Ok(addressed) => addressed,
        Err(page) => return page,
    };
    let user = match user {
        Ok(user) => user,
        Err(to_sign_in) => return to_sign_in,
    };
    let checked = match addressed.check(&state.config, &user.principal.tenant) {
        Ok(checked) => checked,
        Err(refusal) => return refused(refusal, &state),
    };
    let redirect_uri = checked.redirect_uri();
    let client = checked.client();
    let granted = checked.granted().names();
    let withheld = checked.withheld().names();
    let mut response = page(
        "consent.html",
        serde_json::json!({
            "csrf": user.csrf,
            "client": words::client(&client.client_id, Some(client.client_name.as_str())),
            "redirect": words::redirect(redirect_uri),
            "account": {
                "name": user.account_name(&state).await,
                "id": ids::format(Kind::Account, user.principal.account_id()),
                "key": user.principal.key_id.to_string(),
            },
            "granted": words::scopes(granted.iter().map(String::as_str)),
            "withheld": words::scopes(withheld.iter().map(String::as_str)),
            "repository": user.principal.tenant.repository,
            "request": checked.form_fields(),
        }),
    );
    if let Some(policy) = consent_policy(redirect_uri) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    response
}

/// `POST /oauth/authorize`: the person's decision.
pub async fn decide(
    State(state): State<Services>,
    peer: Peer,
    headers: HeaderMap,
    user: PageUser,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Form(form): Form<Decision>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    let addressed = match address(&state, peer, &headers, form.request).await {
        Ok(addressed) => addressed,
        Err(page) => return page,
    };
    let checked = match addressed.check(&state.config, &user.principal.tenant) {
        Ok(checked) => checked,
        Err(refusal) => return refused(refusal, &state),
    };
    if form.decision != "approve" {
        return back(&checked.denied(), &state);
    }
    match grants::approve(&state.db, &state.config, &checked, state.clock.now()).await {
        Ok(reply) => back(&reply, &state),
        Err(e) => {
            tracing::error!(error = ?e.cause, "approving an OAuth grant failed");
            back(&checked.failed(), &state)
        }
    }
}
