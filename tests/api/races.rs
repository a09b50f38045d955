//! Races between whole requests on one account (issue 34, findings 5 and 6): deletions of
//! sessions against each other and against closes, acknowledgements and calls recorded in the
//! sessions being deleted. Whatever the interleaving, every answer is one a client can act on:
//! never a `500` (a deadlock, a foreign key broken under a call).

use crate::common::{self, TestApp};
use n8v_journal::ids::{self, Kind};
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::DELETING_SCOPES as SCOPES;

fn uuid(kind: Kind, id: &str) -> uuid::Uuid {
    ids::parse(kind, id).unwrap_or_else(|| panic!("{id}"))
}

/// A small deterministic generator: the same tangle of items every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// An explicit session, ended with three next steps shared by every session of the round (so
/// they are one item with a source in each) and two of its own.
async fn ended_session(app: &TestApp, token: &str, n: usize) -> String {
    let session = app.start_session(token, None, json!({"goal": "g"})).await;
    let id = session.id.to_string();
    app.end_session(
        token,
        &id,
        json!({
            "outcome": "done",
            "next_steps": [
                "Run the shared migration", "Tell the shared team", "Check the shared logs",
                format!("Own step {n} a"), format!("Own step {n} b"),
            ],
        }),
    )
    .ok(200)
    .await;
    id
}

/// Two days of sessions whose items are tangled across the days: every item has sources on
/// both days or was closed by a session of the other day, so deleting either day locks items
/// the other deletion locks too, in whatever order its sessions come.
async fn tangled_days(app: &TestApp, token: &str, round: u64) -> [chrono::NaiveDate; 2] {
    let days = [
        chrono::NaiveDate::from_ymd_opt(2026, 3, 2).unwrap()
            + chrono::Duration::days(2 * round as i64),
        chrono::NaiveDate::from_ymd_opt(2026, 3, 3).unwrap()
            + chrono::Duration::days(2 * round as i64),
    ];
    let mut sessions: [Vec<uuid::Uuid>; 2] = [Vec::new(), Vec::new()];
    for n in 0..16 {
        let id = ended_session(app, token, n).await;
        sessions[n % 2].push(uuid(Kind::Session, &id));
    }
    for (day, ids) in days.iter().zip(&sessions) {
        sqlx::query(
            "UPDATE journal_sessions SET started_at = $1::date + time '12:00' \
             WHERE session_id = ANY ($2)",
        )
        .bind(day)
        .bind(ids)
        .execute(&app.owner)
        .await
        .unwrap();
    }
    // Each session's own items closed by a session of the other day, picked at random.
    let owned: Vec<(uuid::Uuid, uuid::Uuid)> = sqlx::query_as(
        "SELECT loop_id, session_id FROM journal_loops \
         WHERE session_id = ANY ($1) AND text LIKE 'Own step%'",
    )
    .bind(sessions.concat())
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let mut pick = Lcg(round + 7);
    for (item, opener) in owned {
        let other = &sessions[usize::from(sessions[0].contains(&opener))];
        let closer = other[pick.below(other.len())];
        sqlx::query(
            "UPDATE journal_loops SET state = 'done', closed_at = now(), closed_session_id = $2 \
             WHERE loop_id = $1",
        )
        .bind(item)
        .bind(closer)
        .execute(&app.owner)
        .await
        .unwrap();
    }
    days
}

#[tokio::test]
async fn two_day_deletions_sharing_items_both_succeed() {
    let app = common::spawn_app().await;
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    for round in 0..4 {
        let days = tangled_days(&app, &a.token, round).await;
        let delete = |day: chrono::NaiveDate| {
            app.call(Method::DELETE, &format!("/api/v1/journal/days/{day}"))
                .token(&a.token)
                .send()
        };
        let (first, second) = tokio::join!(delete(days[0]), delete(days[1]));
        for (day, response) in days.iter().zip([first, second]) {
            let status = response.status().as_u16();
            let body = response.text().await.unwrap();
            assert_eq!(status, 200, "round {round}, deleting {day}: {body}");
            let deleted: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(
                deleted["deleted_sessions"].as_array().unwrap().len(),
                8,
                "{body}"
            );
        }
    }
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_loops")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(left, 0, "every item went with its sessions");
}

/// What each kind of request answered during a run.
#[derive(Default)]
struct Tally {
    statuses: std::collections::BTreeMap<(String, u16), usize>,
    failures: Vec<String>,
}

