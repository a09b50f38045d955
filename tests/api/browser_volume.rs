//! The journal pages at a real account's volume in a real browser (issue 52 item 2):
//! tests/browser/volume.mjs signs in and, on the journal, Settings › Journal and a session with
//! 120 actions, clicks each next link until there is none; every page answers 200 and shows
//! rows, each walk takes the pages its list needs, and together they show every session and
//! action. The lists are `pages_volume`'s. Runs as `browser.rs` does (chromium and
//! playwright-core; `N8V_SKIP_BROWSER=1` asks to skip it out loud); screenshots of each walk's
//! last page land in `$TMPDIR/n8v-journal-volume-screenshots/`.

use super::browser::{assert_screenshots, chromium_or_skip, playwright_modules, run_script};
use super::pages_volume::{ACTION_PAGES, JOURNAL_PAGES, SETTINGS_PAGES, filled};
use crate::common;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn every_journal_page_lists_past_its_first_page_to_the_end_in_a_browser() {
    let Some(chromium) = chromium_or_skip() else {
        return;
    };
    let shots = std::env::temp_dir().join("n8v-journal-volume-screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    let began = std::time::SystemTime::now();
    let modules = playwright_modules();
    let app = common::spawn_app().await;
    let volume = filled(&app).await;
    let setup = json!({
        "base": app.base,
        "chromium": chromium,
        "modules": modules,
        "shots": shots,
        "key": volume.account.token,
        "sessions": volume.sessions,
        "long": volume.long.to_string(),
        "calls": volume.calls,
        "journalPages": JOURNAL_PAGES,
        "settingsPages": SETTINGS_PAGES,
        "actionPages": ACTION_PAGES,
    });
    let steps = [
        "sign in",
        "journal pages",
        "settings pages",
        "session actions pages",
    ];
    run_script("volume.mjs", &setup, "volume: all steps passed", &steps).await;
    let walked = ["volume-journal", "volume-settings", "volume-actions"];
    assert_screenshots(&shots, &walked, began);
}
