//! The operator console at `/internal/admin/feature-flags`, for browsers (HTML asked for, or a
//! form posted); scripts keep the JSON API at the same address. Operators sign in with an
//! operator key, exchanged for a short-lived cookie; customer credentials get a `404` (the
//! console is not advertised to them). The console lists every flag with its global value and
//! overrides, finds accounts by id or name, sets or clears a value, and shows the operator log.
//! It reads no account's journal: `operator` reaches flags, account names and the log only.

use super::render::{error_page, page, page_with};
use super::user::PRE_COOKIE;
use super::{CsrfKey, cookie, set_cookie, wants_html};
use crate::auth::Operator;
use crate::error::Error;
use crate::flags::Flag;
use crate::flags::actions::{self as operator_flags, FlagChange, Overview};
use crate::ids::{self, Kind};
use crate::ops::Services;
use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use serde::Deserialize;
use serde_json::json;
use std::net::SocketAddr;
use tower::ServiceExt;
use uuid::Uuid;

pub const PATH: &str = "/internal/admin/feature-flags";
const CONSOLE_COOKIE: &str = "n8v_console";
const COOKIE_PATH: &str = "/internal/admin";
/// How long a console sign-in lasts.
const TTL_SECS: i64 = 15 * 60;

/// The console's own router, reached through [`divert`].
pub fn router(state: Services) -> Router {
    let key = CsrfKey::from_config(&state.config);
    Router::new()
        .route(PATH, get(show).post(act))
        .layer(axum::Extension(key))
        .with_state(state)
}

/// Sends browser requests for the console's address to the console; everything else (the JSON
/// API) goes on as before.
pub async fn divert(State(console): State<Router>, request: Request, next: Next) -> Response {
    let form = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let browser = match *request.method() {
        Method::GET | Method::HEAD => wants_html(request.headers()),
        Method::POST => form,
        _ => false,
    };
    if request.uri().path() == PATH && browser {
        match console.oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        }
    } else {
        next.run(request).await
    }
}

fn not_found() -> Response {
    error_page(
        &Error::NotFound("no such endpoint; see /openapi.json".into()),
        false,
    )
}

/// Whether the request carries an account's key as a bearer: those get a 404 here. A journal
/// page's cookie is not a key (a browser signed in to the journal sends it everywhere under
/// `/`): that browser is shown the console's sign-in like anyone else.
fn carries_customer_credential(headers: &HeaderMap) -> bool {
    headers.contains_key(header::AUTHORIZATION)
}

/// The operator signed in with this request's console cookie, and how the log names them.
async fn signed_in(state: &Services, headers: &HeaderMap) -> Result<Option<(Uuid, String)>, Error> {
    let Some(token) = cookie(headers, CONSOLE_COOKIE) else {
        return Ok(None);
    };
    let Some(cookie) = state.auth.jwt.verify_operator(&token) else {
        return Ok(None);
    };
    if let Some(id) = cookie.id
        && state.db.signed_out(id).await?
    {
        return Ok(None);
    }
    let credential = cookie.credential;
    Ok(crate::flags::operator::actor(&state.db, credential)
        .await?
        .map(|actor| (credential, actor)))
}

/// The operator signed in with this request (how the log names them, and the console cookie
/// the form's CSRF token is bound to), or what to answer instead: a `404` to a customer
/// credential, else the sign-in form with `status` and `problem`.
async fn operator(
    state: &Services,
    headers: &HeaderMap,
    key: &CsrfKey,
    status: StatusCode,
    problem: Option<&str>,
) -> Result<(String, String), Response> {
    match signed_in(state, headers).await {
        Err(e) => Err(error_page(&e, false)),
        Ok(Some((_, actor))) => Ok((actor, cookie(headers, CONSOLE_COOKIE).unwrap_or_default())),
        Ok(None) if carries_customer_credential(headers) => Err(not_found()),
        Ok(None) => Err(sign_in_form(headers, key, status, problem)),
    }
}

