//! Session summaries against local HTTP servers that speak Gemini's and the proxy's real wire
//! formats: draft then edit, exact token accounting and cost, retries, timeouts, malformed
//! answers, edits that add text, long sessions split into parts, and the code summary.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::IntoResponse;
use chrono::{TimeZone, Utc};
use n8v_journal::summarize::{
    CallFact, Gemini, Limits, Outcome, Provider, Proxy, Rates, SessionFacts, Summary, Unlimited,
    code_summary, cost_usd, render_parts, summarize,
};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const MODEL: &str = "gemini-3.1-flash-lite";

fn limits(rates: &Rates) -> Limits<'_> {
    Limits {
        rates,
        budget: &Unlimited,
        max_parts: 8,
    }
}
const KEY: &str = "gm-test-key-123";

/// One request as the fake provider saw it.
#[derive(Clone, Debug)]
struct Seen {
    path: String,
    headers: HeaderMap,
    body: Value,
    /// When it arrived.
    at: Instant,
}

/// What the fake provider answers: status, JSON body, and how long it stalls first.
struct Reply(u16, Value, Duration);

type Responder = Arc<dyn Fn(usize, &Seen) -> Reply + Send + Sync>;

#[derive(Clone)]
struct Fake {
    seen: Arc<Mutex<Vec<Seen>>>,
    respond: Responder,
}

impl Fake {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn answer(
    State(fake): State<Fake>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> impl IntoResponse {
    let seen = Seen {
        path: uri.path().to_owned(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        at: Instant::now(),
    };
    let index = {
        let mut all = fake.seen.lock().unwrap();
        all.push(seen.clone());
        all.len() - 1
    };
    let Reply(status, body, delay) = (fake.respond)(index, &seen);
    tokio::time::sleep(delay).await;
    (StatusCode::from_u16(status).unwrap(), axum::Json(body))
}

/// Starts a fake provider on 127.0.0.1:0; returns its base URL and what it records.
async fn serve(respond: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> (String, Fake) {
    let fake = Fake {
        seen: Arc::default(),
        respond: Arc::new(respond),
    };
    let app = Router::new().fallback(answer).with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, fake)
}

fn ok(body: Value) -> Reply {
    Reply(200, body, Duration::ZERO)
}

/// A real `generateContent` response shape.
fn gemini_answer(summary: &Value, input: u64, output: u64) -> Value {
    json!({
        "candidates": [{
            "content": {"role": "model", "parts": [{"text": summary.to_string()}]},
            "finishReason": "STOP",
            "index": 0
        }],
        "usageMetadata": {
            "promptTokenCount": input,
            "candidatesTokenCount": output,
            "totalTokenCount": input + output
        },
        "modelVersion": MODEL,
        "responseId": "abc123"
    })
}

/// A real `chat/completions` response shape.
fn proxy_answer(summary: &Value, input: u64, output: u64) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1_790_000_000, "model": "gpt-5.6-luna",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": summary.to_string(), "refusal": null},
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output}
    })
}

fn gemini(base: &str, timeout: Duration) -> Gemini {
    Gemini::new(base, KEY, MODEL, timeout)
}

fn call(
    minute: u32,
    operation: &str,
    ok: bool,
    wrote: bool,
    targets: &[&str],
    purpose: &str,
) -> CallFact {
    CallFact {
        at: Utc.with_ymd_and_hms(2026, 11, 10, 9, minute, 0).unwrap(),
        operation: operation.into(),
        purpose: Some(purpose.into()),
        ok,
        wrote,
        target_ids: targets.iter().map(|t| t.to_string()).collect(),
        result_count: if wrote { None } else { Some(3) },
    }
}