impl Tally {
    async fn note(&mut self, what: &str, response: reqwest::Response) -> Option<Value> {
        let status = response.status().as_u16();
        *self.statuses.entry((what.to_owned(), status)).or_default() += 1;
        let body = response.text().await.unwrap_or_default();
        if status >= 500 {
            self.failures.push(format!("{what}: {status} {body}"));
        }
        serde_json::from_str(&body).ok()
    }
}

/// One worker of the mixed traffic: `kind` picks what it keeps doing until `stop`.
async fn traffic(app: Arc<TestApp>, token: String, kind: usize, stop: Arc<AtomicBool>) -> Tally {
    let mut tally = Tally::default();
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        match kind {
            // Sessions handing on shared items and resolving the open ones they see.
            0 | 1 => {
                let started = app
                    .call(Method::POST, "/api/v1/journal/sessions")
                    .token(&token)
                    .json(json!({"goal": "mixed"}))
                    .send()
                    .await;
                let Some(session) = tally.note("start", started).await else {
                    continue;
                };
                let Some(id) = session["id"].as_str().map(str::to_owned) else {
                    continue;
                };
                let open = app.get(&token, "/api/v1/journal/loops?limit=20").await;
                let resolved: Vec<String> = tally
                    .note("loops", open)
                    .await
                    .and_then(|l| l["loops"].as_array().cloned())
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|i| i["id"].as_str().map(str::to_owned))
                    .filter(|_| n % 2 == kind)
                    .take(5)
                    .collect();
                let end = app
                    .end_session(
                        &token,
                        &id,
                        json!({
                            "outcome": "done",
                            "next_steps": [
                                "Run the shared migration", "Tell the shared team",
                                format!("Step {kind} {}", n % 4),
                            ],
                            "open_questions": [format!("Question {}?", n % 3)],
                            "resolved": resolved,
                        }),
                    )
                    .send()
                    .await;
                tally.note("end", end).await;
            }
            // Closing open items one at a time.
            2 => {
                let open = app.get(&token, "/api/v1/journal/loops?limit=5").await;
                let items = tally
                    .note("loops", open)
                    .await
                    .and_then(|l| l["loops"].as_array().cloned())
                    .unwrap_or_default();
                for item in items {
                    let id = item["id"].as_str().unwrap();
                    let close = app
                        .call(Method::POST, &format!("/api/v1/journal/loops/{id}/close"))
                        .token(&token)
                        .json(json!({"state": "dropped"}))
                        .send()
                        .await;
                    tally.note("close", close).await;
                }
            }
            // A credential in a purpose (an exposure), then acknowledging what is listed.
            3 => {
                let token_text = format!("ghp_{}Zq9X", uuid::Uuid::new_v4().simple());
                let leaked = app
                    .call(Method::GET, "/api/v1/records")
                    .token(&token)
                    .purpose(&format!("Check with {token_text}"))
                    .send()
                    .await;
                tally.note("exposed", leaked).await;
                let listed = app.get(&token, "/api/v1/journal/exposures").await;
                let exposures = tally
                    .note("exposures", listed)
                    .await
                    .and_then(|l| l["exposures"].as_array().cloned())
                    .unwrap_or_default();
                for exposure in exposures.iter().take(3) {
                    let id = exposure["id"].as_str().unwrap();
                    let acknowledged = app
                        .call(
                            Method::POST,
                            &format!("/api/v1/journal/exposures/{id}/acknowledge"),
                        )
                        .token(&token)
                        .send()
                        .await;
                    tally.note("acknowledge", acknowledged).await;
                }
            }
            // Deleting sessions one by one, and now and then the whole day.
            _ => {
                if n % 5 == 0 {
                    let today = app.clock_today();
                    let day = app
                        .call(Method::DELETE, &format!("/api/v1/journal/days/{today}"))
                        .token(&token)
                        .send()
                        .await;
                    tally.note("delete day", day).await;
                    continue;
                }
                let listed = app.get(&token, "/api/v1/journal/sessions?limit=10").await;
                let sessions = tally
                    .note("sessions", listed)
                    .await
                    .and_then(|l| l["sessions"].as_array().cloned())
                    .unwrap_or_default();
                for session in sessions.iter().skip(n % 3).take(2) {
                    let id = session["id"].as_str().unwrap();
                    let gone = app
                        .call(Method::DELETE, &format!("/api/v1/journal/sessions/{id}"))
                        .token(&token)
                        .send()
                        .await;
                    tally.note("delete session", gone).await;
                }
            }
        }
    }
    tally
}

