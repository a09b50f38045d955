//! Journal search: ranked, the last year by default, narrowed by repository, organization and
//! assistant, REST and MCP answering alike, and never a match the caller could not read.

use crate::common;

use crate::common::mcp;
use n8v_journal::journal::search::SearchHit;
use n8v_journal::ops::search::SearchResults;
use reqwest::Method;
use serde_json::json;

fn ids(hits: &[SearchHit]) -> Vec<String> {
    hits.iter().map(|h| h.id.clone()).collect()
}

/// Whose session each hit is (none for a digest's).
fn sessions(hits: &[SearchHit]) -> Vec<String> {
    hits.iter()
        .map(|h| h.session_id.map(|s| s.to_string()).unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn search_ranks_matches_and_narrows_them() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    let best = app
        .start_session(
            &a.token,
            None,
            json!({"goal": "Fix the login redirect loop", "repository": "acme/web"}),
        )
        .await;
    let best = best.id.to_string();
    app.end_session(&a.token, &best, json!({"outcome": "login redirect fixed"}))
        .ok(200)
        .await;
    let weaker = app
        .start_session(
            &a.token,
            None,
            json!({"goal": "Tidy the login page copy", "repository": "acme/docs"}),
        )
        .await;
    let weaker = weaker.id.to_string();
    let record = app.first_record(&a.token).await;
    app.append(
        &a.token,
        &record,
        Some(&weaker),
        Some("look at the redirect after login"),
        "noted",
    )
    .await;

    let found = app.search(&a.token, "q=login%20redirect").await;
    let hits = ids(&found);
    assert_eq!(
        hits.first(),
        Some(&best),
        "the session naming both words ranks first: {found:?}"
    );
    assert!(
        !hits.contains(&weaker),
        "a session with only one of the words does not match"
    );
    assert!(
        found
            .iter()
            .zip(sessions(&found))
            .any(|(h, s)| h.kind == "call" && s == weaker),
        "the call's purpose matches: {found:?}"
    );
    let ranks: Vec<f32> = found.iter().map(|h| h.rank).collect();
    assert!(
        ranks.windows(2).all(|w| w[0] >= w[1]),
        "best first: {ranks:?}"
    );
    assert!(found[0].snippet.contains("[login]"));

    // Narrowed by repository and assistant.
    let docs = app.search(&a.token, "q=login&repo=acme/docs").await;
    assert!(ids(&docs).iter().all(|id| id != &best), "{docs:?}");
    assert!(ids(&docs).contains(&weaker));
    let nobody = app
        .search(&a.token, "q=login&assistant=NoSuchAssistant")
        .await;
    assert!(ids(&nobody).is_empty());

    // The last year by default; older with `from`.
    sqlx::query("UPDATE journal_sessions SET started_at = now() - interval '400 days' WHERE goal LIKE 'Tidy%'")
        .execute(&app.owner)
        .await
        .unwrap();
    let recent = app.search(&a.token, "q=tidy").await;
    assert!(ids(&recent).is_empty(), "older than a year: {recent:?}");
    let old = app
        .search(&a.token, "q=tidy&from=2000-01-01T00:00:00Z")
        .await;
    assert_eq!(ids(&old), vec![weaker.clone()]);

    // MCP runs the same search.
    let client = mcp::connect(&app, &a.token).await;
    let tool: SearchResults = common::decode(mcp::structured(
        &mcp::call(&client, "journal_search", json!({"q": "login redirect"})).await,
    ));
    assert_eq!(ids(&tool.hits)[0], best);
    assert_eq!(ids(&tool.hits).len(), ids(&found).len());

    // Bad input is a 400, not a 500.
    app.call(Method::GET, "/api/v1/journal/search")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    let long = "a".repeat(201);
    app.call(Method::GET, &format!("/api/v1/journal/search?q={long}"))
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    app.call(Method::GET, "/api/v1/journal/search?q=x&organization=nope")
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    // A NUL (which PostgreSQL text cannot hold) in a text filter: a 400, not a 500.
    for filter in ["repo=a%00b", "assistant=%00", "repo=x%0Ay"] {
        app.call(
            Method::GET,
            &format!("/api/v1/journal/search?q=login&{filter}"),
        )
        .token(&a.token)
        .problem(400, "bad-request")
        .await;
    }
    // Operators alone name no word to find: a clear 400 (see the test below), never a 500.
    app.call(
        Method::GET,
        "/api/v1/journal/search?q=%22%20%26%20%7C%20!%20(",
    )
    .token(&a.token)
    .problem(400, "bad-request")
    .await;
}

#[tokio::test]
async fn a_search_must_name_a_word_to_find() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    app.start_session(&a.token, None, json!({"goal": "Fix the login redirect"}))
        .await;
    // Each of these matches every entry (or none by accident): it would read the whole journal.
    for q in [
        "-zzzz",
        "-zzzz%20-yyyy",
        "login%20or%20-zzzz",
        "the",
        "and%20or",
    ] {
        let problem = app
            .call(Method::GET, &format!("/api/v1/journal/search?q={q}"))
            .token(&a.token)
            .problem(400, "bad-request")
            .await;
        assert!(
            problem["detail"].as_str().unwrap().contains("word to find"),
            "{q}: {problem}"
        );
    }
    // The same through MCP: a tool error, not a protocol failure.
    let client = mcp::connect(&app, &a.token).await;
    let refused = mcp::call(&client, "journal_search", json!({"q": "-zzzz"})).await;
    assert!(mcp::error_text(&refused).contains("word to find"));
    // A word to find, with words excluded, is a search.
    let found = app.search(&a.token, "q=login%20-zzzz").await;
    assert_eq!(found.len(), 1, "{found:?}");
}