fn facts() -> SessionFacts {
    SessionFacts {
        assistant: "Claude".into(),
        goal: Some("Get the login fix ready for review".into()),
        outcome: Some("Fix ready for review; tests passed".into()),
        calls: vec![
            call(0, "recordsList", true, false, &[], "see what I can open"),
            call(
                5,
                "entriesAppend",
                false,
                true,
                &["rec_02"],
                "note the failing test",
            ),
            call(
                9,
                "entriesAppend",
                true,
                true,
                &["rec_01"],
                "log the login fix",
            ),
        ],
        decisions_in_force: vec![],
    }
}

fn draft() -> Value {
    json!({
        "summary": "Claude prepared the login fix for review. It logged the fix after one failed note. Tests passed.",
        "decisions": ["Keep the fix small."],
        "work_started": ["Login fix"],
        "work_finished": ["Login fix ready for review"],
        "open_questions": ["Why the note on the failing test was rejected."]
    })
}

/// The structured answer every request asks for, written out here rather than taken from the
/// code that builds the requests.
fn expected_schema() -> Value {
    let list = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "type": "object",
        "properties": {
            "summary": {"type": "string"},
            "decisions": list,
            "work_started": list,
            "work_finished": list,
            "open_questions": list,
            "replaces": {"type": "array", "items": {
                "type": "object",
                "properties": {"decision": {"type": "string"}, "replaces": {"type": "string"}},
                "required": ["decision", "replaces"],
            }},
        },
        "required": ["summary", "decisions", "work_started", "work_finished", "open_questions",
                     "replaces"],
    })
}

fn summary_of(value: &Value) -> Summary {
    serde_json::from_value(value.clone()).unwrap()
}

fn user_text_gemini(seen: &Seen) -> &str {
    seen.body["contents"][0]["parts"][0]["text"]
        .as_str()
        .unwrap()
}

/// The code summary of [`facts`], written out here rather than computed by `code_summary`: a
/// fallback is compared with what the rules should say, not with the function under test.
fn code_summary_of_facts() -> Summary {
    Summary {
        summary: "Claude made 3 calls (1 write, 1 failed) from 2026-11-10 09:00 to 09:09 UTC. \
                  Operations: recordsList ×1, entriesAppend ×2. \
                  Goal: Get the login fix ready for review. \
                  Outcome: Fix ready for review; tests passed. \
                  Failed: entriesAppend on rec_02 (note the failing test)."
            .into(),
        decisions: vec![],
        work_started: vec!["Get the login fix ready for review".into()],
        work_finished: vec![
            "Fix ready for review; tests passed".into(),
            "entriesAppend on rec_01 (log the login fix)".into(),
        ],
        open_questions: vec![
            "entriesAppend on rec_02 (note the failing test) failed and was not retried successfully"
                .into(),
        ],
        replaces: vec![],
    }
}

fn assert_code_fallback(outcome: &Outcome, expected: &Summary, why: &str) {
    assert_eq!(outcome.model, "code");
    assert_eq!(&outcome.summary, expected);
    let fallback = outcome.fallback.as_deref().expect("fallback says why");
    assert!(
        fallback.contains(why),
        "fallback {fallback:?} should mention {why:?}"
    );
}

#[test]
fn cost_is_exact_decimal() {
    let rates = Rates::default();
    assert_eq!(rates.input_usd_per_mtok, Decimal::from_str("0.25").unwrap());
    assert_eq!(
        rates.output_usd_per_mtok,
        Decimal::from_str("1.50").unwrap()
    );
    let cost = cost_usd(&rates, 1000, 200);
    assert_eq!(cost, Decimal::from_str("0.00055").unwrap());
    assert_eq!(cost.to_string(), "0.00055");
    assert_eq!(cost_usd(&rates, 0, 0), Decimal::ZERO);
    assert_eq!(
        cost_usd(&rates, 1_000_000, 1_000_000),
        Decimal::from_str("1.75").unwrap()
    );
}

