//! The pages a person lives in, on a phone (issue 55): tests/browser/phone.mjs opens the
//! sign-in page, the journal, Settings, a session of 60 actions, an error page, and the operator
//! console with overrides and log entries at 375 px, and fails if any scrolls sideways; at
//! 1280 × 800, with 7 open loops and 20 entries, the journal's first screen shows the first entry,
//! each next step shows once and no count of one reads in the plural. (The consent page and
//! sign-in through it are `browser_consent`'s, at 375 px too; the MCP App at 340 px is
//! `browser_app`'s.) Runs as `browser.rs` does; screenshots land beside its own, as
//! `phone-*.png` and `laptop-journal.png`.

use super::browser::{
    assert_screenshots, chromium_or_skip, playwright_modules, run_script, seed_session,
};
use crate::common;
use n8v_journal::flags::Flag;
use reqwest::Method;
use serde_json::json;

const NEXT_STEPS: [&str; 4] = [
    "Send the release notes for review",
    "Tag the release candidate",
    "Rotate the staging database password",
    "Write the migration guide",
];

#[tokio::test(flavor = "multi_thread")]
async fn no_page_scrolls_sideways_on_a_phone_and_the_first_entry_is_on_the_first_screen() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let shots = super::browser::screenshots().with_file_name("phone-screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    let began = std::time::SystemTime::now();
    let modules = playwright_modules();
    let app = common::spawn_app().await;
    let a = app.account("Ada", crate::common::DELETING_SCOPES).await;
    app.journal_on(a.id).await;

    // 20 entries: 18 seeded over the last weeks, and two recorded here.
    for day in 1..=18 {
        seed_session(
            &app,
            a.id,
            a.key_id,
            day,
            &format!("Work on the storage plan, part {day}"),
        )
        .await;
    }
    // 7 open loops, handed on by one session.
    let handed = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(&a.token)
        .json(json!({"goal": "Prepare the release"}))
        .ok(201)
        .await;
    let handed = handed["id"].as_str().unwrap().to_owned();
    app.call(
        Method::POST,
        &format!("/api/v1/journal/sessions/{handed}/end"),
    )
    .token(&a.token)
    .json(json!({
        "outcome": "The release is prepared",
        "next_steps": NEXT_STEPS,
        "open_questions": [
            "Should the changelog name its contributors?",
            "Is Friday too late for the announcement?",
            "Which regions go first?",
        ],
    }))
    .ok(200)
    .await;
    // A session of 60 actions, with long purposes.
    let long = app
        .call(Method::POST, "/api/v1/journal/sessions")
        .token(&a.token)
        .json(json!({"goal": "Put the quarter's decisions on record"}))
        .ok(201)
        .await;
    let long = long["id"].as_str().unwrap().to_owned();
    let record = app.record_of(a.id).await;
    for i in 0..60 {
        app.call(Method::POST, &format!("/api/v1/records/{record}/entries"))
            .token(&a.token)
            .session(Some(&long))
            .purpose(&format!(
                "Put decision {i} of the quarterly-planning-meeting-with-the-whole-infrastructure-team on record"
            ))
            .json(json!({"line": format!("Decision {i}")}))
            .ok(201)
            .await;
    }

    // The console: overrides for accounts with long names, and the log they leave.
    let operator = n8v_journal::admin::create_operator_key(&app.owner, "Olive")
        .await
        .unwrap();
    for name in [
        "Northwind Traders International Holdings (Europe)",
        "Contoso Pharmaceuticals Research Division",
        "Fabrikam Residential Renovations and Sons",
    ] {
        let other = app.account(name, "chats:read").await;
        n8v_journal::admin::set_flag(&app.owner, Flag::AssistantJournal, true, Some(other.id))
            .await
            .unwrap();
    }

    let setup = json!({
        "base": app.base,
        "chromium": chromium,
        "modules": modules,
        "shots": shots,
        "key": a.token,
        "long": long,
        "operatorKey": operator.token,
        "openLoops": 7,
        "nextSteps": NEXT_STEPS,
    });
    let steps = [
        "the journal pages fit 375 px",
        "the console fits 375 px",
        "the first screen shows the first entry",
    ];
    run_script("phone.mjs", &setup, "phone: all steps passed", &steps).await;
    let pages = [
        "phone-sign-in",
        "phone-journal",
        "phone-settings",
        "phone-session",
        "phone-error",
        "phone-console-sign-in",
        "phone-console",
        "laptop-journal",
    ];
    assert_screenshots(&shots, &pages, began);
}
