//! The signed-in account user: sign-in (an API key exchanged, through the token operation, for
//! a short-lived JWT in an `HttpOnly`, `SameSite=Strict` cookie), sign-out, and the extractor
//! that resolves the cookie exactly like a bearer token (revocation, scopes, limits).

use super::render::{error_page, page_with};
use super::{CsrfKey, cookie, set_cookie};
use crate::auth::Principal;
use crate::error::Error;
use crate::ops::Services;
use crate::ops::token::{MintToken, TokenResponse};
use crate::ops::{self, CallContext, ContextError, Finished, Op, RawContext, Via};
use axum::Form;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use std::net::SocketAddr;

/// The journal pages' cookie (the JWT).
pub const USER_COOKIE: &str = "n8v_journal";
/// Before sign-in: a random value the sign-in form's CSRF token is bound to.
pub const PRE_COOKIE: &str = "n8v_pre";
/// The assistant name page calls are recorded under.
const ASSISTANT: &str = "n8v journal pages";

/// A signed-in account user.
pub struct PageUser {
    pub principal: Principal,
    /// This user's CSRF token, for the forms of the page.
    pub csrf: String,
    cookie: String,
    context: CallContext,
}

impl PageUser {
    /// Runs an operation as this user: the same `ops::run` REST and MCP use.
    pub async fn run<I: Op>(&self, state: &Services, input: I) -> Finished<I::Output> {
        ops::run(state, &self.principal.tenant, self.context.clone(), input).await
    }

    /// The name of the account signed in (`None`, logged, when it cannot be read: the page
    /// then names the account by its id).
    pub async fn account_name(&self, state: &Services) -> Option<String> {
        match crate::accounts::name(&state.db, &self.principal.tenant).await {
            Ok(name) => Some(name),
            Err(e) => {
                tracing::warn!(error = %e, "the signed-in account's name could not be read");
                None
            }
        }
    }

    /// Whether a posted form's token belongs to this user's cookie.
    pub fn csrf_ok(&self, key: &CsrfKey, token: &str) -> bool {
        key.verify(&self.cookie, token)
    }

    /// A form's button: runs `input` once the form's CSRF `token` holds, then goes `back`; a
    /// refused token or a failed operation answers the error page.
    pub async fn press<I: Op>(
        &self,
        state: &Services,
        key: &CsrfKey,
        token: &str,
        input: I,
        back: &str,
    ) -> Response {
        if !self.csrf_ok(key, token) {
            return error_page(&csrf_refused(), true);
        }
        match self.run(state, input).await.result {
            Ok(_) => Redirect::to(back).into_response(),
            Err(e) => error_page(&e, true),
        }
    }
}

/// Page calls carry no purpose or session; they are recorded under the pages' own name, as
/// the journal's own traffic (a person looking at the journal is no assistant's work).
fn context(parts: &Parts) -> Result<CallContext, ContextError> {
    let raw = RawContext {
        via: Via::Rest,
        assistant: Some(ASSISTANT),
        own: true,
        request_id: parts
            .headers
            .get("x-request-id")
            .and_then(|v| v.to_str().ok()),
        method: parts.method.as_str(),
        path: parts.uri.path(),
        ..RawContext::default()
    };
    CallContext::new(raw)
}

/// The page for a context refused (it never is: pages send no purpose or session).
fn refused(e: ContextError) -> Response {
    error_page(&Error::BadRequest(e.to_string()), false)
}

/// To the sign-in form; from the OAuth consent page with the way back (`next`), so that the
/// authorization request survives the sign-in.
fn to_sign_in(parts: &Parts) -> Response {
    match continuation(parts.uri.path_and_query().map(|p| p.as_str())) {
        Some(next) => Redirect::to(&format!(
            "/journal/sign-in?next={}",
            percent_encoding::utf8_percent_encode(next, percent_encoding::NON_ALPHANUMERIC)
        ))
        .into_response(),
        None => Redirect::to("/journal/sign-in").into_response(),
    }
}

/// Where a sign-in may continue to: only the OAuth authorization endpoint of this origin (so
/// the sign-in form is no open redirect).
fn continuation(next: Option<&str>) -> Option<&str> {
    let next = next.filter(|n| n.len() <= 8_000 && n.bytes().all(|b| b.is_ascii_graphic()))?;
    let rest = next.strip_prefix(crate::oauth::metadata::AUTHORIZE_PATH)?;
    (rest.is_empty() || rest.starts_with('?')).then_some(next)
}