#[tokio::test]
async fn gemini_drafts_then_cuts_and_counts_both_calls() {
    let edit = json!({
        "summary": "Claude prepared the login fix for review. Tests passed.",
        "decisions": ["Keep the fix small."],
        "work_started": [],
        "work_finished": ["Login fix ready for review"],
        "open_questions": ["Why the note on the failing test was rejected."]
    });
    let (draft_v, edit_v) = (draft(), edit.clone());
    let (base, fake) = serve(move |i, _| match i {
        0 => ok(gemini_answer(&draft_v, 800, 150)),
        _ => ok(gemini_answer(&edit_v, 200, 50)),
    })
    .await;
    let provider = gemini(&base, Duration::from_secs(5));
    let facts = facts();
    let outcome = summarize(Some(&provider), &limits(&Rates::default()), &facts).await;

    assert_eq!(outcome.fallback, None);
    assert_eq!(outcome.summary, summary_of(&edit));
    assert_eq!(outcome.model, MODEL);
    assert_eq!((outcome.input_tokens, outcome.output_tokens), (1000, 200));
    assert_eq!(outcome.cost_usd, Decimal::from_str("0.00055").unwrap());
    assert_eq!(outcome.parts, 1);

    let seen = fake.seen();
    assert_eq!(seen.len(), 2, "one draft and one edit");
    for request in &seen {
        assert_eq!(
            request.path,
            format!("/v1beta/models/{MODEL}:generateContent")
        );
        assert_eq!(request.headers["x-goog-api-key"], KEY);
        let config = &request.body["generationConfig"];
        assert_eq!(config["responseMimeType"], "application/json");
        assert_eq!(config["responseSchema"], expected_schema());
        assert_eq!(request.body["contents"][0]["role"], "user");
        assert!(request.body["systemInstruction"]["parts"][0]["text"].is_string());
        assert!(
            !request.body.to_string().contains(KEY),
            "the key travels only as a header"
        );
    }
    // The draft sees the session's own words and the rendered calls, and nothing else.
    let prompt = user_text_gemini(&seen[0]);
    for purpose in [
        "see what I can open",
        "note the failing test",
        "log the login fix",
    ] {
        assert!(
            prompt.contains(purpose),
            "{purpose:?} missing from the prompt"
        );
    }
    let calls = &render_parts(&facts, 30_000)[0];
    assert!(prompt.ends_with(calls.as_str()));
    let header: Vec<&str> = prompt[..prompt.len() - calls.len()].lines().collect();
    assert_eq!(
        header,
        [
            "Assistant: \"Claude\"",
            "Goal: \"Get the login fix ready for review\"",
            "Outcome: \"Fix ready for review; tests passed\"",
            "Calls, one per line (time, operation, ok/error, write, targets, results, purpose):",
        ]
    );
    assert_eq!(
        calls.lines().nth(1).unwrap(),
        "2026-11-10T09:05:00Z entriesAppend error write targets=rec_02 purpose=\"note the failing test\""
    );
    // The edit sees only the draft.
    let edit_prompt: Value = serde_json::from_str(user_text_gemini(&seen[1])).unwrap();
    assert_eq!(summary_of(&edit_prompt), summary_of(&draft()));
    let system = |i: usize| {
        seen[i].body["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .len()
    };
    assert!(
        system(1) < system(0),
        "the edit's instructions are the smaller"
    );
}

#[tokio::test]
async fn proxy_costs_nothing_but_keeps_tokens() {
    let sparse = json!({"summary": "Claude prepared the login fix.", "decisions": null});
    let (base, fake) = serve(move |i, _| match i {
        0 => ok(proxy_answer(&sparse, 700, 120)),
        _ => ok(proxy_answer(&sparse, 150, 30)),
    })
    .await;
    let provider = Proxy::new(
        format!("{base}/"),
        "proxy-key",
        "gpt-5.6-luna",
        Duration::from_secs(5),
    );
    let outcome = summarize(Some(&provider), &limits(&Rates::default()), &facts()).await;

    assert_eq!(outcome.fallback, None);
    assert_eq!(outcome.model, "gpt-5.6-luna");
    assert_eq!((outcome.input_tokens, outcome.output_tokens), (850, 150));
    assert_eq!(outcome.cost_usd, Decimal::ZERO);
    let expected = Summary {
        summary: "Claude prepared the login fix.".into(),
        ..Summary::default()
    };
    assert_eq!(
        outcome.summary, expected,
        "missing and null lists read as empty"
    );

    let seen = fake.seen();
    assert_eq!(seen.len(), 2);
    let request = &seen[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.headers["authorization"], "Bearer proxy-key");
    assert_eq!(request.body["model"], "gpt-5.6-luna");
    assert_eq!(request.body["messages"][0]["role"], "system");
    assert_eq!(request.body["messages"][1]["role"], "user");
    assert!(
        request.body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("log the login fix")
    );
    let format = &request.body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], "summary");
    assert_eq!(format["json_schema"]["strict"], true);
    let schema = &format["json_schema"]["schema"];
    // Strict mode: every object closed, the nested one (`replaces`' items) too.
    let mut expected = expected_schema()["properties"].clone();
    expected["replaces"]["items"]["additionalProperties"] = json!(false);
    assert_eq!(schema["properties"], expected);
    assert_eq!(schema["required"], expected_schema()["required"]);
    assert_eq!(schema["additionalProperties"], false);
}

