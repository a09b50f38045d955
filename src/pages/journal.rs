//! The journal pages: Settings > Journal at its three depths (the session list, one session
//! with its actions, one call with its audit entry), the whole journal as a timeline, search,
//! and deletion. Each handler runs the operation REST runs, as the signed-in user.

use super::render::{error_page, page};
use super::user::{PageUser, csrf_refused};
use super::{CsrfKey, wants_html};
use crate::error::Error;
use crate::ids::{AuditId, TypedId};
use crate::journal::Session;
use crate::journal::handoff::DecisionState;
use crate::ops::Services;
use crate::ops::audit::GetAuditEntry;
use crate::ops::digests::{DeleteDigest, ListDigests, ListedDigest};
use crate::ops::exposures::ListExposures;
use crate::ops::journal::{
    DeleteDay, DeleteSession, GetEntry, GetSession, ListSessions, SessionFilters, SessionList,
};
use crate::ops::loops::ListLoops;
use crate::ops::parse_date;
use crate::ops::releases::ListWithheld;
use crate::ops::search::SearchJournal;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Form, Json};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Renders a finished operation's value with `then`, or its error as a page.
fn or_error<T>(result: crate::error::Result<T>, then: impl FnOnce(T) -> Response) -> Response {
    match result {
        Ok(value) => then(value),
        Err(e) => error_page(&e, true),
    }
}

#[derive(Deserialize, Default)]
pub struct ListFilter {
    #[serde(default)]
    assistant: Option<String>,
    #[serde(default)]
    organization: Option<String>,
    /// A day, YYYY-MM-DD (the period's first day).
    #[serde(default)]
    from: Option<String>,
    /// A day, YYYY-MM-DD (the period's last day).
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    cursor: Option<String>,
}

/// A form's field as given: an empty field means not given.
fn given(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

fn start_of(date: NaiveDate) -> DateTime<Utc> {
    date.and_time(chrono::NaiveTime::MIN).and_utc()
}

/// Settings > Journal: the sessions, filtered by assistant, organization and period.
pub async fn sessions(
    State(state): State<Services>,
    user: PageUser,
    Query(filter): Query<ListFilter>,
) -> Response {
    let (from, to) = match (
        parse_date("from", given(&filter.from)),
        parse_date("to", given(&filter.to)),
    ) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(e), _) | (_, Err(e)) => return error_page(&e, true),
    };
    let input = ListSessions {
        filters: SessionFilters {
            assistant: filter.assistant.clone(),
            organization: given(&filter.organization).map(str::to_owned),
            from: from.map(|d| start_of(d).to_rfc3339()),
            to: to.map(|d| start_of(d.succ_opt().unwrap_or(d)).to_rfc3339()),
            ..Default::default()
        },
        limit: Some(50),
        cursor: filter.cursor.clone(),
        ..Default::default()
    };
    let finished = user.run(&state, input).await;
    let assistants = super::assistants::connected(&state, &user).await;
    let webhooks = super::webhooks::listed(&state, &user).await;
    or_error(finished.result, |list| {
        page(
            "sessions.html",
            json!({
                "csrf": user.csrf,
                "scope_meanings": super::assistants::scope_meanings(&assistants),
                "assistants": assistants,
                "webhooks": webhooks,
                "sessions": list.sessions.iter().map(session_view).collect::<Vec<_>>(),
                "next_cursor": list.next_cursor,
                "filter": {
                    "assistant": filter.assistant.unwrap_or_default(),
                    "organization": filter.organization.unwrap_or_default(),
                    "from": filter.from.unwrap_or_default(),
                    "to": filter.to.unwrap_or_default(),
                },
            }),
        )
    })
}