impl FromRequestParts<Services> for PageUser {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &Services) -> Result<Self, Response> {
        let Some(token) = cookie(&parts.headers, USER_COOKIE) else {
            return Err(to_sign_in(parts));
        };
        // Only the cookie counts here: whatever Authorization the request carried is replaced.
        let Ok(bearer) = HeaderValue::from_str(&format!("Bearer {token}")) else {
            return Err(to_sign_in(parts));
        };
        parts.headers.insert(header::AUTHORIZATION, bearer);
        let principal = match Principal::from_request_parts(parts, state).await {
            Ok(p) => p,
            Err(Error::Unauthorized(_)) => return Err(to_sign_in(parts)),
            Err(e) => return Err(error_page(&e, false)),
        };
        let key = parts
            .extensions
            .get::<CsrfKey>()
            .cloned()
            .expect("the pages router adds the CSRF key");
        Ok(PageUser {
            principal,
            csrf: key.token(&token),
            cookie: token,
            context: context(parts).map_err(refused)?,
        })
    }
}

#[derive(Deserialize, Default)]
pub struct SignInQuery {
    next: Option<String>,
}

pub async fn sign_in_page(
    headers: HeaderMap,
    axum::Extension(key): axum::Extension<CsrfKey>,
    axum::extract::Query(query): axum::extract::Query<SignInQuery>,
) -> Response {
    let next = continuation(query.next.as_deref());
    sign_in_form(&headers, &key, StatusCode::OK, None, next)
}

/// The sign-in form, bound to a fresh pre-sign-in cookie; `next` is where it continues to.
fn sign_in_form(
    headers: &HeaderMap,
    key: &CsrfKey,
    status: StatusCode,
    problem: Option<&str>,
    next: Option<&str>,
) -> Response {
    let nonce = crate::auth::keys::generate();
    let mut response = page_with(
        status,
        "sign_in.html",
        // Nobody is signed in yet: no navigation, no "Sign out".
        serde_json::json!({
            "csrf": key.token(&nonce),
            "problem": problem,
            "signing_in": true,
            "next": next,
        }),
    );
    response.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(headers, PRE_COOKIE, &nonce, "/journal", 600),
    );
    response
}

#[derive(Deserialize)]
pub struct SignIn {
    key: String,
    #[serde(default)]
    csrf: String,
    next: Option<String>,
}

pub async fn sign_in(State(state): State<Services>, request: Request) -> Response {
    let key = request
        .extensions()
        .get::<CsrfKey>()
        .cloned()
        .expect("the pages router adds the CSRF key");
    let (parts, body) = request.into_parts();
    let headers = parts.headers.clone();
    let connect = parts.extensions.get::<ConnectInfo<SocketAddr>>().cloned();
    let call = match context(&parts) {
        Ok(call) => call,
        Err(e) => return refused(e),
    };
    let form = match Form::<SignIn>::from_request(Request::from_parts(parts, body), &state).await {
        Ok(Form(form)) => form,
        Err(_) => {
            return error_page(
                &Error::BadRequest("the sign-in form is incomplete".into()),
                false,
            );
        }
    };
    let next = continuation(form.next.as_deref());
    let anchored = cookie(&headers, PRE_COOKIE).is_some_and(|n| key.verify(&n, &form.csrf));
    if !anchored {
        return error_page(
            &Error::Forbidden("the form's CSRF token is missing or stale; reload the page".into()),
            false,
        );
    }
    let principal = match key_principal(&state, &headers, connect, &form.key).await {
        Ok(p) => p,
        Err(Refusal::Form(status, reason)) => {
            return sign_in_form(&headers, &key, status, Some(&reason), next);
        }
        Err(Refusal::Page(e)) => return error_page(&e, false),
    };
    // Going to the journal (not back to an OAuth consent, which Record scopes alone may
    // approve): a key the journal would refuse on the next page is refused here, saying why.
    if next.is_none() {
        match journal_refusal(&state, &principal).await {
            Ok(None) => {}
            Ok(Some(reason)) => {
                return sign_in_form(&headers, &key, StatusCode::FORBIDDEN, Some(&reason), next);
            }
            Err(e) => return error_page(&e, false),
        }
    }
    let minted = ops::run(
        &state,
        &principal.tenant,
        call,
        MintToken {
            scopes: None,
            expires_in: None,
            from_token: principal.minted,
            sign_in: true,
        },
    )
    .await;
    match minted.result {
        Ok(token) => signed_in(&headers, &token, next),
        Err(e) => sign_in_form(&headers, &key, e.status(), Some(&e.to_string()), next),
    }
}

