//! Who can see which sessions, calls, audit entries and Records, over HTTP: the scope-subset
//! rule, repository-restricted keys, organizations, other accounts, operators, and the journal
//! flag switched off.

use crate::common;

use crate::common::{Call, TestApp, expect_ok, expect_problem, session_of};
use n8v_journal::admin;
use n8v_journal::ids::{self, Kind};
use n8v_journal::journal::{Call as JournalCall, Session};
use n8v_journal::ops::journal::SessionDetail;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::JOURNAL_AND_ORG_SCOPES as ALL_SCOPES;

/// Every request here says why it is made.
const PURPOSE: &str = "check who can see what";

/// The ids of the sessions the credential lists (one page of 100).
async fn listed(app: &TestApp, token: &str, query: &str) -> Vec<String> {
    app.session_ids(token, Some(PURPOSE), &format!("?limit=100{query}"))
        .await
}

/// A request for one call of the journal (finish with `.ok(200)` or `.problem(…)`).
fn get_entry<'a>(app: &'a TestApp, token: &str, call: &str) -> Call<'a> {
    app.call(Method::GET, &format!("/api/v1/journal/entries/{call}"))
        .token(token)
        .purpose(PURPOSE)
}

/// Neither the session nor its call exists for this credential (both answer 404).
async fn hidden_from(app: &TestApp, token: &str, session: &str, call: &str) {
    app.get_session(token, session)
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;
    get_entry(app, token, call).problem(404, "not-found").await;
}

/// The call of the given operation in a session (as its own credential sees it).
async fn call_of(app: &TestApp, token: &str, session: &str, operation: &str) -> JournalCall {
    let detail = read(app, token, session).await;
    let call = detail.actions.iter().find(|c| c.operation == operation);
    call.unwrap_or_else(|| panic!("no {operation} call in {detail:?}"))
        .clone()
}

/// The session as `token` reads it, with its calls.
async fn read(app: &TestApp, token: &str, session: &str) -> SessionDetail {
    let read = app.get_session(token, session).purpose(PURPOSE);
    read.typed(200).await
}

/// Whether the detail lists the call `id`.
fn lists(detail: &SessionDetail, id: &str) -> bool {
    detail.actions.iter().any(|c| c.id.to_string() == id)
}

