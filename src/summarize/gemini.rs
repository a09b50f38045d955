//! Google's Gemini `generateContent`, the customer default.

use super::provider::{Endpoint, Generated, Provider, ProviderError, tokens};
use serde_json::{Value, json};
use std::time::Duration;

/// Gemini over its REST API. Charged at the configured `Rates`.
#[derive(Clone, Debug)]
pub struct Gemini(Endpoint);

impl Gemini {
    /// `base_url` is e.g. `https://generativelanguage.googleapis.com`; `timeout` bounds each
    /// attempt (connect to last byte), not the retries together.
    pub fn new(
        base_url: impl Into<String>,
        api_key: impl Into<String>,
        model: impl Into<String>,
        timeout: Duration,
    ) -> Self {
        Self(Endpoint::new(base_url, api_key, model, timeout))
    }
}

#[async_trait::async_trait]
impl Provider for Gemini {
    fn model(&self) -> &str {
        &self.0.model
    }

    fn charges(&self) -> bool {
        true
    }

    async fn generate(
        &self,
        system: &str,
        prompt: &str,
        schema: &Value,
    ) -> Result<Generated, ProviderError> {
        let url = format!(
            "{}/v1beta/models/{}:generateContent",
            self.0.base_url, self.0.model
        );
        let body = json!({
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": [{"role": "user", "parts": [{"text": prompt}]}],
            "generationConfig": {
                "responseMimeType": "application/json",
                "responseSchema": schema,
                "maxOutputTokens": super::MAX_OUTPUT_TOKENS,
            },
        });
        let answer = self
            .0
            .post(
                &url,
                |request, key| request.header("x-goog-api-key", key),
                &body,
            )
            .await?;
        let generated = read_answer(&answer.body)?;
        Ok(Generated {
            timed_out: answer.timed_out,
            ..generated
        })
    }
}

/// Reads `usageMetadata` first, so a blocked or empty answer still reports what it cost.
/// Output tokens include `thoughtsTokenCount`: thinking is billed at the output rate.
fn read_answer(answer: &Value) -> Result<Generated, ProviderError> {
    let usage = &answer["usageMetadata"];
    let input_tokens = tokens(&usage["promptTokenCount"], "usageMetadata.promptTokenCount")?;
    let output_tokens = usage["candidatesTokenCount"].as_u64().unwrap_or(0)
        + usage["thoughtsTokenCount"].as_u64().unwrap_or(0);
    let candidate = &answer["candidates"][0];
    // Thought parts (`"thought": true`) are the model's reasoning, not its answer.
    let text: String = candidate["content"]["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|part| part["thought"] != Value::Bool(true))
        .filter_map(|part| part["text"].as_str())
        .collect();
    if text.trim().is_empty() {
        let reason = candidate["finishReason"]
            .as_str()
            .or(answer["promptFeedback"]["blockReason"].as_str())
            .unwrap_or("none given");
        return Err(ProviderError::Malformed {
            message: format!("no answer text in candidates[0] (reason: {reason})"),
            input_tokens,
            output_tokens,
        });
    }
    Ok(Generated {
        text,
        input_tokens,
        output_tokens,
        timed_out: false,
    })
}