/// Why the journal would refuse this key (its account's journal is off, or the key lacks
/// `chats:read`), in words that say what to do; `None` when it would not. Checked at sign-in,
/// so that a person is not let in to a page whose only link leads back to the same refusal.
async fn journal_refusal(state: &Services, principal: &Principal) -> Result<Option<String>, Error> {
    let account = crate::ids::format(crate::ids::Kind::Account, principal.tenant.account_id);
    let on = crate::flags::enabled_for(
        &state.db,
        &principal.tenant,
        crate::flags::Flag::AssistantJournal,
    )
    .await?;
    if !on {
        return Ok(Some(format!(
            "The assistant journal is off for this key's account ({account}). Whoever runs this \
             service turns it on with the command n8v-journal admin flag set assistantJournal on \
             --account {account}, or in the operator console (/internal/admin/feature-flags)."
        )));
    }
    if !principal.scopes().contains(crate::auth::Scope::ChatsRead) {
        return Ok(Some(format!(
            "This key lacks the chats:read scope, which reading the journal needs. Sign in with a \
             key that holds it; one is made with the command n8v-journal admin create-key --account \
             {account} --scopes chats:read,records:read,records:write."
        )));
    }
    Ok(None)
}

/// Why a key did not sign in: shown on the form again, or (anything else) as an error page.
enum Refusal {
    Form(StatusCode, String),
    Page(Error),
}

/// The principal of an API key typed into the form, resolved exactly as a bearer credential
/// would be.
async fn key_principal(
    state: &Services,
    headers: &HeaderMap,
    connect: Option<ConnectInfo<SocketAddr>>,
    key: &str,
) -> Result<Principal, Refusal> {
    let (mut probe, ()) = Request::new(()).into_parts();
    probe.headers = headers.clone();
    let Ok(bearer) = HeaderValue::from_str(&format!("Bearer {}", key.trim())) else {
        return Err(Refusal::Form(
            StatusCode::UNAUTHORIZED,
            "That is not an API key.".into(),
        ));
    };
    probe.headers.insert(header::AUTHORIZATION, bearer);
    if let Some(connect) = connect {
        probe.extensions.insert(connect);
    }
    match Principal::from_request_parts(&mut probe, state).await {
        Ok(p) => Ok(p),
        Err(Error::Unauthorized(reason)) => Err(Refusal::Form(StatusCode::UNAUTHORIZED, reason)),
        // An operator key: operators read no account's journal.
        Err(e @ Error::Forbidden(_)) => Err(Refusal::Form(
            StatusCode::FORBIDDEN,
            Error::Forbidden(format!(
                "{e}; operators use the console at /internal/admin/feature-flags"
            ))
            .to_string(),
        )),
        Err(e) => Err(Refusal::Page(e)),
    }
}

/// The redirect after a sign-in: the session cookie set, the sign-in form's own cleared.
fn signed_in(headers: &HeaderMap, token: &TokenResponse, next: Option<&str>) -> Response {
    let mut response = Redirect::to(next.unwrap_or("/journal")).into_response();
    let cookies = response.headers_mut();
    cookies.append(
        header::SET_COOKIE,
        set_cookie(
            headers,
            USER_COOKIE,
            &token.access_token,
            "/",
            token.expires_in,
        ),
    );
    cookies.append(
        header::SET_COOKIE,
        set_cookie(headers, PRE_COOKIE, "", "/journal", 0),
    );
    response
}

#[derive(Deserialize)]
pub struct Posted {
    #[serde(default)]
    pub csrf: String,
}

pub async fn sign_out(
    State(state): State<Services>,
    user: PageUser,
    headers: HeaderMap,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Form(form): Form<Posted>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    // Clearing the cookie in this browser is not enough: a copy of it would still work until
    // it expires. Its id goes on the server's list of ended sign-ins.
    if let Some(claims) = state.auth.jwt.verify(&user.cookie)
        && let Some(id) = claims.token_id()
    {
        let expires_at = chrono::DateTime::from_timestamp(claims.exp, 0).unwrap_or_default();
        if let Err(e) = state.db.sign_out(id, expires_at).await {
            return error_page(&Error::from(e), true);
        }
    }
    let mut fresh = sign_in_form(
        &headers,
        &key,
        StatusCode::OK,
        Some("You are signed out."),
        None,
    );
    fresh.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&headers, USER_COOKIE, "", "/", 0),
    );
    fresh
}

pub fn csrf_refused() -> Error {
    Error::Forbidden("the form's CSRF token is missing or does not match; reload the page".into())
}
