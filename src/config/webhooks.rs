//! Webhook delivery settings (`src/webhooks/`, `src/jobs/webhooks.rs`).

use super::parse;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// `N8V_WEBHOOK_ALLOW_PRIVATE` (false): let endpoints be plain `http` and on loopback,
    /// private and link-local addresses. For tests and private deployments: it lets anyone who
    /// can make an endpoint have the service send requests into its own network.
    pub allow_private: bool,
    /// `N8V_WEBHOOK_TIMEOUT_SECONDS` (10): longest one delivery may take, connecting included.
    pub timeout: Duration,
    /// `N8V_WEBHOOK_MAX_ATTEMPTS` (9): attempts before a delivery is given up as `failed`;
    /// with the backoff below they span about a day.
    pub max_attempts: i32,
    /// `N8V_WEBHOOK_FIRST_RETRY_SECONDS` (10): the wait after the first failed attempt; each
    /// next wait is four times longer, up to 10 hours (10 s, 40 s, 160 s, … 10 h, 10 h).
    pub first_retry: Duration,
    /// `N8V_WEBHOOK_DISABLE_AFTER` (30): failed attempts in a row (any of the endpoint's
    /// deliveries) after which an endpoint is disabled and `endpoint.disabled` sent.
    pub disable_after: i32,
    /// `N8V_WEBHOOK_SECRET_GRACE_HOURS` (24): how long a rotated-out secret keeps signing
    /// beside the new one.
    pub secret_grace: Duration,
    /// `N8V_WEBHOOK_BATCH` (20): deliveries one worker pass claims at once.
    pub batch: i64,
    /// `N8V_WEBHOOK_SCHEDULE` (`*/2 * * * * *`, every 2 seconds): when the delivery worker
    /// looks for due deliveries (cron with seconds).
    pub schedule: String,
}

/// Longest wait between two attempts.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(10 * 3600);

impl Default for WebhookConfig {
    fn default() -> Self {
        Self {
            allow_private: false,
            timeout: Duration::from_secs(10),
            max_attempts: 9,
            first_retry: Duration::from_secs(10),
            disable_after: 30,
            secret_grace: Duration::from_secs(24 * 3600),
            batch: 20,
            schedule: "*/2 * * * * *".into(),
        }
    }
}

impl WebhookConfig {
    pub(super) fn from_env() -> anyhow::Result<Self> {
        let d = Self::default();
        Ok(Self {
            allow_private: parse("N8V_WEBHOOK_ALLOW_PRIVATE", false)?,
            timeout: Duration::from_secs(parse("N8V_WEBHOOK_TIMEOUT_SECONDS", 10u64)?.clamp(1, 60)),
            max_attempts: parse("N8V_WEBHOOK_MAX_ATTEMPTS", d.max_attempts)?.clamp(1, 100),
            first_retry: Duration::from_secs(
                parse("N8V_WEBHOOK_FIRST_RETRY_SECONDS", 10u64)?.max(1),
            ),
            disable_after: parse("N8V_WEBHOOK_DISABLE_AFTER", d.disable_after)?.max(1),
            secret_grace: Duration::from_secs(
                parse("N8V_WEBHOOK_SECRET_GRACE_HOURS", 24u64)?.min(24 * 30) * 3600,
            ),
            batch: parse("N8V_WEBHOOK_BATCH", d.batch)?.clamp(1, 500),
            schedule: std::env::var("N8V_WEBHOOK_SCHEDULE").unwrap_or(d.schedule),
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