#[tokio::test]
async fn a_common_word_ranks_only_the_newest_candidates() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    let session = app
        .start_session(&a.token, None, json!({"goal": "Bird counts"}))
        .await;
    let session = session.id.0;
    let max = n8v_journal::journal::search::MAX_CANDIDATES;
    // 200 old calls that would rank best (the word twice), then `max` newer ones. Call
    // ids are UUIDv7, in time order: these are made so, the oldest first.
    let now = chrono::Utc::now();
    sqlx::query(
        "INSERT INTO journal_calls (account_id, call_id, session_id, credential_id, operation, \
             purpose, status, ok, wrote, journal_read, duration_ms, created_at) \
         SELECT $1, (lpad(to_hex(i), 12, '0') || '70008000' || lpad(to_hex(i), 12, '0'))::uuid, \
                $2, $3, 'listRecords', \
                CASE WHEN i <= 200 THEN 'heron heron egret count' ELSE 'one heron count' END, \
                200, true, false, false, 1, $4 - make_interval(secs => $5 + 200 - i) \
           FROM generate_series(1, $5 + 200) AS i",
    )
    .bind(a.id)
    .bind(session)
    .bind(a.key_id)
    .bind(now)
    .bind(max as i32)
    .execute(&app.owner)
    .await
    .unwrap();
    let found = app.search(&a.token, "q=heron&limit=50").await;
    assert_eq!(found.len(), 50, "{found:?}");
    for hit in &found {
        assert_eq!(hit.kind, "call", "{hit:?}");
        // Only the newest `max` matches were ranked: none of the 200 older, better ones.
        assert!(
            hit.snippet.starts_with("one"),
            "an old candidate was ranked: {hit:?}"
        );
    }
    // A word that narrows the matches reaches the older ones.
    let older = app.search(&a.token, "q=heron%20egret&limit=50").await;
    assert_eq!(older.len(), 50);
    assert!(older.iter().all(|h| h.snippet.contains("egret")));
}

#[tokio::test]
async fn a_search_past_its_timeout_is_a_clear_503() {
    let app = common::spawn_app_configured(|c| {
        c.search_timeout = std::time::Duration::from_millis(300);
    })
    .await;
    let a = app.account("Ada", "chats:read").await;
    app.journal_on(a.id).await;
    app.start_session(&a.token, None, json!({"goal": "Fix the login redirect"}))
        .await;
    // A search that cannot finish: the digests it reads are locked by another transaction
    // (a statement's timeout counts its wait for locks).
    let mut blocker = app.owner.begin().await.unwrap();
    sqlx::query("LOCK TABLE journal_digests IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *blocker)
        .await
        .unwrap();
    let problem = app
        .call(Method::GET, "/api/v1/journal/search?q=login")
        .token(&a.token)
        .problem(503, "unavailable")
        .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("search took longer than 300 ms"),
        "{problem}"
    );
    blocker.rollback().await.unwrap();
    // The timeout was the search's alone: the refused call was journalled, and the next
    // search answers.
    let found = app.search(&a.token, "q=login").await;
    assert_eq!(found.len(), 1, "{found:?}");
}

