//! Issue 44's fleet test: three replicas of the real binary started at the same moment on one
//! database, tenant work through PgBouncer, the workers running on every replica, mixed traffic
//! from several accounts, and one replica restarted in the middle of it. Every acknowledged
//! write is stored once, the quiet sweep (every replica's, each second) closes each quiet
//! session once, every ended session gets one summary and its `session.ended` event is
//! delivered once, a key revoked is refused by every replica on its next request, and the
//! limits hold across the three.

use crate::common::receiver::Receiver;
use crate::common::{self, JOURNAL_SCOPES, pgbouncer::PgBouncer, replicas::Replica};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

const ACCOUNTS: usize = 3;
const SESSIONS: usize = 2;
/// Appends per session in each of the three phases (before, during and after the restart).
const PER_PHASE: usize = 6;

struct Tenant {
    token: String,
    record: String,
    sessions: Vec<String>,
}

/// `POST` (or `GET` without a body) to `base` as `token`; the status and the JSON answer.
async fn call(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    path: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value), reqwest::Error> {
    let url = format!("{base}{path}");
    let mut request = match &body {
        Some(body) => http.post(url).json(body),
        None => http.get(url),
    };
    request = request
        .bearer_auth(token)
        .header("x-purpose", "fleet traffic");
    if let Some(session) = session {
        request = request.header("x-session-id", session);
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    Ok((status, response.json().await.unwrap_or(Value::Null)))
}

/// One phase of traffic: every session of every tenant appends `PER_PHASE` lines, all at
/// once, spread over `bases`; the lines acknowledged (answered 201). Every append is answered
/// 201 except, when `restarting` names a base, those sent to it, which may instead be refused
/// with 503 or find the connection closed or refused (it is stopping or starting); any other
/// answer fails the test.
async fn phase(
    http: &reqwest::Client,
    bases: &[String],
    tenants: &[Tenant],
    phase: usize,
    restarting: Option<usize>,
) -> Vec<String> {
    let mut appends = Vec::new();
    for (t, tenant) in tenants.iter().enumerate() {
        for (s, session) in tenant.sessions.iter().enumerate() {
            for i in 0..PER_PHASE {
                let line = format!("fleet {t}.{s}.{phase}.{i}");
                let to = (t + s + i) % bases.len();
                let base = bases[to].clone();
                let path = format!("/api/v1/records/{}/entries", tenant.record);
                appends.push(async move {
                    let body = Some(json!({ "line": line }));
                    let answer = call(http, &base, &tenant.token, &path, Some(session), body).await;
                    (line, to, answer)
                });
            }
        }
    }
    let mut acked = Vec::new();
    for (line, to, answer) in futures::future::join_all(appends).await {
        match answer {
            Ok((201, _)) => acked.push(line),
            Ok((503, _)) if restarting == Some(to) => {}
            Err(e) if restarting == Some(to) && (e.is_connect() || e.is_request()) => {}
            other => panic!("phase {phase}: {line} to replica {to} answered {other:?}"),
        }
    }
    acked
}

/// Three replicas on `db_url`, tenant work through `bouncer`, started at the same moment,
/// each ready.
async fn three_replicas(
    bouncer: &PgBouncer,
    db_url: &str,
    settings: &[(&str, &str)],
) -> Vec<Replica> {
    let pooled = bouncer.url(db_url);
    let mut replicas: Vec<Replica> = (0..3)
        .map(|_| Replica::start(db_url, Some((&pooled, &bouncer.app_role)), settings))
        .collect();
    for replica in &mut replicas {
        replica.ready().await;
    }
    replicas
}

/// Polls `check` every 200 ms for up to 60 s.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check().await {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn three_replicas_behind_pgbouncer_store_once_summarise_once_and_revoke_as_one() {
    let bouncer = PgBouncer::start(&common::server_url().await, 4).await;
    let app = common::spawn_app_through(&bouncer).await;
    let receiver = Receiver::start().await;
    let settings = [
        ("N8V_RATE_LIMIT_PER_MINUTE", "0"),
        ("N8V_WEBHOOK_ALLOW_PRIVATE", "true"),
        // The quiet sweep every second, on every replica at once.
        ("N8V_SWEEP_SCHEDULE", "* * * * * *"),
    ];
    let mut replicas = three_replicas(&bouncer, &app.db_url, &settings).await;
    let bases: Vec<String> = replicas.iter().map(Replica::base).collect();
    let http = reqwest::Client::new();

    let mut tenants = Vec::new();
    let mut keys = Vec::new();
    for t in 0..ACCOUNTS {
        let account = app
            .account(
                &format!("Fleet {t}"),
                &format!("{JOURNAL_SCOPES},webhooks:write"),
            )
            .await;
        app.journal_on(account.id).await;
        let record = app.record_of(account.id).await;
        let mut sessions = Vec::new();
        for s in 0..SESSIONS {
            let base = &bases[(t + s) % 3];
            let body = Some(json!({ "goal": format!("fleet session {t}.{s}") }));
            let (status, started) = call(
                &http,
                base,
                &account.token,
                "/api/v1/journal/sessions",
                None,
                body,
            )
            .await
            .unwrap();
            assert_eq!(status, 201, "{started}");
            sessions.push(started["id"].as_str().unwrap().to_owned());
        }
        keys.push(account.key_id);
        tenants.push(Tenant {
            token: account.token,
            record,
            sessions,
        });
    }
    // The first account's session.ended events go to a receiver.
    let body = Some(json!({ "url": receiver.url(), "events": ["session.ended"] }));
    let (status, made) = call(
        &http,
        &bases[1],
        &tenants[0].token,
        "/api/v1/webhooks",
        None,
        body,
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{made}");

    let mut acked = phase(&http, &bases, &tenants, 0, None).await;
    // The second phase runs while the second replica restarts: only it may refuse, and what it
    // refuses is not acked.
    let (during, ()) = tokio::join!(
        phase(&http, &bases, &tenants, 1, Some(1)),
        replicas[1].restart()
    );
    acked.extend(during);
    acked.extend(phase(&http, &bases, &tenants, 2, None).await);
    let expected = ACCOUNTS * SESSIONS * PER_PHASE * 3;

    // Every acknowledged line is stored, and no line twice.
    let stored: Vec<(String, i64)> = sqlx::query_as(
        "SELECT line, count(*) FROM record_entries WHERE line LIKE 'fleet %' GROUP BY line",
    )
    .fetch_all(&app.owner)
    .await
    .unwrap();
    let twice: Vec<_> = stored.iter().filter(|(_, n)| *n > 1).collect();
    assert!(twice.is_empty(), "stored twice: {twice:?}");
    let stored: HashSet<String> = stored.into_iter().map(|(line, _)| line).collect();
    let lost: Vec<_> = acked.iter().filter(|l| !stored.contains(*l)).collect();
    assert!(lost.is_empty(), "acknowledged, not stored: {lost:?}");

    // Each tenant's first session is ended through some replica; its second is left to the
    // quiet sweep, which every replica runs each second: its activity is moved three hours
    // back, so the next sweep of any replica finds it quiet.
    for (t, tenant) in tenants.iter().enumerate() {
        let session = &tenant.sessions[0];
        let path = format!("/api/v1/journal/sessions/{session}/end");
        let body = Some(json!({ "outcome": "done" }));
        let (status, ended) = call(&http, &bases[(t + 1) % 3], &tenant.token, &path, None, body)
            .await
            .unwrap();
        assert_eq!(status, 200, "{ended}");
    }
    let quiet: Vec<uuid::Uuid> = tenants
        .iter()
        .map(|t| n8v_journal::ids::parse(n8v_journal::ids::Kind::Session, &t.sessions[1]).unwrap())
        .collect();
    sqlx::query(
        "UPDATE journal_calls SET created_at = created_at - interval '3 hours' \
          WHERE session_id = ANY($1)",
    )
    .bind(&quiet)
    .execute(&app.owner)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE journal_sessions SET last_activity_at = last_activity_at - interval '3 hours', \
                started_at = started_at - interval '3 hours' WHERE session_id = ANY($1)",
    )
    .bind(&quiet)
    .execute(&app.owner)
    .await
    .unwrap();
    let closed_quiet = || async {
        sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM journal_sessions WHERE session_id = ANY($1) AND end_reason = 'quiet'",
        )
        .bind(&quiet)
        .fetch_one(&app.owner)
        .await
        .unwrap()
    };
    eventually("the sweep closes the quiet sessions", || async {
        closed_quiet().await == ACCOUNTS as i64
    })
    .await;
    let sessions = ACCOUNTS * SESSIONS;
    let summaries = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM session_summaries")
            .fetch_one(&app.owner)
            .await
            .unwrap()
    };
    eventually("a summary for every session", || async {
        summaries().await >= sessions as i64
    })
    .await;
    eventually("both session.ended events delivered", || async {
        receiver.received().len() >= SESSIONS
    })
    .await;
    // Let any duplicate arrive, then count.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let per_session: Vec<(uuid::Uuid, i64)> =
        sqlx::query_as("SELECT session_id, count(*) FROM session_summaries GROUP BY session_id")
            .fetch_all(&app.owner)
            .await
            .unwrap();
    assert_eq!(per_session.len(), sessions, "{per_session:?}");
    assert!(per_session.iter().all(|(_, n)| *n == 1), "{per_session:?}");
    let received = receiver.received();
    let ids: HashMap<String, usize> = received.iter().fold(HashMap::new(), |mut ids, r| {
        *ids.entry(
            r.headers["webhook-id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
        .or_default() += 1;
        ids
    });
    assert_eq!(
        ids.len(),
        SESSIONS,
        "one delivery per ended session: {ids:?}"
    );
    assert!(ids.values().all(|n| *n == 1), "delivered twice: {ids:?}");

    println!(
        "fleet: {} of {expected} appends acknowledged, each stored once; {sessions} sessions, \
         {} summaries; {} session.ended deliveries",
        acked.len(),
        per_session.len(),
        ids.len()
    );
    // A key revoked is refused by every replica on its very next request.
    n8v_journal::admin::revoke_key(&app.owner, keys[2])
        .await
        .unwrap();
    for base in &bases {
        let (status, refused) = call(
            &http,
            base,
            &tenants[2].token,
            "/api/v1/records",
            None,
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, 401, "{base}: {refused}");
    }
}

/// The limits of three replicas started at once behind PgBouncer are the deployment's: the
/// registration budget, the per-credential rate limit (within one lease and the refill) and
/// the failed-authentication lockout hold across all three.
#[tokio::test]
async fn three_replicas_hold_the_limits_as_one() {
    const LIMIT: u32 = 60;
    let bouncer = PgBouncer::start(&common::server_url().await, 4).await;
    let app = common::spawn_app_through(&bouncer).await;
    let settings = [
        ("N8V_RATE_LIMIT_PER_MINUTE", "60"),
        ("N8V_AUTH_FAILURES_PER_MINUTE", "5"),
        ("N8V_OAUTH_REGISTRATIONS_PER_MINUTE", "3"),
    ];
    let replicas = three_replicas(&bouncer, &app.db_url, &settings).await;
    let bases: Vec<String> = replicas.iter().map(Replica::base).collect();
    let http = reqwest::Client::new();

    let mut registrations = Vec::new();
    for i in 0..6 {
        let response = http
            .post(format!("{}/oauth/register", bases[i % 3]))
            .json(&json!({"client_name": "c", "redirect_uris": [common::oauth::REDIRECT]}))
            .send()
            .await
            .unwrap();
        registrations.push(response.status().as_u16());
    }
    assert_eq!(registrations, [201, 201, 201, 429, 429, 429]);

    let a = app.account("A", "records:read").await;
    let lease = n8v_journal::auth::limits::lease_size(LIMIT);
    let started = Instant::now();
    let mut served = 0;
    for i in 0..120 {
        let (status, _) = call(
            &http,
            &bases[i % 3],
            &a.token,
            "/api/v1/records",
            None,
            None,
        )
        .await
        .unwrap();
        match status {
            200 => served += 1,
            429 => {}
            other => panic!("status {other}"),
        }
    }
    let refilled = (started.elapsed().as_secs_f64() * f64::from(LIMIT) / 60.0).ceil() as u32;
    println!(
        "fleet limits: {served} of 120 served at {LIMIT}/min over three replicas (lease {lease}, {refilled} refilled)"
    );
    assert!(
        served <= LIMIT + lease + refilled,
        "{served} served (lease {lease}, {refilled} refilled)"
    );
    assert!(served + 3 * lease >= LIMIT, "{served} served");

    for i in 0..5 {
        let (status, _) = call(
            &http,
            &bases[i % 3],
            "n8v_sk_nope",
            "/api/v1/records",
            None,
            None,
        )
        .await
        .unwrap();
        assert_eq!(status, 401, "failure {i}");
    }
    for base in &bases {
        let (status, _) = call(&http, base, "n8v_sk_nope", "/api/v1/records", None, None)
            .await
            .unwrap();
        assert_eq!(
            status, 429,
            "{base} after five failures over three replicas"
        );
    }
}