impl TestApp {
    /// Today by the app's clock (the day its sessions start on).
    fn clock_today(&self) -> chrono::NaiveDate {
        use n8v_journal::clock::Clock;
        self.clock.now().date_naive()
    }
}

#[tokio::test]
async fn mixed_traffic_on_one_account_never_fails_and_the_account_can_be_deleted_meanwhile() {
    let app = Arc::new(common::spawn_app().await);
    let a = app.account("A", &format!("{SCOPES},account:delete")).await;
    app.journal_on(a.id).await;
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..5)
        .map(|kind| tokio::spawn(traffic(app.clone(), a.token.clone(), kind, stop.clone())))
        .collect();
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(6)).await;
    let deleted = app
        .call(Method::DELETE, "/api/v1/account")
        .token(&a.token)
        .json(json!({"confirm": a.ext}))
        .send()
        .await;
    let status = deleted.status().as_u16();
    let body = deleted.text().await.unwrap();
    tokio::time::sleep(Duration::from_secs(8).saturating_sub(began.elapsed())).await;
    stop.store(true, Ordering::SeqCst);
    let mut failures = Vec::new();
    let mut statuses = std::collections::BTreeMap::new();
    for worker in workers {
        let tally = worker.await.unwrap();
        failures.extend(tally.failures);
        for (key, n) in tally.statuses {
            *statuses.entry(key).or_insert(0) += n;
        }
    }
    eprintln!("answers during the run: {statuses:?}");
    assert_eq!(
        status, 200,
        "deleting the account during the traffic: {body}"
    );
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM accounts WHERE account_id = $1")
        .bind(a.id)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!(left, 0, "the account is gone");
    assert!(failures.is_empty(), "server errors: {failures:#?}");
    let ends = statuses
        .iter()
        .filter(|((what, status), _)| what == "end" && *status == 200)
        .map(|(_, n)| n)
        .sum::<usize>();
    assert!(ends > 0, "the traffic did work: {statuses:?}");
}

/// Four callers recording in one session (`X-Session-Id`) while another key deletes it: each
/// call is carried out and recorded in it, or told the session is gone, as a call naming a
/// deleted session is; never a `500`.
#[tokio::test]
async fn calls_recorded_in_a_session_deleted_meanwhile_are_told_it_is_gone() {
    let app = Arc::new(common::spawn_app().await);
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let (_, deleter) = app.key(a.id, SCOPES, None).await;
    let record = app.first_record(&a.token).await;
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let mut failures = Vec::new();
    for round in 0..6 {
        let session = app.start_session(&a.token, None, json!({})).await;
        let id = session.id.to_string();
        let callers = (0..4).map(|caller| {
            let (app, token, id, record) =
                (app.clone(), a.token.clone(), id.clone(), record.clone());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for n in 0..10 {
                    let request = if (caller + n) % 2 == 0 {
                        app.call(Method::GET, "/api/v1/records")
                    } else {
                        app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
                            .json(json!({"line": format!("line {round} {caller} {n}")}))
                    };
                    let response = request.token(&token).session(Some(&id)).send().await;
                    let status = response.status().as_u16();
                    answers.push((status, response.text().await.unwrap()));
                }
                answers
            })
        });
        let callers: Vec<_> = callers.collect();
        tokio::time::sleep(Duration::from_millis(20 + 15 * round)).await;
        app.call(Method::DELETE, &format!("/api/v1/journal/sessions/{id}"))
            .token(&deleter)
            .ok(200)
            .await;
        for caller in callers {
            for (status, body) in caller.await.unwrap() {
                *statuses.entry(status).or_default() += 1;
                if !matches!(status, 200 | 201 | 404 | 409) {
                    failures.push(format!("{status} {body}"));
                }
            }
        }
    }
    eprintln!("answers: {statuses:?}");
    assert!(
        failures.is_empty(),
        "{} failed: {failures:#?}",
        failures.len()
    );
    assert!(
        statuses.contains_key(&404),
        "some calls met the deleted session: {statuses:?}"
    );
}

