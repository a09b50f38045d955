//! The provider seam: one trait over Gemini and the OpenAI-compatible proxy, and the HTTP
//! discipline both share (per-request timeout, bounded retries with backoff).

use serde_json::Value;
use std::time::Duration;

/// A model that answers a system prompt and a user prompt with JSON in `schema`'s shape.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// The model name recorded as `summary_model`.
    fn model(&self) -> &str;
    /// `true`: tokens are charged at the configured `Rates`. `false` (the proxy, paid by
    /// subscription): the cost recorded is 0, but tokens are still counted.
    fn charges(&self) -> bool;
    async fn generate(
        &self,
        system: &str,
        prompt: &str,
        schema: &Value,
    ) -> Result<Generated, ProviderError>;
}

/// One answer and the tokens it was billed for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub text: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// An earlier attempt of this call timed out: the provider may have charged it too, so the
    /// ledger counts the call at its reservation.
    pub timed_out: bool,
}

/// Why a provider call gave no usable answer. The message is short and safe to store as the
/// outcome's `fallback`: it never carries the prompt, the answer or the key.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("the provider answered HTTP {status} (after {attempts} attempt(s))")]
    Status { status: u16, attempts: u32 },
    #[error("the provider timed out (after {attempts} attempt(s))")]
    Timeout { attempts: u32 },
    #[error("the provider could not be reached (after {attempts} attempt(s)): {message}")]
    Transport { message: String, attempts: u32 },
    /// The call answered but not in the expected shape. Tokens it reported are kept, because
    /// they were billed even though the answer is unusable.
    #[error("the provider's answer was malformed: {message}")]
    Malformed {
        message: String,
        input_tokens: u64,
        output_tokens: u64,
    },
}

impl ProviderError {
    /// Tokens billed despite the failure (`(input, output)`); zero unless the call answered.
    pub fn spent(&self) -> (u64, u64) {
        match self {
            Self::Malformed {
                input_tokens,
                output_tokens,
                ..
            } => (*input_tokens, *output_tokens),
            _ => (0, 0),
        }
    }

    /// The call timed out (its last attempt, or an earlier one: see [`post_json`]), so the
    /// provider may have charged for work it never sent back.
    pub fn timed_out(&self) -> bool {
        matches!(self, Self::Timeout { .. })
    }

    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        Self::Malformed {
            message: message.into(),
            input_tokens: 0,
            output_tokens: 0,
        }
    }
}

/// Retries after the first attempt. Bounded so a dead provider delays a summary by well under a
/// second of backoff (plus the timeouts), after which the code summary takes over.
const RETRIES: u32 = 2;

/// The most attempts one model call makes: what a budget reservation must cover.
pub const ATTEMPTS: u32 = RETRIES + 1;
const FIRST_BACKOFF: Duration = Duration::from_millis(200);

/// A successful answer's JSON body, and whether an earlier attempt timed out.
pub(crate) struct Answer {
    pub body: Value,
    pub timed_out: bool,
}

/// Sends the request `build` makes, retrying 5xx, 429, transport errors and timeouts (the
/// transient ones) with 200 ms then 400 ms backoff, never other 4xx (retrying a bad request or a
/// bad key only repeats it). Returns the successful answer's JSON body. A call that fails after
/// any of its attempts timed out fails as timed out: that attempt may have been charged.
pub(crate) async fn post_json(
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<Answer, ProviderError> {
    let mut attempts = 0;
    let mut backoff = FIRST_BACKOFF;
    let mut timed_out = false;
    loop {
        attempts += 1;
        let failure = match build().send().await {
            Ok(response) if response.status().is_success() => match response.bytes().await {
                Ok(body) => {
                    let body = serde_json::from_slice(&body).map_err(|e| {
                        ProviderError::malformed(format!("the response is not JSON: {e}"))
                    })?;
                    return Ok(Answer { body, timed_out });
                }
                Err(e) => transport(e, attempts),
            },
            Ok(response) => {
                let status = response.status();
                let failure = ProviderError::Status {
                    status: status.as_u16(),
                    attempts,
                };
                if !(status.is_server_error() || status.as_u16() == 429) {
                    return Err(after(failure, timed_out, attempts));
                }
                failure
            }
            Err(e) => transport(e, attempts),
        };
        timed_out |= failure.timed_out();
        if attempts > RETRIES {
            return Err(after(failure, timed_out, attempts));
        }
        tokio::time::sleep(backoff).await;
        backoff *= 2;
    }
}

/// The call's failure: timed out when any attempt did.
fn after(failure: ProviderError, timed_out: bool, attempts: u32) -> ProviderError {
    match timed_out {
        true => ProviderError::Timeout { attempts },
        false => failure,
    }
}

fn transport(e: reqwest::Error, attempts: u32) -> ProviderError {
    if e.is_timeout() {
        ProviderError::Timeout { attempts }
    } else {
        ProviderError::Transport {
            message: e.without_url().to_string(),
            attempts,
        }
    }
}

/// A token count from the answer, which must be present: without it the cost cannot be exact.
pub(crate) fn tokens(value: &Value, what: &str) -> Result<u64, ProviderError> {
    value
        .as_u64()
        .ok_or_else(|| ProviderError::malformed(format!("the answer has no {what}")))
}

/// `https://host/` and `https://host` are the same base.
pub(crate) fn base(url: &str) -> String {
    url.trim_end_matches('/').to_owned()
}

/// Where a provider is reached: the client, base URL, key, model and per-attempt timeout.
#[derive(Clone)]
pub(crate) struct Endpoint {
    pub http: reqwest::Client,
    pub base_url: String,
    pub api_key: String,
    pub model: String,
    pub timeout: std::time::Duration,
}

impl Endpoint {
    pub fn new(
        base_url: impl Into<String>,
        api_key: impl Into<String>,
        model: impl Into<String>,
        timeout: std::time::Duration,
    ) -> Self {
        Self {
            http: client(),
            base_url: base(&base_url.into()),
            api_key: api_key.into(),
            model: model.into(),
            timeout,
        }
    }

    /// Posts `body` to `url` with the key where `authorize` puts it, within the per-attempt
    /// timeout and with [`post_json`]'s retries; the answer's JSON.
    pub async fn post(
        &self,
        url: &str,
        authorize: impl Fn(reqwest::RequestBuilder, &str) -> reqwest::RequestBuilder,
        body: &Value,
    ) -> Result<Answer, ProviderError> {
        post_json(|| {
            authorize(self.http.post(url), &self.api_key)
                .timeout(self.timeout)
                .json(body)
        })
        .await
    }
}

/// The HTTP client for model providers. It follows a redirect only to the same scheme, host
/// and port (at most 3): the key travels in a header (`x-goog-api-key`, `Authorization`) that
/// another host must never see. A redirect elsewhere is answered as it is, and fails the call.
pub(crate) fn client() -> reqwest::Client {
    let policy = reqwest::redirect::Policy::custom(|attempt| {
        let origin = |u: &reqwest::Url| {
            (
                u.scheme().to_owned(),
                u.host_str().map(str::to_owned),
                u.port_or_known_default(),
            )
        };
        let first = attempt.previous().first().map(origin);
        if attempt.previous().len() > 3 {
            attempt.error("too many redirects")
        } else if first.is_some_and(|f| f == origin(attempt.url())) {
            attempt.follow()
        } else {
            tracing::warn!(to = %attempt.url().host_str().unwrap_or(""), "model provider redirected to another host; not following");
            attempt.stop()
        }
    });
    reqwest::Client::builder()
        .redirect(policy)
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

/// Never prints the key.
impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}