fn sign_in_form(
    headers: &HeaderMap,
    key: &CsrfKey,
    status: StatusCode,
    problem: Option<&str>,
) -> Response {
    let nonce = crate::auth::keys::generate();
    let mut response = page_with(
        status,
        "console_sign_in.html",
        json!({ "csrf": key.token(&nonce), "problem": problem, "console": true }),
    );
    response.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(headers, PRE_COOKIE, &nonce, COOKIE_PATH, 600),
    );
    response
}

#[derive(Deserialize, Default)]
pub struct ShowQuery {
    #[serde(default)]
    account: Option<String>,
}

async fn show(
    State(state): State<Services>,
    headers: HeaderMap,
    axum::Extension(key): axum::Extension<CsrfKey>,
    Query(q): Query<ShowQuery>,
) -> Response {
    let (actor, token) = match operator(&state, &headers, &key, StatusCode::OK, None).await {
        Ok(signed_in) => signed_in,
        Err(answer) => return answer,
    };
    match console_data(&state, q.account.as_deref()).await {
        Ok(mut data) => {
            data["csrf"] = json!(key.token(&token));
            data["actor"] = json!(actor);
            data["query"] = json!(q.account.unwrap_or_default());
            data["console"] = json!(true);
            page("console.html", data)
        }
        Err(e) => error_page(&e, false),
    }
}

async fn console_data(state: &Services, query: Option<&str>) -> Result<serde_json::Value, Error> {
    let Overview { flags, found, log } = operator_flags::overview(&state.db, query).await?;
    // Each account found, with its override of every flag.
    let found = found.map(|accounts| {
        accounts
            .into_iter()
            .map(|a| {
                let overrides: Vec<_> = flags
                    .iter()
                    .map(|f| {
                        json!({
                            "flag": f.flag,
                            "override": f.overrides.iter()
                                .find(|o| o.account_id == a.account_id).map(|o| o.enabled),
                            "effective": f.overrides.iter()
                                .find(|o| o.account_id == a.account_id).map(|o| o.enabled)
                                .or(f.global).unwrap_or(f.default),
                        })
                    })
                    .collect();
                json!({ "account": a, "flags": overrides })
            })
            .collect::<Vec<_>>()
    });
    Ok(json!({ "flags": flags, "found": found, "log": log }))
}

#[derive(Deserialize)]
pub struct ActForm {
    #[serde(default)]
    csrf: String,
    /// `sign-in`, `sign-out` or `set`.
    action: String,
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    flag: Option<String>,
    /// An account id (`acc_…`); absent for the global value.
    #[serde(default)]
    account: Option<String>,
    /// `on`, `off` or `clear`.
    #[serde(default)]
    value: Option<String>,
    /// The account search to return to.
    #[serde(default)]
    back: Option<String>,
}

async fn act(State(state): State<Services>, request: Request) -> Response {
    let key = request
        .extensions()
        .get::<CsrfKey>()
        .cloned()
        .expect("the console router adds the CSRF key");
    let (parts, body) = request.into_parts();
    let headers = parts.headers.clone();
    let connect = parts.extensions.get::<ConnectInfo<SocketAddr>>().cloned();
    let Ok(bytes) = axum::body::to_bytes(body, 16 * 1024).await else {
        return error_page(
            &Error::PayloadTooLarge("the form is too large".into()),
            false,
        );
    };
    let Ok(form) = serde_urlencoded::from_bytes::<ActForm>(&bytes) else {
        return error_page(&Error::BadRequest("the form is incomplete".into()), false);
    };
    if form.action == "sign-in" {
        return sign_in(&state, &headers, connect, &key, &form).await;
    }
    let again = Some("Sign in again.");
    let (actor, token) =
        match operator(&state, &headers, &key, StatusCode::UNAUTHORIZED, again).await {
            Ok(signed_in) => signed_in,
            Err(answer) => return answer,
        };
    if !key.verify(&token, &form.csrf) {
        return error_page(&super::user::csrf_refused(), false);
    }
    match form.action.as_str() {
        "sign-out" => {
            // Ended on the server too, so a copy of the cookie no longer works.
            if let Some(cookie) = state.auth.jwt.verify_operator(&token)
                && let Some(id) = cookie.id
            {
                let expires_at =
                    chrono::DateTime::from_timestamp(cookie.expires_at, 0).unwrap_or_default();
                if let Err(e) = state.db.sign_out(id, expires_at).await {
                    return error_page(&Error::from(e), false);
                }
            }
            let mut response = Redirect::to(PATH).into_response();
            response.headers_mut().append(
                header::SET_COOKIE,
                set_cookie(&headers, CONSOLE_COOKIE, "", COOKIE_PATH, 0),
            );
            response
        }
        "set" => match set(&state, &actor, &form).await {
            Ok(()) => {
                let back = form.back.as_deref().unwrap_or("");
                let query: String = url_query(back);
                Redirect::to(&format!("{PATH}{query}")).into_response()
            }
            Err(e) => error_page(&e, false),
        },
        _ => error_page(&Error::BadRequest("unknown action".into()), false),
    }
}