/// A close that deadlocks with another transaction is rolled back and run again whole: it
/// answers 200, and its call, its audit entry and the close itself each exist once.
#[tokio::test]
async fn an_operation_that_deadlocks_is_run_again_and_stored_once() {
    use sqlx::Connection;
    let app = Arc::new(common::spawn_app().await);
    let a = app.account("A", SCOPES).await;
    app.journal_on(a.id).await;
    let opener = app.start_session(&a.token, None, json!({})).await;
    let opener = &opener.id.to_string();
    app.end_session(&a.token, opener, json!({"next_steps": ["Ship it"]}))
        .ok(200)
        .await;
    let item: uuid::Uuid = sqlx::query_scalar("SELECT loop_id FROM journal_loops")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    let closer = app.start_session(&a.token, None, json!({})).await;
    let closer = closer.id.to_string();

    // Another transaction holds the item; the close takes its session, then waits for it.
    let mut other = sqlx::PgConnection::connect(&app.db_url).await.unwrap();
    sqlx::query("BEGIN").execute(&mut other).await.unwrap();
    sqlx::query("SELECT 1 FROM journal_loops WHERE loop_id = $1 FOR UPDATE")
        .bind(item)
        .execute(&mut other)
        .await
        .unwrap();
    let close = {
        let (app, token, closer) = (app.clone(), a.token.clone(), closer.clone());
        let item = ids::format(Kind::Item, item);
        tokio::spawn(async move {
            app.call(Method::POST, &format!("/api/v1/journal/loops/{item}/close"))
                .token(&token)
                .session(Some(&closer))
                .json(json!({"state": "done"}))
                .send()
                .await
        })
    };
    common::race::wait_until("the close to wait for the item", || async {
        common::race::lock_waiters(&app.db_url).await >= 1
    })
    .await;
    // Now it wants the close's session: a deadlock, which PostgreSQL breaks by failing the
    // close (it has waited longest).
    sqlx::query("SELECT 1 FROM journal_sessions WHERE session_id = $1 FOR UPDATE")
        .bind(uuid(Kind::Session, &closer))
        .execute(&mut other)
        .await
        .unwrap();
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();

    let response = close.await.unwrap();
    let status = response.status().as_u16();
    assert_eq!(status, 200, "{}", response.text().await.unwrap());
    let count = |sql: &'static str| {
        let owner = app.owner.clone();
        async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(&owner)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        count("SELECT count(*) FROM journal_calls WHERE operation = 'closeLoop'").await,
        1
    );
    assert_eq!(
        count("SELECT count(*) FROM audit_log WHERE path LIKE '%/close'").await,
        1
    );
    let closed: (String, Option<uuid::Uuid>) =
        sqlx::query_as("SELECT state, closed_session_id FROM journal_loops")
            .fetch_one(&app.owner)
            .await
            .unwrap();
    assert_eq!(closed, ("done".into(), Some(uuid(Kind::Session, &closer))));
}

/// An account's deletion waits for an operation under way on the account (the account's lock,
/// `db::ACCOUNT_LOCK`, which operations hold shared and the deletion alone), and then goes
/// through: it never races the operation into a deadlock. The operation's transaction here is
/// begun as `Operation` begins it; the keys of the two locks must agree for the wait to happen.
#[tokio::test]
async fn an_account_deletion_waits_for_the_operation_under_way() {
    use n8v_journal::db::{Checks, Tenant, TenantTx};
    let app = Arc::new(common::spawn_app().await);
    let a = app.account("A", &format!("{SCOPES},account:delete")).await;
    let checks = Checks {
        account_lock: true,
        ..Checks::default()
    };
    let under_way = TenantTx::begin_with(&app.db, &Tenant::account(a.id), checks)
        .await
        .unwrap();
    let deletion = {
        let (app, token, ext) = (app.clone(), a.token.clone(), a.ext.clone());
        tokio::spawn(async move {
            let response = app
                .call(Method::DELETE, "/api/v1/account")
                .token(&token)
                .json(json!({"confirm": ext}))
                .send()
                .await;
            (response.status().as_u16(), response.text().await.unwrap())
        })
    };
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(
        !deletion.is_finished(),
        "the deletion went ahead while an operation held the account"
    );
    under_way.rollback().await.unwrap();
    let (status, body) = deletion.await.unwrap();
    assert_eq!(status, 200, "{body}");
    let after = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .send()
        .await;
    assert_eq!(
        after.status().as_u16(),
        401,
        "the key went with its account"
    );
}