#[tokio::test]
async fn server_errors_are_retried_then_code_takes_over() {
    let (base, fake) = serve(|_, _| {
        Reply(
            500,
            json!({"error": {"code": 500, "status": "INTERNAL"}}),
            Duration::ZERO,
        )
    })
    .await;
    let facts = facts();
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &limits(&Rates::default()),
        &facts,
    )
    .await;
    let seen = fake.seen();
    assert_eq!(seen.len(), 3, "the first attempt and two retries");
    // Each retry came after its backoff (200 ms, then 400 ms). Only lower bounds: a backoff
    // never ends early, so a loaded machine can only make the gaps longer.
    assert!(
        seen[1].at - seen[0].at >= Duration::from_millis(200),
        "{:?}",
        seen[1].at - seen[0].at
    );
    assert!(
        seen[2].at - seen[1].at >= Duration::from_millis(400),
        "{:?}",
        seen[2].at - seen[1].at
    );
    assert_code_fallback(&outcome, &code_summary_of_facts(), "HTTP 500");
    assert_eq!(
        (
            outcome.input_tokens,
            outcome.output_tokens,
            outcome.cost_usd
        ),
        (0, 0, Decimal::ZERO)
    );
    assert_eq!(outcome.parts, 1);
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let (base, fake) =
        serve(|_, _| Reply(403, json!({"error": {"code": 403}}), Duration::ZERO)).await;
    let facts = facts();
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &limits(&Rates::default()),
        &facts,
    )
    .await;
    assert_eq!(fake.seen().len(), 1);
    assert_code_fallback(&outcome, &code_summary_of_facts(), "HTTP 403");
}

#[tokio::test]
async fn a_stalled_provider_times_out_fast() {
    let (base, fake) = serve(|_, _| ok(json!({})).delayed(Duration::from_secs(30))).await;
    let facts = facts();
    // Three attempts of 150 ms and two backoffs take about a second. The deadline is one
    // stall (30 s): only a call that waited for the stalled answer reaches it, so the margin is
    // about 29 s and a slow machine cannot turn this into a failure.
    let outcome = tokio::time::timeout(
        Duration::from_secs(30),
        summarize(
            Some(&gemini(&base, Duration::from_millis(150))),
            &limits(&Rates::default()),
            &facts,
        ),
    )
    .await
    .expect("each attempt gave up after 150 ms instead of waiting for the stalled answer");
    assert_code_fallback(&outcome, &code_summary_of_facts(), "timed out");
    assert_eq!(fake.seen().len(), 3, "timeouts are retried too");
    assert_eq!(outcome.cost_usd, Decimal::ZERO);
}

