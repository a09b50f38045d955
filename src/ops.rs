//! The application layer: one type per public operation, the only place its rules are written.
//!
//! An operation is its typed input. Implementing [`Op`] gives it a [`Spec`] (names, journal use,
//! scope, whether it needs the journal flag, whether success creates) and a `run` that does the
//! work inside an [`Operation`] and returns domain values. [`run`] is the one way in: it begins
//! the journalled operation, applies the spec's checks, runs the input and finishes the
//! operation, so no adapter can forget to record or commit. REST, MCP and the pages are adapters
//! that turn requests into inputs and [`Finished`] values into answers; nothing here knows HTTP.

pub mod account;
pub mod audit;
pub mod decisions;
pub mod digests;
pub mod episodes;
pub mod export;
pub mod exposures;
pub mod hooks;
pub mod journal;
mod kinds;
pub mod loops;
pub mod oauth;
pub mod records;
pub mod releases;
pub mod search;
mod specs;
pub mod token;
pub mod webhooks;

use crate::auth::AuthContext;
use crate::auth::jwt::JwtKeys;
use crate::auth::limits::Limits;
use crate::clock::Clock;
use crate::config::Config;
use crate::db::{Db, Tenant};
use crate::error::{Error, Result};
use crate::ids::SessionId;
use crate::journal::exposures::{Exposed, Field, ServerSecret};
pub use crate::operation::{
    CallContext, ContextError, Effect, JournalUse, Operation, RawContext, Spec, Via,
};
use crate::scrub::Found;
use chrono::{DateTime, Utc};
pub use specs::SPECS;
use std::future::Future;
use std::sync::Arc;

/// What operations need from the service besides the caller: the database, the settings, the
/// credentials machinery and the clock.
#[derive(Clone)]
pub struct Services {
    pub db: Db,
    pub config: Arc<Config>,
    pub auth: Arc<AuthContext>,
    pub clock: Arc<dyn Clock>,
    /// What scrubbed credentials are fingerprinted under (`N8V_FINGERPRINT_SECRET`, else the
    /// database's secret).
    pub fingerprints: ServerSecret,
    /// The exports streaming in this process (bounded: see `ops::export::ExportSlots`).
    pub exports: Arc<export::ExportSlots>,
    /// The OAuth authorization server's state (the registration budget).
    pub oauth: Arc<crate::oauth::OAuthState>,
}

impl Services {
    pub fn new(db: Db, config: Config, clock: Arc<dyn Clock>) -> Self {
        let db = db.with_idle_in_transaction(config.db_idle_in_transaction);
        let secret = match &config.jwt_secret {
            Some(s) => s.expose().as_bytes().to_vec(),
            None => {
                tracing::warn!(
                    "N8V_JWT_SECRET is not set: minted tokens use a random secret and stop \
                     working when this process exits; set it for production and replicas"
                );
                crate::auth::keys::generate().into_bytes()
            }
        };
        let auth = AuthContext {
            db: db.clone(),
            jwt: JwtKeys::new(&secret).expect("HS256 accepts any non-empty secret"),
            limits: Limits::from_config(&config),
            clock: clock.clone(),
            issuer: config.own_base(),
        };
        Self {
            db,
            fingerprints: ServerSecret::new(config.fingerprint_secret.as_ref().map(|s| s.expose())),
            exports: export::ExportSlots::new(config.exports),
            oauth: Arc::new(crate::oauth::OAuthState::new(&config.oauth)),
            config: Arc::new(config),
            auth: Arc::new(auth),
            clock,
        }
    }
}

/// A public operation, as its typed input.
pub trait Op: Send + Sized + Clone {
    /// Its rules, in one place for every adapter.
    const SPEC: Spec;
    type Output: Send;

    /// Whether [`run`] may run it again after it lost a race: true unless its work reaches
    /// outside its transaction (a paid model, a budget reserved on a connection of its own),
    /// which a rollback would not undo and a second attempt would do twice.
    const RETRIED: bool = true;

    /// The ids the call acts on, as the journal keeps them (never longer than an id).
    fn targets(&self) -> Vec<Target> {
        Vec::new()
    }