/// What a page shows of a session.
fn session_view(s: &Session) -> serde_json::Value {
    let mut value = serde_json::to_value(s).unwrap_or_default();
    value["day"] = json!(s.started_at.date_naive().to_string());
    value["started"] = json!(s.started_at.format("%Y-%m-%d %H:%M UTC").to_string());
    value["time"] = json!(s.started_at.format("%H:%M").to_string());
    // What the brief carries forward: the hand-off first, then the summary's (or, before one,
    // what the goal and outcome mark); each decision that is an item with its state now (the
    // operation read them), so a replaced one says so, and by what, as the brief does.
    let carried = s.carried(&[]);
    value["carried"] = json!(carried);
    value["carried"]["decisions"] = carried
        .decisions
        .iter()
        .map(|d| json!({"text": d.text, "stated": d.stated, "now": s.decision_state(&d.text)}))
        .collect();
    value["title"] = json!(
        s.goal
            .clone()
            .or_else(|| s.summary.as_ref().map(|m| m.summary.clone()))
            .unwrap_or_else(|| {
                let calls = if s.call_count == 1 { "call" } else { "calls" };
                format!("{} {calls} by {}", s.call_count, s.assistant)
            })
    );
    value
}

#[derive(Deserialize, Default)]
pub struct ActionsQuery {
    #[serde(default)]
    cursor: Option<String>,
    #[serde(default)]
    writes: Option<String>,
}

/// One session and a page of its actions; a writes-only toggle.
pub async fn session(
    State(state): State<Services>,
    user: PageUser,
    Path(id): Path<String>,
    Query(q): Query<ActionsQuery>,
) -> Response {
    let writes_only = q.writes.as_deref() == Some("true");
    let input = GetSession {
        session: id,
        limit: Some(50),
        cursor: q.cursor.clone(),
        writes: Some(writes_only),
    };
    let finished = user.run(&state, input).await;
    or_error(finished.result, |detail| {
        page(
            "session.html",
            json!({
                "csrf": user.csrf,
                "session": session_view(&detail.session),
                "actions": detail.actions,
                "told": detail.told,
                "next_cursor": detail.next_cursor,
                "writes_only": writes_only,
            }),
        )
    })
}

/// One call: purpose, targets, outcome, input shape, result ids, and its audit entry's link.
pub async fn entry(
    State(state): State<Services>,
    user: PageUser,
    Path(id): Path<String>,
) -> Response {
    let finished = user.run(&state, GetEntry { call: id }).await;
    or_error(finished.result, |call| {
        let shape = call
            .input_shape
            .as_ref()
            .map(|s| serde_json::to_string_pretty(s).unwrap_or_default());
        page(
            "entry.html",
            json!({ "csrf": user.csrf, "call": call, "shape": shape }),
        )
    })
}

/// The audit entry a call links to.
pub async fn audit(
    State(state): State<Services>,
    user: PageUser,
    Path(id): Path<String>,
) -> Response {
    let finished = user
        .run(
            &state,
            GetAuditEntry {
                audit: AuditId::arg(&id),
            },
        )
        .await;
    or_error(finished.result, |entry| {
        page("audit.html", json!({ "csrf": user.csrf, "audit": entry }))
    })
}

#[derive(Deserialize, Default)]
pub struct TimelineQuery {
    #[serde(default)]
    cursor: Option<String>,
    #[serde(default)]
    deleted: Option<String>,
    #[serde(default)]
    closed: Option<String>,
    #[serde(default)]
    dismissed: Option<String>,
    #[serde(default)]
    released: Option<String>,
    #[serde(default)]
    deleted_item: Option<String>,
}

/// A period on the timeline: a day of sessions, or a week or month digest.
#[derive(Serialize)]
struct Period {
    anchor: String,
    kind: &'static str,
    label: String,
    date: NaiveDate,
    sessions: Vec<serde_json::Value>,
    digest: Option<serde_json::Value>,
}

