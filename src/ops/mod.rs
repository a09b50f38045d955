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
pub mod episodes;
pub mod export;
pub mod exposures;
pub mod flags;
pub mod journal;
pub mod loops;
pub mod oauth;
pub mod records;
pub mod search;
pub mod token;

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
    CallContext, ContextError, JournalUse, Operation, RawContext, Spec, Via,
};
use crate::scrub::Found;
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
    /// The OAuth authorization server's state (the registration budget).
    pub oauth: Arc<crate::oauth::OAuthState>,
}

impl Services {
    pub fn new(db: Db, config: Config, clock: Arc<dyn Clock>) -> Self {
        let secret = match &config.jwt_secret {
            Some(s) => s.as_bytes().to_vec(),
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
            issuer: config.public_base(),
        };
        Self {
            db,
            fingerprints: ServerSecret::new(config.fingerprint_secret.as_deref()),
            oauth: Arc::new(crate::oauth::OAuthState::new(&config.oauth)),
            config: Arc::new(config),
            auth: Arc::new(auth),
            clock,
        }
    }
}

/// A public operation, as its typed input.
pub trait Op: Send + Sized {
    /// Its rules, in one place for every adapter.
    const SPEC: Spec;
    type Output: Send;

    /// The ids the call acts on, as the journal keeps them (never longer than an id).
    fn targets(&self) -> Vec<Target> {
        Vec::new()
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

/// Runs one public operation for a caller: begin, check, run, record, commit.
pub async fn run<I: Op>(
    services: &Services,
    tenant: &Tenant,
    mut context: CallContext,
    input: I,
) -> Finished<I::Output> {
    for target in input.targets() {
        context.targets.push(target.text);
        context
            .exposed
            .extend(Exposed::each(Field::Target, &target.found));
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
    let mut finished = Finished {
        spec: I::SPEC,
        result,
        session: None,
    };
    match op.finish(finished.status(), &services.fingerprints).await {
        Ok(session) => finished.session = session,
        // Recording or committing failed: nothing of the operation remains.
        Err(error) => finished.result = Err(error),
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
