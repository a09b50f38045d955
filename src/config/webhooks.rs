//! Webhook delivery settings (`src/webhooks/`, `src/jobs/webhooks.rs`).

use super::env::{Env, HOUR, SECOND};
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// `N8V_WEBHOOK_ALLOW_PRIVATE` (false): let endpoints be plain `http` and on loopback,
    /// private and link-local addresses. For tests and private deployments: it lets anyone who
    /// can make an endpoint have the service send requests into its own network.
    pub allow_private: bool,
    /// `N8V_WEBHOOK_TIMEOUT_SECONDS` (10, 1 to 60): longest one delivery may take, connecting
    /// included.
    pub timeout: Duration,
    /// `N8V_WEBHOOK_MAX_ATTEMPTS` (9, 1 to 100): attempts before a delivery is given up as
    /// `failed`; with the backoff below they span about a day.
    pub max_attempts: i32,
    /// `N8V_WEBHOOK_FIRST_RETRY_SECONDS` (10): the wait after the first failed attempt; each
    /// next wait is four times longer, up to 10 hours (10 s, 40 s, 160 s, … 10 h, 10 h).
    pub first_retry: Duration,
    /// `N8V_WEBHOOK_DISABLE_AFTER` (30): failed attempts in a row (any of the endpoint's
    /// deliveries) after which an endpoint is disabled and `endpoint.disabled` sent.
    pub disable_after: i32,
    /// `N8V_WEBHOOK_SECRET_GRACE_HOURS` (24, at most 720): how long a rotated-out secret keeps
    /// signing beside the new one.
    pub secret_grace: Duration,
    /// `N8V_WEBHOOK_BATCH` (20, 1 to 500): deliveries one worker pass claims at once.
    pub batch: i64,
    /// `N8V_WEBHOOK_SCHEDULE` (`*/2 * * * * *`, every 2 seconds): when the delivery worker
    /// looks for due deliveries (cron with seconds).
    pub schedule: String,
}

/// Longest wait between two attempts.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(10 * 3600);

impl WebhookConfig {
    pub(super) fn read(env: &Env) -> anyhow::Result<Self> {
        Ok(Self {
            allow_private: env.parse("N8V_WEBHOOK_ALLOW_PRIVATE", false)?,
            timeout: env
                .duration("N8V_WEBHOOK_TIMEOUT_SECONDS", SECOND, 10, 1)?
                .min(60 * SECOND),
            max_attempts: env.parse("N8V_WEBHOOK_MAX_ATTEMPTS", 9)?.clamp(1, 100),
            first_retry: env.duration("N8V_WEBHOOK_FIRST_RETRY_SECONDS", SECOND, 10, 1)?,
            disable_after: env.parse("N8V_WEBHOOK_DISABLE_AFTER", 30)?.max(1),
            secret_grace: env
                .duration("N8V_WEBHOOK_SECRET_GRACE_HOURS", HOUR, 24, 0)?
                .min(720 * HOUR),
            batch: env.parse("N8V_WEBHOOK_BATCH", 20)?.clamp(1, 500),
            schedule: env.text("N8V_WEBHOOK_SCHEDULE", "*/2 * * * * *"),
        })
    }

    /// The wait after failed attempt number `attempts` (1, 2, …).
    pub fn retry_wait(&self, attempts: i32) -> Duration {
        let exponent = attempts.saturating_sub(1).clamp(0, 20) as u32;
        self.first_retry
            .saturating_mul(4u32.saturating_pow(exponent))
            .min(MAX_RETRY_WAIT)
    }
}