    /// The whole operation as one statement, where it has such a path and the case is one it
    /// handles (see `operation::fused`): the answer, recorded and committed. `None`: the
    /// general path runs ([`Op::run`]).
    fn fused(
        &self,
        _services: &Services,
        _tenant: &Tenant,
        _context: &CallContext,
    ) -> impl Future<Output = Option<Finished<Self::Output>>> + Send {
        async { None }
    }

    /// The work, inside the journalled operation; the spec's checks have passed.
    fn run(
        self,
        op: &mut Operation,
        services: &Services,
    ) -> impl Future<Output = Result<Self::Output>> + Send;
}

/// An operation's result after it was recorded and committed (or rolled back and recorded as
/// failed), with the session the call was recorded in.
pub struct Finished<T> {
    pub spec: Spec,
    pub result: Result<T>,
    pub session: Option<SessionId>,
}

impl<T> Finished<T> {
    /// A refusal before any operation began (a bad `X-Session-Id`, say): nothing recorded.
    fn refused(spec: Spec, error: Error) -> Self {
        Self {
            spec,
            result: Err(error),
            session: None,
        }
    }

    /// The status recorded for the call: the spec's success status, or the error's.
    pub fn status(&self) -> u16 {
        match &self.result {
            Ok(_) => self.spec.success_status(),
            Err(e) => e.status().as_u16(),
        }
    }
}

/// Runs one public operation for a caller: begin, check, run, record, commit. An attempt that
/// loses a race with a concurrent transaction ([`Error::Contended`]: a deadlock, a
/// serialization failure, a session deleted under it) was rolled back whole, so it is run
/// again from `BEGIN`, up to [`ATTEMPTS`] times in all; the last one's refusal is recorded and
/// answered (`503` with `Retry-After`). Nothing an attempt does outlives its rollback: the
/// caller's rate limit was counted once, before this, and nothing is sent before the commit.
pub async fn run<I: Op>(
    services: &Services,
    tenant: &Tenant,
    context: CallContext,
    input: I,
) -> Finished<I::Output> {
    let retries = if I::RETRIED { ATTEMPTS } else { 1 };
    for attempt in 1..retries {
        let finished = run_once(services, tenant, context.clone(), input.clone(), false).await;
        if !finished.result.as_ref().is_err_and(Error::is_contended) {
            return finished;
        }
        if let Err(e) = &finished.result {
            tracing::info!(attempt, error = %e, "the operation lost a race; running it again");
        }
        contention_pause(attempt).await;
    }
    run_once(services, tenant, context, input, true).await
}

/// How many times [`run`] tries an operation that keeps losing races.
pub use crate::operation::ATTEMPTS;