#[tokio::test]
async fn malformed_answers_fall_back_and_what_they_were_billed_goes_to_the_ledger_not_the_summary()
{
    let facts = facts();
    let rates = Rates::default();
    // Text that is not JSON, and JSON without `summary`: billed, unusable.
    for text in ["Sure! Here is your summary: {", r#"{"decisions": ["x"]}"#] {
        let body = json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 40}
        });
        let (base, fake) = serve(move |_, _| ok(body.clone())).await;
        let ledger = Ledger::default();
        let outcome = summarize(
            Some(&gemini(&base, Duration::from_secs(5))),
            &Limits {
                budget: &ledger,
                ..limits(&rates)
            },
            &facts,
        )
        .await;
        assert_code_fallback(&outcome, &code_summary_of_facts(), "draft");
        assert_eq!(fake.seen().len(), 1, "no edit of an unreadable draft");
        let held = (
            outcome.input_tokens,
            outcome.output_tokens,
            outcome.cost_usd,
        );
        assert_eq!(held, (0, 0, Decimal::ZERO), "code's summary holds no call");
        // 300 × $0.25 + 40 × $1.50, per million: paid, and settled so.
        assert_eq!(ledger.settled(), [Decimal::from_str("0.000135").unwrap()]);
    }
    // A response body that is not the wire format at all: nothing billed.
    let (base, _) = serve(|_, _| ok(json!({"unexpected": true}))).await;
    let ledger = Ledger::default();
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &Limits {
            budget: &ledger,
            ..limits(&rates)
        },
        &facts,
    )
    .await;
    assert_code_fallback(&outcome, &code_summary_of_facts(), "malformed");
    let held = (
        outcome.input_tokens,
        outcome.output_tokens,
        outcome.cost_usd,
    );
    assert_eq!(held, (0, 0, Decimal::ZERO));
    assert_eq!(ledger.settled(), [Decimal::ZERO]);
}

/// A budget that grants every reservation and keeps what each call settled at.
#[derive(Default)]
struct Ledger(std::sync::Mutex<Vec<Decimal>>);

impl Ledger {
    fn settled(&self) -> Vec<Decimal> {
        self.0.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl n8v_journal::summarize::Budget for Ledger {
    async fn reserve(&self, _: Decimal) -> bool {
        true
    }

    async fn settle(&self, _: Decimal, actual: Decimal, _: bool) {
        self.0.lock().unwrap().push(actual);
    }
}

#[tokio::test]
async fn an_edit_that_adds_text_keeps_the_draft() {
    let mut added = draft();
    added["summary"] =
        json!("Claude prepared the login fix for review. Tests passed. The release shipped.");
    let (draft_v, added_v) = (draft(), added);
    let (base, fake) = serve(move |i, _| match i {
        0 => ok(gemini_answer(&draft_v, 800, 150)),
        _ => ok(gemini_answer(&added_v, 200, 50)),
    })
    .await;
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &limits(&Rates::default()),
        &facts(),
    )
    .await;
    assert_eq!(fake.seen().len(), 2);
    assert_eq!(outcome.fallback, None);
    assert_eq!(outcome.summary, summary_of(&draft()));
    assert_eq!((outcome.input_tokens, outcome.output_tokens), (1000, 200));
    assert_eq!(outcome.cost_usd, Decimal::from_str("0.00055").unwrap());
}

#[tokio::test]
async fn a_failed_edit_keeps_the_draft() {
    let draft_v = draft();
    let (base, fake) = serve(move |i, _| match i {
        0 => ok(gemini_answer(&draft_v, 800, 150)),
        _ => Reply(503, json!({"error": {"code": 503}}), Duration::ZERO),
    })
    .await;
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &limits(&Rates::default()),
        &facts(),
    )
    .await;
    assert_eq!(
        fake.seen().len(),
        4,
        "a draft, then the edit tried three times"
    );
    assert_eq!(outcome.fallback, None);
    assert_eq!(outcome.summary, summary_of(&draft()));
    assert_eq!((outcome.input_tokens, outcome.output_tokens), (800, 150));
}

