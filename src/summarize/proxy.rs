//! An OpenAI-compatible `chat/completions` endpoint: the subscription proxy n8v's internal
//! accounts use, or (with `N8V_SUMMARY_CUSTOMER_PROVIDER=proxy`) any compatible model server a
//! deployment sends its customer accounts to.

use super::provider::{Endpoint, Generated, Provider, ProviderError, tokens};
use serde_json::{Value, json};
use std::time::Duration;

/// A `chat/completions` endpoint. For internal accounts it is paid by subscription, so no
/// marginal cost is recorded (tokens are still counted); for customer accounts it is
/// [`charging`](Proxy::charging): tokens cost the configured `Rates`, within the monthly budget.
#[derive(Clone, Debug)]
pub struct Proxy(Endpoint, bool);

impl Proxy {
    /// `base_url` without the `/v1`; `timeout` bounds each attempt, not the retries together.
    pub fn new(
        base_url: impl Into<String>,
        api_key: impl Into<String>,
        model: impl Into<String>,
        timeout: Duration,
    ) -> Self {
        Self(Endpoint::new(base_url, api_key, model, timeout), false)
    }

    /// The same endpoint, its tokens charged at the configured `Rates`.
    pub fn charging(self) -> Self {
        Self(self.0, true)
    }
}

#[async_trait::async_trait]
impl Provider for Proxy {
    fn model(&self) -> &str {
        &self.0.model
    }

    fn charges(&self) -> bool {
        self.1
    }

    async fn generate(
        &self,
        system: &str,
        prompt: &str,
        schema: &Value,
    ) -> Result<Generated, ProviderError> {
        let url = format!("{}/v1/chat/completions", self.0.base_url);
        let body = json!({
            "model": self.0.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
            "max_tokens": super::MAX_OUTPUT_TOKENS,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "summary", "schema": strict(schema), "strict": true},
            },
        });
        let answer = self
            .0
            .post(&url, |request, key| request.bearer_auth(key), &body)
            .await?;
        let generated = read_answer(&answer.body)?;
        Ok(Generated {
            timed_out: answer.timed_out,
            ..generated
        })
    }
}

/// Strict structured output requires `additionalProperties: false` on every object, which
/// Gemini's schema subset does not know; so the proxy adds it to the shared schema.
fn strict(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: serde_json::Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), strict(v))).collect();
            let is_object = out
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.eq_ignore_ascii_case("object"));
            if is_object {
                out.entry("additionalProperties")
                    .or_insert(Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(strict).collect()),
        other => other.clone(),
    }
}

fn read_answer(answer: &Value) -> Result<Generated, ProviderError> {
    let usage = &answer["usage"];
    let input_tokens = tokens(&usage["prompt_tokens"], "usage.prompt_tokens")?;
    let output_tokens = tokens(&usage["completion_tokens"], "usage.completion_tokens")?;
    let message = &answer["choices"][0]["message"];
    match message["content"].as_str().filter(|t| !t.trim().is_empty()) {
        Some(text) => Ok(Generated {
            text: text.to_owned(),
            input_tokens,
            output_tokens,
            timed_out: false,
        }),
        None => Err(ProviderError::Malformed {
            message: if message["refusal"].is_string() {
                "the model refused".into()
            } else {
                "no answer text in choices[0].message.content".into()
            },
            input_tokens,
            output_tokens,
        }),
    }
}