/// The timeline's periods: the days of this page of sessions, then, on the last page, the
/// digests (they cover what is older than the days kept entry by entry).
fn periods(list: &SessionList, digests: &[ListedDigest]) -> Vec<Period> {
    let mut periods: Vec<Period> = Vec::new();
    for s in &list.sessions {
        let date = s.started_at.date_naive();
        match periods.last_mut() {
            Some(p) if p.date == date => p.sessions.push(session_view(s)),
            _ => periods.push(Period {
                anchor: format!("day-{date}"),
                kind: "day",
                label: date.format("%A %-d %B %Y").to_string(),
                date,
                sessions: vec![session_view(s)],
                digest: None,
            }),
        }
    }
    if list.next_cursor.is_none() {
        for d in digests {
            let label = match d.period.as_str() {
                "week" => format!("Week of {}", d.period_start.format("%-d %B %Y")),
                _ => d.period_start.format("%B %Y").to_string(),
            };
            periods.push(Period {
                anchor: d.id.to_string(),
                kind: if d.period == "week" { "week" } else { "month" },
                label,
                date: d.period_start,
                sessions: Vec::new(),
                digest: Some(digest_view(d)),
            });
        }
    }
    periods
}

/// What a page shows of a digest: each of its decisions with its state now, as a session's.
fn digest_view(d: &ListedDigest) -> serde_json::Value {
    let mut value = serde_json::to_value(d).unwrap_or_default();
    let decided: Vec<_> = d
        .summary
        .decisions
        .iter()
        .map(|text| json!({"text": text, "now": DecisionState::said_as(&d.decisions, text)}))
        .collect();
    value["decided"] = json!(decided);
    value
}

/// The whole journal, newest first: days entry by entry (one page of sessions at a time, so a
/// large journal's first page loads without its history), then week and month digests.
pub async fn timeline(
    State(state): State<Services>,
    user: PageUser,
    Query(q): Query<TimelineQuery>,
) -> Response {
    let listed = user
        .run(
            &state,
            ListSessions {
                limit: Some(100),
                cursor: q.cursor.clone(),
                ..Default::default()
            },
        )
        .await;
    let list = match listed.result {
        Ok(list) => list,
        Err(e) => return error_page(&e, true),
    };
    let digests = match user.run(&state, ListDigests::default()).await.result {
        Ok(d) => d.digests,
        Err(e) => return error_page(&e, true),
    };
    // The open loops, on the first page only (they are not a period of the timeline).
    let loops = match &q.cursor {
        Some(_) => None,
        None => match user.run(&state, open_loops()).await.result {
            Ok(list) => Some(list),
            Err(e) => return error_page(&e, true),
        },
    };
    // What the rules withhold from assistants, for the person to release or delete.
    let withheld = match &q.cursor {
        Some(_) => Vec::new(),
        None => match user.run(&state, ListWithheld).await.result {
            Ok(items) => items,
            Err(e) => return error_page(&e, true),
        },
    };
    let withheld: Vec<serde_json::Value> = withheld.iter().map(withheld_card).collect();
    let unacknowledged = ListExposures {
        unacknowledged: Some(true),
    };
    let exposures = match user.run(&state, unacknowledged).await.result {
        Ok(list) => list.exposures,
        Err(e) => return error_page(&e, true),
    };
    let mut periods = periods(&list, &digests);
    if let Some(loops) = &loops {
        shown_once(&mut periods, loops);
    }
    let today = Utc::now().date_naive();
    let oldest = periods
        .iter()
        .map(|p| p.date)
        .chain(digests.iter().map(|d| d.period_start))
        .min()
        .unwrap_or(today);
    page(
        "journal.html",
        json!({
            "csrf": user.csrf,
            "exposures": exposures,
            "periods": periods,
            "next_cursor": list.next_cursor,
            "older_page": q.cursor.is_some(),
            "deleted": q.deleted.is_some(),
            "closed": q.closed.is_some(),
            "dismissed": q.dismissed.is_some(),
            "loops": loops,
            "withheld": withheld,
            "can_release": user.principal.scopes().contains(crate::auth::Scope::ChatsRelease),
            "released": q.released.is_some(),
            "deleted_item": q.deleted_item.is_some(),
            "today": today.to_string(),
            "oldest": oldest.to_string(),
        }),
    )
}