/// Runs `attempt` (a whole transaction, from `BEGIN` to commit) again when it loses a race
/// ([`Error::Contended`]), up to [`ATTEMPTS`] times in all: for work done outside [`run`].
pub(crate) async fn retried<T, F, Fut>(mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T>>,
{
    for n in 1..ATTEMPTS {
        match attempt().await {
            Err(e) if e.is_contended() => {
                tracing::info!(attempt = n, error = %e, "the transaction lost a race; again");
                contention_pause(n).await;
            }
            done => return done,
        }
    }
    attempt().await
}

/// A short wait before the next attempt, longer each time and jittered, so the transactions
/// that collided do not meet again in step.
async fn contention_pause(attempt: u32) {
    use rand::Rng;
    let base = 10 * u64::from(attempt);
    let millis = rand::rng().random_range(base..base * 3);
    tokio::time::sleep(std::time::Duration::from_millis(millis)).await;
}

/// How many pieces of an operation's after-commit work (a long conversation's drafts) run at
/// once.
const AFTER_COMMIT_CONCURRENCY: usize = 4;

/// One attempt of [`run`]. Unless it is the `last`, a race lost by the operation itself is
/// returned unrecorded (the transaction is rolled back when `op` is dropped), to be run again.
async fn run_once<I: Op>(
    services: &Services,
    tenant: &Tenant,
    mut context: CallContext,
    input: I,
    last: bool,
) -> Finished<I::Output> {
    for target in input.targets() {
        context.targets.push(target.text);
        context
            .exposed
            .extend(Exposed::each(Field::Target, &target.found));
    }
    if let Some(finished) = input.fused(services, tenant, &context).await {
        // Counted as `Operation::begin` counts the general path (which a handed-back case runs).
        crate::telemetry::record_operation(I::SPEC.id, tenant.account_id);
        return finished;
    }
    let begun = Operation::begin(
        &services.db,
        tenant,
        I::SPEC,
        context,
        services.clock.now(),
        services.config.session_rules,
    )
    .await;
    let mut op = match begun {
        Ok(op) => op,
        Err(error) => return Finished::refused(I::SPEC, error),
    };
    let result = match op.check() {
        Ok(()) => input.run(&mut op, services).await,
        Err(error) => Err(error),
    };
    if !last && result.as_ref().is_err_and(Error::is_contended) {
        return Finished {
            spec: I::SPEC,
            result,
            session: None,
        };
    }
    let mut finished = Finished {
        spec: I::SPEC,
        result,
        session: None,
    };
    let after = op.take_after_commit();
    match op.finish(finished.status(), &services.fingerprints).await {
        Ok(session) => finished.session = session,
        // Recording or committing failed: nothing of the operation remains.
        Err(error) => finished.result = Err(error),
    }
    if finished.result.is_ok() {
        use futures_util::StreamExt;
        futures_util::stream::iter(after)
            .buffer_unordered(AFTER_COMMIT_CONCURRENCY)
            .collect::<Vec<()>>()
            .await;
    }
    finished
}

/// A `limit` argument: the default when absent, else within `1..=max`.
pub(crate) fn limit(limit: Option<i64>, default: i64, max: i64) -> Result<i64> {
    let limit = limit.unwrap_or(default);
    if (1..=max).contains(&limit) {
        Ok(limit)
    } else {
        Err(Error::BadRequest(format!(
            "limit must be between 1 and {max}"
        )))
    }
}

/// A page's `cursor` as given: a blank one is none (the first page), as a blank filter is.
pub(crate) fn cursor_given(cursor: &Option<String>) -> Option<&str> {
    cursor.as_deref().filter(|c| !c.trim().is_empty())
}

/// The id an input names (a path's, an argument's), as the journal keeps it.
pub(crate) fn target_of<T: crate::ids::TypedId + std::fmt::Display>(text: &str) -> Target {
    target(&T::arg(text))
}

/// The id an input names, checked when the operation runs: a 404 when it is not one (nothing
/// of the caller's could have it).
pub(crate) fn named<T: crate::ids::TypedId>(text: &str) -> Result<T> {
    Ok(T::arg(text)?)
}

/// An RFC 3339 time an input sends, in UTC; `name` says which in the 400.
pub(crate) fn parse_time(name: &str, text: Option<&str>) -> Result<Option<DateTime<Utc>>> {
    text.map(|t| {
        DateTime::parse_from_rfc3339(t)
            .map(|d| d.with_timezone(&Utc))
            .map_err(|_| {
                Error::BadRequest(format!(
                    "{name} {:?} is not an RFC 3339 time (2026-11-10T09:00:00Z)",
                    crate::ids::shown(t)
                ))
            })
    })
    .transpose()
}

/// A `YYYY-MM-DD` day an input sends; `name` says which in the 400.
pub(crate) fn parse_date(name: &str, text: Option<&str>) -> Result<Option<chrono::NaiveDate>> {
    text.map(|t| crate::journal::meta::parse_day(name, t).map_err(Error::BadRequest))
        .transpose()
}

/// One id a call acts on, as the journal keeps it, and the credentials scrubbed from it.
pub struct Target {
    text: String,
    found: Vec<Found>,
}

impl From<String> for Target {
    fn from(text: String) -> Self {
        Self {
            text,
            found: Vec::new(),
        }
    }
}

/// The journal's copy of an id argument: the id itself, or a shortened copy of what was sent.
pub(crate) fn target<T: std::fmt::Display>(arg: &crate::ids::IdArg<T>) -> Target {
    match arg {
        Ok(id) => id.to_string().into(),
        Err(bad) => Target {
            text: bad.shown().to_owned(),
            found: bad.found().to_vec(),
        },
    }
}