/// A session long enough to need several parts: 300 calls with long purposes.
fn long_facts() -> SessionFacts {
    let calls = (0..300)
        .map(|i| CallFact {
            at: Utc.with_ymd_and_hms(2026, 11, 10, 9, 0, 0).unwrap() + chrono::Duration::seconds(i),
            operation: "entriesAppend".into(),
            purpose: Some(format!(
                "step-{i:03}: {}",
                "record the next migration step ".repeat(7)
            )),
            ok: true,
            wrote: true,
            target_ids: vec![format!("rec_{i:03}")],
            result_count: None,
        })
        .collect();
    SessionFacts {
        assistant: "Codex".into(),
        goal: Some("Migrate the records".into()),
        outcome: None,
        calls,
        decisions_in_force: vec![],
    }
}

#[test]
fn parts_never_split_a_call_line() {
    let facts = long_facts();
    let parts = render_parts(&facts, 30_000);
    assert!(parts.len() >= 2, "{} parts", parts.len());
    for part in &parts {
        assert!(part.chars().count() <= 30_000);
    }
    let lines: Vec<&str> = parts.iter().flat_map(|p| p.lines()).collect();
    assert_eq!(
        lines.len(),
        facts.calls.len(),
        "one line per call, none cut"
    );
    assert!(
        lines
            .iter()
            .enumerate()
            .all(|(i, l)| l.contains(&format!("step-{i:03}:")))
    );
    // A line longer than the limit is a part on its own; a newline in a purpose stays quoted.
    let mut odd = facts.clone();
    odd.calls.truncate(3);
    odd.calls[1].purpose = Some("two\nlines".into());
    let parts = render_parts(&odd, 50);
    assert_eq!(parts.len(), 3);
    assert!(parts[1].ends_with("purpose=\"two\\nlines\"") && !parts[1].contains('\n'));
    assert!(render_parts(&SessionFacts::default(), 30_000).is_empty());
}

#[tokio::test]
async fn long_sessions_are_summarised_per_part_and_merged_in_order() {
    let facts = long_facts();
    let parts = render_parts(&facts, 30_000);
    let n = parts.len();
    assert!(n >= 2);
    let part_summary = |k: usize| {
        json!({
            "summary": format!("Part {k} moved records. Nothing broke."),
            "decisions": [format!("Decision {k}."), "Keep migrating in order."],
            "work_started": [format!("Batch {k}")],
            "work_finished": [],
            "open_questions": if k == 1 { json!(["Who reviews the migration?"]) } else { json!([]) }
        })
    };
    let (base, fake) = serve(move |i, _| {
        let mut answer = part_summary(i / 2 + 1);
        if i % 2 == 1 {
            answer["summary"] = json!(format!("Part {} moved records.", i / 2 + 1));
        }
        ok(gemini_answer(&answer, 1000, 100))
    })
    .await;
    let outcome = summarize(
        Some(&gemini(&base, Duration::from_secs(5))),
        &limits(&Rates::default()),
        &facts,
    )
    .await;

    assert_eq!(outcome.fallback, None);
    assert_eq!(outcome.parts, n);
    let seen = fake.seen();
    assert_eq!(seen.len(), 2 * n, "one draft and one edit per part");
    for (k, part) in parts.iter().enumerate() {
        let prompt = user_text_gemini(&seen[2 * k]);
        assert!(prompt.contains(&format!("Part {} of {n}", k + 1)));
        assert!(prompt.ends_with(part.as_str()));
        let first_line = part.lines().next().unwrap();
        for (other, other_part) in parts.iter().enumerate().filter(|(o, _)| *o != k) {
            assert!(
                !prompt.contains(other_part.lines().next().unwrap()),
                "part {other} leaked into {k}"
            );
        }
        assert!(prompt.contains(first_line));
        let edit: Value = serde_json::from_str(user_text_gemini(&seen[2 * k + 1])).unwrap();
        assert_eq!(edit["summary"], part_summary(k + 1)["summary"]);
    }
    let paragraphs: Vec<String> = (1..=n)
        .map(|k| format!("Part {k} moved records."))
        .collect();
    assert_eq!(outcome.summary.summary, paragraphs.join("\n\n"));
    let mut decisions: Vec<String> = vec!["Decision 1.".into(), "Keep migrating in order.".into()];
    decisions.extend((2..=n).map(|k| format!("Decision {k}.")));
    assert_eq!(
        outcome.summary.decisions, decisions,
        "in order, exact duplicates once"
    );
    assert_eq!(
        outcome.summary.work_started,
        (1..=n).map(|k| format!("Batch {k}")).collect::<Vec<_>>()
    );
    assert_eq!(
        outcome.summary.open_questions,
        ["Who reviews the migration?"]
    );
    let tokens = 2 * n as u64;
    assert_eq!(
        (outcome.input_tokens, outcome.output_tokens),
        (1000 * tokens, 100 * tokens)
    );
    // Each call: 1,000 × $0.25 + 100 × $1.50, per million = $0.0004.
    assert_eq!(
        outcome.cost_usd,
        Decimal::from_str("0.0004").unwrap() * Decimal::from(tokens)
    );
}