/// A withheld item as its card shows it: the text, for the person, with why it is withheld,
/// who wrote it and when, and whether the person released it.
fn withheld_card(item: &crate::loops::Loop) -> serde_json::Value {
    let stamp = item.stamp.as_ref();
    json!({
        "id": item.id,
        "kind": item.kind,
        "text": item.text,
        "session_id": item.session_id,
        "reason": item.withheld.as_ref().map(|w| w.reason.clone()),
        "rule": item.withheld.as_ref().map(|w| w.rule.clone()),
        "author": stamp.map(|s| s.author.line()),
        "at": item.created_at.format("%Y-%m-%d %H:%M").to_string(),
        "released_at": stamp.and_then(|s| s.released_at).map(|at| at.format("%Y-%m-%d %H:%M").to_string()),
    })
}

/// Each open question and next step on the page once: an entry leaves out what "Still open"
/// lists (compared as the brief compares items, `item_key`), and says how many it handed on
/// that are still open there.
fn shown_once(periods: &mut [Period], loops: &crate::ops::loops::LoopList) {
    use crate::summarize::marked::item_key;
    let open: std::collections::HashSet<String> =
        loops.loops.iter().map(|l| item_key(&l.text)).collect();
    if open.is_empty() {
        return;
    }
    for session in periods.iter_mut().flat_map(|p| p.sessions.iter_mut()) {
        let carried = &mut session["carried"];
        let mut still_open = 0;
        for list in ["open_questions", "next_steps"] {
            if let Some(items) = carried[list].as_array_mut() {
                let before = items.len();
                items.retain(|i| !open.contains(&item_key(i["text"].as_str().unwrap_or_default())));
                still_open += before - items.len();
            }
        }
        carried["still_open"] = json!(still_open);
    }
}

/// The open loops the page shows: 50 not closed (stale ones included), the account's own first,
/// then organization members' (each marked as theirs), each newest first.
fn open_loops() -> ListLoops {
    ListLoops {
        limit: Some(50),
        ..Default::default()
    }
}

/// Search as the page runs it: the same operation as `GET /api/v1/journal/search` and the
/// `journal_search` tool; JSON for the page's script, HTML without it.
pub async fn search(
    State(state): State<Services>,
    user: PageUser,
    headers: HeaderMap,
    Query(input): Query<SearchJournal>,
) -> Response {
    let finished = user.run(&state, input).await;
    if !wants_html(&headers) {
        return match finished.result {
            Ok(results) => Json(results).into_response(),
            Err(e) => e.into_response(),
        };
    }
    or_error(finished.result, |results| {
        page(
            "search.html",
            json!({ "csrf": user.csrf, "results": results }),
        )
    })
}

#[derive(Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    csrf: String,
    /// `session`, `day` or `digest`.
    what: String,
    target: String,
    /// The confirmation the form asks for.
    #[serde(default)]
    confirm: Option<String>,
}

/// Deletes a session's entry, a whole day or a digest, after the form's confirmation.
pub async fn delete(
    State(state): State<Services>,
    user: PageUser,
    Extension(key): Extension<CsrfKey>,
    Form(form): Form<DeleteForm>,
) -> Response {
    if !user.csrf_ok(&key, &form.csrf) {
        return error_page(&csrf_refused(), true);
    }
    if form.confirm.as_deref() != Some("yes") {
        return error_page(
            &Error::BadRequest("confirm the deletion: nothing was deleted".into()),
            true,
        );
    }
    let result = match form.what.as_str() {
        "session" => user
            .run(
                &state,
                DeleteSession {
                    session: form.target.clone(),
                },
            )
            .await
            .result
            .map(|d| d.deleted_sessions.len()),
        "day" => user
            .run(
                &state,
                DeleteDay {
                    date: form.target.clone(),
                },
            )
            .await
            .result
            .map(|d| d.deleted_sessions.len()),
        "digest" => user
            .run(
                &state,
                DeleteDigest {
                    digest: form.target.clone(),
                },
            )
            .await
            .result
            .map(|_| 1),
        _ => Err(Error::BadRequest(
            "what must be session, day or digest".into(),
        )),
    };
    or_error(result, |_| {
        Redirect::to("/journal?deleted=1").into_response()
    })
}
