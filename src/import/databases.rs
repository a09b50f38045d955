//! OpenCode's and Hermes' history: each keeps its conversations in a SQLite database, not in
//! transcript files. Read-only, and read by the same rules as their integrations' posts
//! ([`Episode::opencode_messages`], [`Episode::hermes_messages`]), so an imported conversation
//! and a captured one are the same episode.
//!
//! - OpenCode: `opencode.db` in its data folder (`$XDG_DATA_HOME/opencode`, else
//!   `~/.local/share/opencode`): `session` (a subagent's session, with a `parent_id`, is left
//!   out, as Claude Code's sidechains are), `message` and `part`, each a JSON `data` column.
//! - Hermes: `state.db` in its home (`$HERMES_HOME`, else `~/.hermes`): `sessions` (`source` is
//!   the surface: `cli`, or a gateway such as `telegram`; a gateway's only with
//!   `N8V_HERMES_CAPTURE=all`, as its plugin posts them) and `messages` (the turns a rewind or
//!   undo took back, `active = 0` and not `compacted`, are left out; the compacted ones are the
//!   conversation and are kept).

use super::transcript::Episode;
use super::{Harness, project};
use anyhow::Context;
use rusqlite::{Connection, OpenFlags};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The database file at `path`, or in the folder `path`.
fn database(harness: Harness, path: &Path) -> PathBuf {
    let name = match harness {
        Harness::OpenCode => "opencode.db",
        _ => "state.db",
    };
    if path.is_dir() {
        path.join(name)
    } else {
        path.to_owned()
    }
}

fn open(file: &Path) -> anyhow::Result<Connection> {
    Connection::open_with_flags(
        file,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("opening {}", file.display()))
}

/// Every conversation in the harness's database at `path` (the file, or its folder).
pub fn episodes(harness: Harness, path: &Path) -> anyhow::Result<Vec<Episode>> {
    let file = database(harness, path);
    anyhow::ensure!(file.is_file(), "no database at {}", file.display());
    let db = open(&file)?;
    match harness {
        Harness::OpenCode => opencode(&db),
        Harness::Hermes => hermes(&db, super::hermes_capture()),
        _ => anyhow::bail!("{} keeps transcript files, not a database", harness.name()),
    }
    .with_context(|| format!("reading {}", file.display()))
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

fn opencode(db: &Connection) -> anyhow::Result<Vec<Episode>> {
    let sessions: Vec<(String, String)> = db
        .prepare(
            "SELECT id, directory FROM session WHERE parent_id IS NULL \
             ORDER BY time_created, id",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut messages_of = db.prepare(
        "SELECT id, data, time_created FROM message WHERE session_id = ?1 \
         ORDER BY time_created, id",
    )?;
    let mut parts_of = db.prepare(
        "SELECT message_id, data FROM part WHERE session_id = ?1 ORDER BY message_id, id",
    )?;
    let mut out = Vec::with_capacity(sessions.len());
    for (id, directory) in sessions {
        let mut parts: std::collections::HashMap<String, Vec<Value>> = Default::default();
        for row in parts_of.query_map([&id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let (message, data) = row?;
            parts.entry(message).or_default().push(json_of(&data));
        }
        let messages: Vec<Value> = messages_of
            .query_map([&id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })?
            .map(|row| {
                let (message, data, created) = row?;
                let mut info = json_of(&data);
                if info["time"]["created"].is_null() && info.is_object() {
                    info["time"] = json!({"created": created});
                }
                let parts = parts.remove(&message).unwrap_or_default();
                Ok(json!({"info": info, "parts": parts}))
            })
            .collect::<rusqlite::Result<_>>()?;
        let mut episode = Episode {
            id,
            project: project::of(Harness::OpenCode, &directory),
            ..Episode::default()
        };
        episode.opencode_messages(&messages);
        out.push(episode);
    }
    Ok(out)
}

fn hermes(db: &Connection, capture: super::HermesCapture) -> anyhow::Result<Vec<Episode>> {
    let sessions: Vec<(String, String, Option<String>, Option<String>)> = db
        .prepare("SELECT id, source, cwd, git_repo_root FROM sessions ORDER BY started_at, id")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let mut messages_of = db.prepare(
        "SELECT role, content, timestamp FROM messages \
         WHERE session_id = ?1 AND role IN ('user', 'assistant') \
           AND (coalesce(active, 1) = 1 OR compacted = 1) \
         ORDER BY timestamp, id",
    )?;
    let mut out = Vec::new();
    for (id, source, cwd, repo_root) in sessions {
        if !capture.posts(&source) {
            continue;
        }
        let messages: Vec<Value> = messages_of
            .query_map([&id], |r| {
                Ok(json!({
                    "role": r.get::<_, String>(0)?,
                    "content": r.get::<_, Option<String>>(1)?,
                    "at": r.get::<_, f64>(2)?,
                }))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let project = cwd
            .as_deref()
            .and_then(|c| project::of(Harness::Hermes, c))
            .or_else(|| repo_root.as_deref().and_then(project::last_component));
        let mut episode = Episode {
            id,
            project,
            ..Episode::default()
        };
        episode.hermes_messages(&messages);
        out.push(episode);
    }
    Ok(out)
}