fn url_query(back: &str) -> String {
    if back.is_empty() {
        return String::new();
    }
    let encoded: String =
        percent_encoding::utf8_percent_encode(back, percent_encoding::NON_ALPHANUMERIC).collect();
    format!("?account={encoded}")
}

async fn set(state: &Services, actor: &str, form: &ActForm) -> Result<(), Error> {
    let flag = Flag::parse(form.flag.as_deref().unwrap_or("")).map_err(Error::BadRequest)?;
    let account = match form
        .account
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        None => None,
        Some(a) => Some(ids::parse(Kind::Account, a).ok_or_else(|| {
            Error::BadRequest(format!("{:?} is not an account id (acc_…)", ids::shown(a)))
        })?),
    };
    let value = match form.value.as_deref() {
        Some("on") => Some(true),
        Some("off") => Some(false),
        Some("clear") => None,
        _ => return Err(Error::BadRequest("value must be on, off or clear".into())),
    };
    let change = FlagChange {
        flag,
        account,
        value,
    };
    operator_flags::change(state.db.pool(), actor, change).await?;
    Ok(())
}

async fn sign_in(
    state: &Services,
    headers: &HeaderMap,
    connect: Option<ConnectInfo<SocketAddr>>,
    key: &CsrfKey,
    form: &ActForm,
) -> Response {
    let anchored = cookie(headers, PRE_COOKIE).is_some_and(|n| key.verify(&n, &form.csrf));
    if !anchored {
        return error_page(&super::user::csrf_refused(), false);
    }
    let secret = form.key.as_deref().unwrap_or("").trim();
    let (mut probe, ()) = Request::new(()).into_parts();
    probe.headers = headers.clone();
    let Ok(bearer) = HeaderValue::from_str(&format!("Bearer {secret}")) else {
        return sign_in_form(
            headers,
            key,
            StatusCode::UNAUTHORIZED,
            Some("That is not a key."),
        );
    };
    probe.headers.insert(header::AUTHORIZATION, bearer);
    if let Some(connect) = connect {
        probe.extensions.insert(connect);
    }
    // Resolved exactly as a bearer credential: failures count against the address.
    let operator = match Operator::from_request_parts(&mut probe, state).await {
        Ok(o) => o,
        // An account's key: the console does not exist for it.
        Err(Error::NotFound(_)) => return not_found(),
        Err(Error::Unauthorized(reason)) => {
            return sign_in_form(headers, key, StatusCode::UNAUTHORIZED, Some(&reason));
        }
        Err(e) => return error_page(&e, false),
    };
    let now = state.clock.now().timestamp();
    let token = match state
        .auth
        .jwt
        .mint_operator(operator.credential_id, now, TTL_SECS)
    {
        Ok(t) => t,
        Err(e) => return error_page(&Error::Internal(e.into()), false),
    };
    let mut response = Redirect::to(PATH).into_response();
    let cookies = response.headers_mut();
    cookies.append(
        header::SET_COOKIE,
        set_cookie(headers, CONSOLE_COOKIE, &token, COOKIE_PATH, TTL_SECS),
    );
    cookies.append(
        header::SET_COOKIE,
        set_cookie(headers, PRE_COOKIE, "", COOKIE_PATH, 0),
    );
    response
}