#[tokio::test]
async fn search_never_returns_what_the_caller_cannot_read() {
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::JOURNAL_SCOPES).await;
    let b = app.account("Bea", crate::common::JOURNAL_SCOPES).await;
    app.journal_on(a.id).await;
    app.journal_on(b.id).await;
    // Another account's session.
    app.start_session(&b.token, None, json!({"goal": "pelican migration of Bea"}))
        .await;
    // A session recorded with scopes the narrow key lacks.
    app.start_session(
        &a.token,
        None,
        json!({"goal": "pelican work with wide scopes"}),
    )
    .await;
    let (_, narrow) = app.key(a.id, "chats:read", None).await;
    // A session whose calls all read the journal: hidden, as the list hides it.
    let (_, reader) = app.key(a.id, "chats:read", None).await;
    app.call(Method::GET, "/api/v1/journal/sessions")
        .token(&reader)
        .purpose("pelican lookup")
        .ok(200)
        .await;
    // A session the narrow key may read.
    app.start_session(&narrow, None, json!({"goal": "pelican notes"}))
        .await;

    let mine = app.search(&narrow, "q=pelican").await;
    let snippets: Vec<&str> = mine.iter().map(|h| h.snippet.as_str()).collect();
    assert_eq!(snippets.len(), 1, "only the readable session: {mine:?}");
    assert!(snippets[0].contains("notes"), "{mine:?}");

    let wide = app.search(&a.token, "q=pelican").await;
    let text = common::json_text(&wide);
    assert!(
        text.contains("wide scopes") && !text.contains("Bea"),
        "{wide:?}"
    );
    assert!(
        !text.contains("lookup"),
        "journal-only sessions never match: {wide:?}"
    );
    let theirs = common::json_text(&app.search(&b.token, "q=pelican").await);
    assert!(!theirs.contains("wide scopes") && !theirs.contains("notes"));

    // With the journal off, search is off too.
    let c = app.account("Cid", "chats:read").await;
    app.call(Method::GET, "/api/v1/journal/search?q=pelican")
        .token(&c.token)
        .problem(404, "journal-off")
        .await;
}

/// An organization's owner with `orgs:read` finds its members' work on the organization (their
/// session's goal and the purposes of their calls in it); without `orgs:read`, or as another
/// account, it finds none of it; the member's other sessions stay the member's.
#[tokio::test]
async fn owners_with_orgs_read_find_their_members_work_on_the_organization() {
    use n8v_journal::ids::{self, Kind};
    let app = common::spawn_app().await;
    let owner = app
        .account("Owner", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    let (_, owner_no_orgs) = app.key(owner.id, crate::common::JOURNAL_SCOPES, None).await;
    let member = app.account("Member", crate::common::JOURNAL_SCOPES).await;
    let stranger = app
        .account("Stranger", crate::common::JOURNAL_AND_ORG_SCOPES)
        .await;
    for acc in [&owner, &member, &stranger] {
        app.journal_on(acc.id).await;
    }
    let org = app
        .organization_with_reader(owner.id, "Org", member.id)
        .await;
    let org_ext = ids::format(Kind::Organization, org);
    let on_org = app
        .start_session(
            &member.token,
            None,
            json!({"goal": "Migrate the billing webhooks", "organization": org_ext}),
        )
        .await;
    let on_org = on_org.id.to_string();
    let record = app.first_record(&member.token).await;
    app.append(
        &member.token,
        &record,
        Some(&on_org),
        Some("check the billing retries"),
        "noted",
    )
    .await;
    let own = app
        .start_session(
            &member.token,
            None,
            json!({"goal": "Billing notes of my own"}),
        )
        .await;
    let own = own.id.to_string();

    let found = app.search(&owner.token, "q=billing").await;
    let kinds: Vec<(&str, String)> = found
        .iter()
        .zip(sessions(&found))
        .map(|(h, s)| (h.kind.as_str(), s))
        .collect();
    assert!(kinds.contains(&("session", on_org.clone())), "{found:?}");
    assert!(kinds.contains(&("call", on_org.clone())), "{found:?}");
    assert!(kinds.iter().all(|(_, s)| *s == on_org), "{found:?}");

    for token in [&owner_no_orgs, &stranger.token] {
        let found = app.search(token, "q=billing").await;
        assert!(ids(&found).is_empty(), "{found:?}");
    }
    let mine = sessions(&app.search(&member.token, "q=billing").await);
    assert!(mine.contains(&own) && mine.contains(&on_org), "{mine:?}");
}