async fn records_of(app: &TestApp, token: &str) -> Vec<Value> {
    let body = app
        .call(Method::GET, "/api/v1/records")
        .token(token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    body["records"].as_array().unwrap().clone()
}

/// The organization a session is for, as its id's text.
fn org_of(session: &Session) -> Option<String> {
    session.organization_id.map(|o| o.to_string())
}

#[tokio::test]
async fn a_session_is_visible_only_to_keys_holding_all_its_scopes() {
    let app = common::spawn_app().await;
    let acc = app.account("A", "chats:read,records:write").await;
    app.journal_on(acc.id).await;
    let record = app.record_of(acc.id).await;

    let session = app
        .start_session(&acc.token, Some(PURPOSE), json!({"goal": "write a line"}))
        .await;
    let sid = session.id.to_string();
    let mut scopes = session.scopes.clone();
    scopes.sort();
    assert_eq!(scopes, ["chats:read", "records:write"], "{session:?}");
    assert_eq!(
        session.key_id.to_string(),
        ids::format(Kind::Key, acc.key_id)
    );
    app.append(&acc.token, &record, Some(&sid), Some(PURPOSE), "one line")
        .await;
    let call = call_of(&app, &acc.token, &sid, "appendRecordEntry").await;
    let call_id = call.id.to_string();
    assert!(listed(&app, &acc.token, "").await.contains(&sid));

    // Fewer scopes than the session's: it does not exist for this key.
    let (_, narrow) = app.key(acc.id, "chats:read", None).await;
    assert!(!listed(&app, &narrow, "").await.contains(&sid));
    assert!(
        !listed(
            &app,
            &narrow,
            &format!("&key={}", ids::format(Kind::Key, acc.key_id))
        )
        .await
        .contains(&sid)
    );
    hidden_from(&app, &narrow, &sid, &call_id).await;

    // A key with a different, non-covering set (records:write missing) is refused too.
    let (_, sideways) = app.key(acc.id, "chats:read,records:read", None).await;
    assert!(!listed(&app, &sideways, "").await.contains(&sid));
    hidden_from(&app, &sideways, &sid, &call_id).await;

    // A superset of the session's scopes sees it, its calls and each call.
    let (_, wide) = app
        .key(acc.id, "chats:read,records:write,records:read", None)
        .await;
    assert!(listed(&app, &wide, "").await.contains(&sid));
    let detail = read(&app, &wide, &sid).await;
    assert_eq!(detail.session.id.to_string(), sid);
    assert!(lists(&detail, &call_id), "{detail:?}");
    let entry = get_entry(&app, &wide, &call_id).ok(200).await;
    assert_eq!(entry["session_id"], sid.as_str());
    assert_eq!(entry["operation"], "appendRecordEntry");
    assert_eq!(entry["wrote"], true);
    // Seeing is not owning: only the recording key may end it.
    app.end_session(&wide, &sid, json!({"outcome": "not mine"}))
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;

    // A token minted from the wide key with fewer scopes is held to the token's scopes.
    let minted = expect_ok(
        app.post(
            &wide,
            "/api/v1/auth/token",
            json!({"scopes": ["chats:read"]}),
        )
        .await,
        200,
    )
    .await;
    let jwt = minted["access_token"].as_str().unwrap();
    assert!(!listed(&app, jwt, "").await.contains(&sid));
    hidden_from(&app, jwt, &sid, &call_id).await;
}

#[tokio::test]
async fn repository_restricted_keys_see_only_their_own_sessions() {
    let app = common::spawn_app().await;
    let acc = app.account("A", "chats:read,records:write").await;
    app.journal_on(acc.id).await;
    let record = app.record_of(acc.id).await;
    let (restricted_id, restricted) = app
        .key(acc.id, "chats:read,records:write", Some("acme/web"))
        .await;

    // The unrestricted key's session, with the same scopes.
    let theirs = app
        .start_session(
            &acc.token,
            Some(PURPOSE),
            json!({"goal": "unrestricted work"}),
        )
        .await;
    let theirs = theirs.id.to_string();
    app.append(
        &acc.token,
        &record,
        Some(&theirs),
        Some(PURPOSE),
        "from everywhere",
    )
    .await;
    let their_call = call_of(&app, &acc.token, &theirs, "appendRecordEntry").await;
    let their_call_id = their_call.id.to_string();
    let their_audit = their_call.audit_id.unwrap().to_string();

    // The restricted key's session: its own repository wins over the one in the body.
    let mine = app
        .start_session(
            &restricted,
            Some(PURPOSE),
            json!({"goal": "web work", "repository": "acme/other"}),
        )
        .await;
    assert_eq!(mine.repository.as_deref(), Some("acme/web"), "{mine:?}");
    assert_eq!(
        mine.key_id.to_string(),
        ids::format(Kind::Key, restricted_id)
    );
    let mine = mine.id.to_string();
    app.append(
        &restricted,
        &record,
        Some(&mine),
        Some(PURPOSE),
        "from acme/web",
    )
    .await;
    // A call without a session joins the caller's open session...
    let joined = app
        .append(&restricted, &record, None, Some(PURPOSE), "joins")
        .await;
    assert_eq!(joined, mine);
    // ...and once that has ended, lands in an implicit one, also bound to the repository.
    app.end_session(&restricted, &mine, json!({"outcome": "web work done"}))
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let implicit = app
        .append(&restricted, &record, None, Some(PURPOSE), "implicit")
        .await;
    assert_ne!(implicit, mine);

    let seen = listed(&app, &restricted, "").await;
    assert!(seen.contains(&mine) && seen.contains(&implicit), "{seen:?}");
    assert!(!seen.contains(&theirs), "{seen:?}");
    for sid in [&mine, &implicit] {
        let detail = read(&app, &restricted, sid).await;
        let repository = detail.session.repository.as_deref();
        assert_eq!(repository, Some("acme/web"), "{detail:?}");
    }
    app.get_session(&restricted, &theirs)
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;
    get_entry(&app, &restricted, &their_call_id)
        .problem(404, "not-found")
        .await;
    // Filtering by the other key does not reveal it either.
    assert!(
        listed(
            &app,
            &restricted,
            &format!("&key={}", ids::format(Kind::Key, acc.key_id))
        )
        .await
        .is_empty()
    );
    // Nor does the audit log: a restricted key reads only its own entries.
    app.call(Method::GET, &format!("/api/v1/audit/{their_audit}"))
        .token(&restricted)
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;
    // And it cannot end or borrow the other key's session.
    app.end_session(&restricted, &theirs, json!({"outcome": "not mine"}))
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;
    app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
        .token(&restricted)
        .purpose(PURPOSE)
        .session(Some(&theirs))
        .json(json!({"line": "borrowed"}))
        .problem(404, "not-found")
        .await;

    // Unrestricted keys holding the session's scopes (or more) see the restricted key's sessions.
    let (_, wide) = app.key(acc.id, crate::common::JOURNAL_SCOPES, None).await;
    for token in [acc.token.as_str(), wide.as_str()] {
        let seen = listed(&app, token, "").await;
        assert!(
            seen.contains(&mine) && seen.contains(&implicit) && seen.contains(&theirs),
            "{seen:?}"
        );
        let detail = read(&app, token, &mine).await;
        assert_eq!(detail.session.repository.as_deref(), Some("acme/web"));
        assert!(
            detail
                .actions
                .iter()
                .any(|c| c.operation == "appendRecordEntry"),
            "{detail:?}"
        );
    }
    assert_eq!(listed(&app, &wide, "&repo=acme/web").await.len(), 2);
}

#[tokio::test]
async fn organization_owners_with_orgs_read_see_their_members_sessions() {
    let app = common::spawn_app().await;
    let o = app.account("O", ALL_SCOPES).await;
    let m = app.account("M", crate::common::JOURNAL_SCOPES).await;
    let t = app.account("T", ALL_SCOPES).await;
    let n = app.account("N", ALL_SCOPES).await;
    for acc in [&o, &m, &t, &n] {
        app.journal_on(acc.id).await;
    }
    let org = admin::create_org(&app.owner, o.id, "Org").await.unwrap();
    let org_ext = ids::format(Kind::Organization, org);
    admin::add_member(&app.owner, org, m.id, true)
        .await
        .unwrap();
    admin::add_member(&app.owner, org, n.id, false)
        .await
        .unwrap();

    // Records: the owner and the reading member see the organization's Record.
    let org_record = |records: &[Value]| {
        records
            .iter()
            .find(|r| r["kind"] == "organization" && r["organization_id"] == org_ext.as_str())
            .map(|r| r["id"].as_str().unwrap().to_owned())
    };
    let owner_view = records_of(&app, &o.token).await;
    let rec = org_record(&owner_view).expect("the owner sees its organization's Record");
    let member_view = records_of(&app, &m.token).await;
    assert_eq!(org_record(&member_view).as_deref(), Some(rec.as_str()));
    assert_eq!(member_view.len(), 2, "{member_view:?}");
    let no_read = records_of(&app, &n.token).await;
    assert_eq!(org_record(&no_read), None, "{no_read:?}");
    assert_eq!(no_read.len(), 1, "{no_read:?}");
    assert!(
        records_of(&app, &t.token)
            .await
            .iter()
            .all(|r| r["id"] != rec.as_str())
    );
    for token in [&n.token, &t.token] {
        app.call(Method::GET, &format!("/api/v1/records/{rec}/entries"))
            .token(token)
            .purpose(PURPOSE)
            .problem(404, "not-found")
            .await;
        app.call(Method::POST, &format!("/api/v1/records/{rec}/entries"))
            .token(token)
            .purpose(PURPOSE)
            .json(json!({"line": "not allowed"}))
            .problem(404, "not-found")
            .await;
    }

    // The member works for the organization in a session naming it.
    let session = app
        .start_session(
            &m.token,
            Some(PURPOSE),
            json!({"goal": "org work", "organization": org_ext}),
        )
        .await;
    assert_eq!(org_of(&session), Some(org_ext.clone()), "{session:?}");
    let sid = session.id.to_string();
    app.append(&m.token, &rec, Some(&sid), Some(PURPOSE), "member line")
        .await;
    let call = call_of(&app, &m.token, &sid, "appendRecordEntry").await;
    let call_id = call.id.to_string();

    // The owner reads the line in its Record.
    let entries = app
        .call(Method::GET, &format!("/api/v1/records/{rec}/entries"))
        .token(&o.token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    assert_eq!(entries["entries"][0]["line"], "member line", "{entries}");
    assert_eq!(entries["entries"][0]["author_account_id"], m.ext.as_str());

    // With orgs:read and the member key's scopes, the owner lists and reads the session.
    assert!(listed(&app, &o.token, "").await.contains(&sid));
    assert_eq!(
        listed(&app, &o.token, &format!("&organization={org_ext}")).await,
        std::slice::from_ref(&sid)
    );
    let detail = read(&app, &o.token, &sid).await;
    assert_eq!(detail.session.account_id.to_string(), m.ext);
    let org = detail.session.organization_id.map(|o| o.to_string());
    assert_eq!(org, Some(org_ext.clone()));
    assert!(lists(&detail, &call_id), "{detail:?}");
    let entry = get_entry(&app, &o.token, &call_id).ok(200).await;
    assert_eq!(entry["session_id"], sid.as_str());
    // The owner cannot write the member's session.
    app.end_session(&o.token, &sid, json!({"outcome": "ended by someone else"}))
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;

    // Without orgs:read (same other scopes), or without one of the session's scopes: nothing.
    let (_, no_orgs) = app.key(o.id, crate::common::JOURNAL_SCOPES, None).await;
    let (_, orgs_but_narrow) = app.key(o.id, "chats:read,orgs:read", None).await;
    for token in [&no_orgs, &orgs_but_narrow] {
        assert!(!listed(&app, token, "").await.contains(&sid));
        assert!(
            listed(&app, token, &format!("&organization={org_ext}"))
                .await
                .is_empty()
        );
        hidden_from(&app, token, &sid, &call_id).await;
    }

    // Orgs:read reaches only organizations the account owns: the member's other work stays
    // private, and a non-member owner sees nothing. (Once the organization's session has
    // ended, a call without a session lands in a new implicit one.)
    app.end_session(&m.token, &sid, json!({"outcome": "org work done"}))
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let private = app
        .append(
            &m.token,
            &m_record(&member_view),
            None,
            Some(PURPOSE),
            "private",
        )
        .await;
    assert_ne!(private, sid);
    assert!(!listed(&app, &o.token, "").await.contains(&private));
    app.get_session(&o.token, &private)
        .purpose(PURPOSE)
        .problem(404, "not-found")
        .await;
    for token in [&t.token, &n.token] {
        assert!(!listed(&app, token, "").await.contains(&sid));
        app.get_session(token, &sid)
            .purpose(PURPOSE)
            .problem(404, "not-found")
            .await;
    }

    // Only members and the owner may name the organization.
    app.call(Method::POST, "/api/v1/journal/sessions")
        .token(&t.token)
        .purpose(PURPOSE)
        .json(json!({"goal": "intrude", "organization": org_ext}))
        .problem(404, "not-found")
        .await;
    let owner_session = app
        .start_session(&o.token, Some(PURPOSE), json!({"organization": org_ext}))
        .await;
    assert_eq!(org_of(&owner_session), Some(org_ext.clone()));
    let member_session = app
        .start_session(&n.token, Some(PURPOSE), json!({"organization": org_ext}))
        .await;
    assert_eq!(org_of(&member_session), Some(org_ext));
}

/// The member's own (account) Record among the ones it lists.
fn m_record(records: &[Value]) -> String {
    records
        .iter()
        .find(|r| r["kind"] == "account")
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .unwrap()
}

#[tokio::test]
async fn another_account_probing_with_real_ids_gets_404_everywhere() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    let b = app.account("B", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;

    // A's real ids.
    let a_record = m_record(&records_of(&app, &a.token).await);
    let a_session = app
        .start_session(&a.token, Some(PURPOSE), json!({"goal": "A's work"}))
        .await;
    let a_session = a_session.id.to_string();
    app.append(
        &a.token,
        &a_record,
        Some(&a_session),
        Some(PURPOSE),
        "A's line",
    )
    .await;
    let a_call = call_of(&app, &a.token, &a_session, "appendRecordEntry").await;
    let a_call_id = a_call.id.to_string();
    let a_audit = a_call.audit_id.unwrap().to_string();
    assert_eq!(
        a_call.audit_url.as_deref(),
        Some(format!("/api/v1/audit/{a_audit}").as_str())
    );
    // A itself can follow the audit link.
    app.call(Method::GET, &format!("/api/v1/audit/{a_audit}"))
        .token(&a.token)
        .purpose(PURPOSE)
        .ok(200)
        .await;

    // B has a life of its own.
    let b_record = m_record(&records_of(&app, &b.token).await);
    let b_session = app
        .append(&b.token, &b_record, None, Some(PURPOSE), "B's line")
        .await;

    let probes: Vec<(Method, String, Option<Value>)> = vec![
        (
            Method::GET,
            format!("/api/v1/journal/sessions/{a_session}"),
            None,
        ),
        (
            Method::GET,
            format!("/api/v1/journal/sessions/{a_session}?writes=true"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/journal/sessions/{a_session}/end"),
            Some(json!({"outcome": "hijacked"})),
        ),
        (
            Method::GET,
            format!("/api/v1/journal/entries/{a_call_id}"),
            None,
        ),
        (Method::GET, format!("/api/v1/audit/{a_audit}"), None),
        (
            Method::GET,
            format!("/api/v1/records/{a_record}/entries"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/records/{a_record}/entries"),
            Some(json!({"line": "B was here"})),
        ),
    ];
    for (method, path, body) in &probes {
        let response = app
            .call(method.clone(), path)
            .token(&b.token)
            .purpose(PURPOSE)
            .json_opt(body.clone())
            .send()
            .await;
        let problem = expect_problem(response, 404, "not-found").await;
        // Indistinguishable from an id that does not exist: nothing of A's is revealed.
        assert!(
            !problem["detail"].as_str().unwrap().contains(&a.ext),
            "{problem}"
        );
    }

    // A's session named in X-Session-Id, on any call (B's own work included).
    let with_a_session: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/v1/records".into(), None),
        (
            Method::POST,
            format!("/api/v1/records/{b_record}/entries"),
            Some(json!({"line": "in A's session"})),
        ),
        (
            Method::GET,
            format!("/api/v1/records/{b_record}/entries"),
            None,
        ),
        (Method::GET, "/api/v1/journal/sessions".into(), None),
        (
            Method::GET,
            format!("/api/v1/journal/sessions/{b_session}"),
            None,
        ),
        (
            Method::POST,
            "/api/v1/journal/sessions".into(),
            Some(json!({"goal": "x"})),
        ),
        (
            Method::POST,
            format!("/api/v1/journal/sessions/{b_session}/end"),
            Some(json!({})),
        ),
    ]
    .into_iter()
    .chain(probes)
    .collect();
    for (method, path, body) in with_a_session {
        let response = app
            .call(method, &path)
            .token(&b.token)
            .purpose(PURPOSE)
            .session(Some(&a_session))
            .json_opt(body)
            .send()
            .await;
        assert!(session_of(&response).is_none(), "{path}");
        expect_problem(response, 404, "not-found").await;
    }

    // B's list never shows A's sessions, whatever the filter.
    for query in [
        String::new(),
        format!("&key={}", ids::format(Kind::Key, a.key_id)),
        "&assistant=&repo=".to_owned(),
    ] {
        let seen = listed(&app, &b.token, &query).await;
        assert!(!seen.contains(&a_session), "{query}: {seen:?}");
        let body = app
            .call(
                Method::GET,
                &format!("/api/v1/journal/sessions?limit=100{query}"),
            )
            .token(&b.token)
            .purpose(PURPOSE)
            .ok(200)
            .await;
        for s in body["sessions"].as_array().unwrap() {
            assert_eq!(s["account_id"], b.ext.as_str(), "{s}");
        }
    }

    // Nothing of A's changed: its session is open, with A's calls only, and its Record has
    // A's line alone.
    let detail = read(&app, &a.token, &a_session).await;
    assert_eq!(detail.session.status, "open", "{detail:?}");
    assert_eq!(detail.session.outcome, None);
    let a_keys = ids::format(Kind::Key, a.key_id);
    assert_eq!(detail.session.key_id.to_string(), a_keys);
    let operations: Vec<&str> = detail
        .actions
        .iter()
        .map(|c| c.operation.as_str())
        .collect();
    // A's own calls without a session joined its open session; B's probes left no trace.
    assert_eq!(
        operations,
        [
            "startSession",
            "appendRecordEntry",
            "getSession",
            "getAuditEntry"
        ],
        "{detail:?}"
    );
    for call in &detail.actions {
        assert_eq!(call.session_id.to_string(), a_session, "{call:?}");
    }
    let entries = app
        .call(Method::GET, &format!("/api/v1/records/{a_record}/entries"))
        .token(&a.token)
        .purpose(PURPOSE)
        .ok(200)
        .await;
    let lines: Vec<&str> = entries["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_str().unwrap())
        .collect();
    assert_eq!(lines, ["A's line"]);
    let foreign: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM journal_calls WHERE account_id = $1 AND credential_id <> $2",
    )
    .bind(a.id)
    .bind(a.key_id)
    .fetch_one(&app.owner)
    .await
    .unwrap();
    assert_eq!(foreign, 0);
}

#[tokio::test]
async fn operator_keys_cannot_read_or_write_the_journal() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    app.journal_on(a.id).await;
    let session = app
        .start_session(&a.token, Some(PURPOSE), json!({"goal": "work"}))
        .await;
    let sid = session.id.to_string();
    let call = call_of(&app, &a.token, &sid, "startSession").await;
    let call_id = call.id.to_string();
    let audit = call.audit_id.unwrap().to_string();
    let operator = admin::create_operator_key(&app.owner, "ops").await.unwrap();

    let requests: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/v1/journal/sessions".into(), None),
        (
            Method::POST,
            "/api/v1/journal/sessions".into(),
            Some(json!({"goal": "operate"})),
        ),
        (Method::GET, format!("/api/v1/journal/sessions/{sid}"), None),
        (
            Method::POST,
            format!("/api/v1/journal/sessions/{sid}/end"),
            Some(json!({"outcome": "x"})),
        ),
        (
            Method::GET,
            format!("/api/v1/journal/entries/{call_id}"),
            None,
        ),
        (Method::GET, format!("/api/v1/audit/{audit}"), None),
    ];
    for (method, path, body) in requests {
        let response = app
            .call(method, &path)
            .token(&operator.token)
            .purpose(PURPOSE)
            .json_opt(body)
            .send()
            .await;
        expect_problem(response, 403, "forbidden").await;
    }
    let detail = read(&app, &a.token, &sid).await;
    assert_eq!(detail.session.status, "open");
}

#[tokio::test]
async fn with_the_journal_off_nothing_is_journalled_and_journal_endpoints_are_gone() {
    let app = common::spawn_app().await;
    let a = app.account("A", ALL_SCOPES).await;
    let record = m_record(&records_of(&app, &a.token).await);
    let some_session = ids::format(Kind::Session, ids::new_id());
    let some_call = ids::format(Kind::Call, ids::new_id());

    let requests: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/v1/journal/sessions".into(), None),
        (
            Method::POST,
            "/api/v1/journal/sessions".into(),
            Some(json!({"goal": "g"})),
        ),
        (
            Method::GET,
            format!("/api/v1/journal/sessions/{some_session}"),
            None,
        ),
        (
            Method::POST,
            format!("/api/v1/journal/sessions/{some_session}/end"),
            Some(json!({"outcome": "o"})),
        ),
        (
            Method::GET,
            format!("/api/v1/journal/entries/{some_call}"),
            None,
        ),
    ];
    for (method, path, body) in requests {
        let response = app
            .call(method, &path)
            .token(&a.token)
            .purpose(PURPOSE)
            .json_opt(body)
            .send()
            .await;
        assert!(session_of(&response).is_none());
        expect_problem(response, 404, "journal-off").await;
    }

    // Ordinary work goes on, unjournalled, with or without a session header.
    for session in [None, Some(some_session.as_str())] {
        let response = app
            .call(Method::POST, &format!("/api/v1/records/{record}/entries"))
            .token(&a.token)
            .purpose(PURPOSE)
            .session(session)
            .json(json!({"line": "journal off"}))
            .send()
            .await;
        assert!(session_of(&response).is_none());
        let entry = expect_ok(response, 201).await;
        assert_eq!(entry["line"], "journal off");
    }
    let response = app
        .call(Method::GET, "/api/v1/records")
        .token(&a.token)
        .purpose(PURPOSE)
        .send()
        .await;
    assert!(session_of(&response).is_none());
    expect_ok(response, 200).await;

    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_sessions")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    let calls: i64 = sqlx::query_scalar("SELECT count(*) FROM journal_calls")
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert_eq!((sessions, calls), (0, 0));
    // The audit log is written either way.
    let audited: i64 = sqlx::query_scalar("SELECT count(*) FROM audit_log WHERE account_id = $1")
        .bind(a.id)
        .fetch_one(&app.owner)
        .await
        .unwrap();
    assert!(audited >= 3, "{audited}");

    // Switched on for another account only: still off for this one.
    let other = app.account("Other", ALL_SCOPES).await;
    app.journal_on(other.id).await;
    app.call(Method::GET, "/api/v1/journal/sessions")
        .token(&a.token)
        .purpose(PURPOSE)
        .problem(404, "journal-off")
        .await;
}
