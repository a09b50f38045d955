//! Summaries, their models and cost, and the sweep that closes quiet sessions.

use super::env::{Env, SECOND};
use super::secret::{Secret, SecretUrl};
use chrono::Duration as Span;
use std::time::Duration;

/// A model provider's endpoint.
#[derive(Clone, Debug)]
pub struct ProviderSettings {
    pub base_url: SecretUrl,
    pub api_key: Secret,
    pub model: String,
}

/// Which model customer accounts' summaries and digests use (`N8V_SUMMARY_CUSTOMER_PROVIDER`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CustomerProvider {
    /// Gemini (`N8V_GEMINI_API_KEY`), the default.
    #[default]
    Gemini,
    /// The OpenAI-compatible endpoint (`N8V_PROXY_BASE_URL`), e.g. a local model server,
    /// charged at the configured rates.
    Proxy,
    /// No model: code writes every customer summary.
    Code,
}

impl CustomerProvider {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "gemini" => Ok(Self::Gemini),
            "proxy" => Ok(Self::Proxy),
            "code" => Ok(Self::Code),
            other => anyhow::bail!(
                "N8V_SUMMARY_CUSTOMER_PROVIDER is {other:?}; use gemini (the default), proxy \
                 (the OpenAI-compatible endpoint at N8V_PROXY_BASE_URL) or code (no model)"
            ),
        }
    }
}

/// Summaries, their cost, and the sweep that closes quiet sessions.
#[derive(Clone, Debug)]
pub struct SummaryConfig {
    /// Customer accounts (`N8V_GEMINI_API_KEY` set); otherwise code summaries.
    pub gemini: Option<ProviderSettings>,
    /// Internal accounts (`N8V_PROXY_BASE_URL` set), and customers when `customer_provider`
    /// says so; otherwise code summaries.
    pub proxy: Option<ProviderSettings>,
    /// Which of them customer accounts use.
    pub customer_provider: CustomerProvider,
    pub rates: crate::summarize::Rates,
    /// Per account and calendar month (UTC), reserved per model call.
    pub monthly_budget_usd: rust_decimal::Decimal,
    /// Most parts one summary sends to a model; code summarises the rest.
    pub max_parts: usize,
    pub timeout: Duration,
    /// Open sessions quiet this long are closed by the sweep.
    pub quiet_after: Span,
    /// An episode whose last turn is this old has settled: a post drafts it
    /// (`N8V_EPISODE_SETTLE_MINUTES`; 0 drafts on every post that changed something).
    pub episode_settle: Span,
    /// When the sweep runs (cron, seconds first).
    pub sweep_schedule: String,
}

impl SummaryConfig {
    pub(super) fn read(env: &Env) -> anyhow::Result<Self> {
        let gemini = env
            .var("N8V_GEMINI_API_KEY")
            .map(|api_key| ProviderSettings {
                base_url: env
                    .text(
                        "N8V_GEMINI_BASE_URL",
                        "https://generativelanguage.googleapis.com",
                    )
                    .into(),
                api_key: api_key.into(),
                model: env.text("N8V_GEMINI_MODEL", "gemini-3.1-flash-lite"),
            });
        let proxy = env
            .var("N8V_PROXY_BASE_URL")
            .map(|base_url| ProviderSettings {
                base_url: base_url.into(),
                api_key: env.text("N8V_PROXY_API_KEY", "").into(),
                model: env.text("N8V_PROXY_MODEL", "gpt-5.6-luna"),
            });
        let customer_provider = match env.var("N8V_SUMMARY_CUSTOMER_PROVIDER") {
            Some(text) => CustomerProvider::parse(&text)?,
            None => CustomerProvider::default(),
        };
        if customer_provider == CustomerProvider::Proxy && proxy.is_none() {
            anyhow::bail!(
                "N8V_SUMMARY_CUSTOMER_PROVIDER=proxy sends customer summaries to the \
                 OpenAI-compatible endpoint, but N8V_PROXY_BASE_URL is not set"
            );
        }
        Ok(Self {
            gemini,
            proxy,
            customer_provider,
            rates: crate::summarize::Rates {
                input_usd_per_mtok: env.parse("N8V_SUMMARY_INPUT_USD_PER_MTOK", "0.25".parse()?)?,
                output_usd_per_mtok: env
                    .parse("N8V_SUMMARY_OUTPUT_USD_PER_MTOK", "1.50".parse()?)?,
            },
            monthly_budget_usd: env.parse("N8V_SUMMARY_MONTHLY_BUDGET_USD", "5".parse()?)?,
            max_parts: env.parse("N8V_SUMMARY_MAX_PARTS", crate::summarize::DEFAULT_MAX_PARTS)?,
            timeout: env.duration("N8V_SUMMARY_TIMEOUT_SECONDS", SECOND, 30, 0)?,
            quiet_after: env.span("N8V_QUIET_SESSION_MINUTES", Span::try_minutes, 120)?,
            episode_settle: env.span("N8V_EPISODE_SETTLE_MINUTES", Span::try_minutes, 30)?,
            sweep_schedule: env.text("N8V_SWEEP_SCHEDULE", "0 */5 * * * *"),
        })
    }
}

impl Default for SummaryConfig {
    fn default() -> Self {
        Self::read(&Env::of(&[])).expect("the defaults are valid")
    }
}