#[tokio::test]
async fn code_summary_states_goal_outcome_and_failures() {
    let facts = facts();
    let summary = code_summary(&facts);
    assert_eq!(summary.work_started, ["Get the login fix ready for review"]);
    assert_eq!(
        summary.work_finished[0],
        "Fix ready for review; tests passed"
    );
    assert!(
        summary
            .work_finished
            .contains(&"entriesAppend on rec_01 (log the login fix)".to_string())
    );
    assert!(summary.decisions.is_empty(), "code invents no decisions");
    assert!(summary.summary.starts_with(
        "Claude made 3 calls (1 write, 1 failed) from 2026-11-10 09:00 to 09:09 UTC."
    ));
    assert!(
        summary
            .summary
            .contains("Failed: entriesAppend on rec_02 (note the failing test).")
    );
    assert_eq!(
        summary.open_questions,
        ["entriesAppend on rec_02 (note the failing test) failed and was not retried successfully"]
    );
    assert_eq!(
        summary,
        code_summary_of_facts(),
        "the whole summary, as the rules say"
    );

    // A failure later retried successfully on the same target is not left open.
    let mut retried = facts.clone();
    retried.calls[2].target_ids = vec!["rec_02".into()];
    assert!(code_summary(&retried).open_questions.is_empty());

    // No provider, or nothing to summarise: the code summary, free, and why.
    let outcome = summarize(None, &limits(&Rates::default()), &facts).await;
    assert_code_fallback(&outcome, &code_summary_of_facts(), "no model provider");
    assert_eq!(
        (
            outcome.input_tokens,
            outcome.output_tokens,
            outcome.cost_usd
        ),
        (0, 0, Decimal::ZERO)
    );
    let (base, fake) = serve(|_, _| ok(json!({}))).await;
    let provider = gemini(&base, Duration::from_secs(5));
    let empty = SessionFacts {
        assistant: "Claude".into(),
        goal: Some("Look around".into()),
        ..SessionFacts::default()
    };
    let outcome = summarize(
        Some(&provider as &dyn Provider),
        &limits(&Rates::default()),
        &empty,
    )
    .await;
    let nothing = Summary {
        summary: "Claude made no calls. Goal: Look around.".into(),
        work_started: vec!["Look around".into()],
        ..Summary::default()
    };
    assert_code_fallback(&outcome, &nothing, "no calls");
    assert!(fake.seen().is_empty());
    assert_eq!(
        code_summary(&empty).summary,
        "Claude made no calls. Goal: Look around."
    );
}

trait Delayed {
    fn delayed(self, by: Duration) -> Self;
}

impl Delayed for Reply {
    fn delayed(self, by: Duration) -> Self {
        Reply(self.0, self.1, by)
    }
}
