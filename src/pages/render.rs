//! The templates (compiled into the binary from `templates/`, autoescaped) and the answers
//! pages give: a rendered page, or an error page with the error's status.

use crate::error::Error;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use minijinja::Environment;
use serde::Serialize;
use std::sync::OnceLock;

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("sign_in.html", include_str!("../../templates/sign_in.html")),
    (
        "sessions.html",
        include_str!("../../templates/sessions.html"),
    ),
    ("session.html", include_str!("../../templates/session.html")),
    ("entry.html", include_str!("../../templates/entry.html")),
    ("audit.html", include_str!("../../templates/audit.html")),
    ("journal.html", include_str!("../../templates/journal.html")),
    (
        "withheld.html",
        include_str!("../../templates/withheld.html"),
    ),
    ("search.html", include_str!("../../templates/search.html")),
    ("error.html", include_str!("../../templates/error.html")),
    ("consent.html", include_str!("../../templates/consent.html")),
    (
        "consent_error.html",
        include_str!("../../templates/consent_error.html"),
    ),
    ("summary.html", include_str!("../../templates/summary.html")),
    (
        "decision.html",
        include_str!("../../templates/decision.html"),
    ),
    ("loops.html", include_str!("../../templates/loops.html")),
    ("console.html", include_str!("../../templates/console.html")),
    (
        "console_sign_in.html",
        include_str!("../../templates/console_sign_in.html"),
    ),
];

fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .expect("the templates compile (checked by the page tests)");
        }
        env
    })
}

/// Renders a template with `context` as a `200` HTML page.
pub fn page<C: Serialize>(name: &str, context: C) -> Response {
    page_with(StatusCode::OK, name, context)
}

pub fn page_with<C: Serialize>(status: StatusCode, name: &str, context: C) -> Response {
    match env()
        .get_template(name)
        .and_then(|t| t.render(minijinja::Value::from_serialize(&context)))
    {
        Ok(html) => (
            status,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            html,
        )
            .into_response(),
        Err(e) => {
            tracing::error!(template = name, error = %e, "a page failed to render");
            Error::Internal(anyhow::anyhow!("page {name} failed to render")).into_response()
        }
    }
}

/// An error as a page, with the error's status (the cause of a server fault is logged, never
/// shown).
pub fn error_page(error: &Error, signed_in: bool) -> Response {
    let status = error.status();
    let detail = if status.is_server_error() {
        tracing::error!(error = %error, "a page failed");
        "Something went wrong on our side. Try again in a moment.".to_owned()
    } else {
        error.to_string()
    };
    page_with(
        status,
        "error.html",
        serde_json::json!({
            "status": status.as_u16(),
            "title": status.canonical_reason().unwrap_or("Error"),
            "detail": detail,
            "journal_off": matches!(error, Error::JournalOff),
            // The key signed in is refused by every journal page: "Back to the journal" would
            // lead to the same refusal, so the way on is another key.
            "key_refused": matches!(error, Error::JournalOff | Error::MissingScope(_)),
            "signed_in": signed_in,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use minijinja::ErrorKind;

    /// The names a template calls: each `|filter`, each `is test`.
    fn called(source: &str) -> Vec<(bool, String)> {
        let word = |rest: &str| -> String {
            rest.trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        let mut names = Vec::new();
        for block in source.split("{{").chain(source.split("{%")).skip(1) {
            let expr = block.split(['}', '%']).next().unwrap_or_default();
            // `||` is no filter; a quoted `|` is text.
            let unquoted: String = expr.split('"').step_by(2).collect();
            for part in unquoted.split('|').skip(1).filter(|p| !p.is_empty()) {
                names.push((true, word(part)));
            }
            for part in unquoted.split(" is ").skip(1) {
                let part = part.trim_start().trim_start_matches("not ");
                names.push((false, word(part)));
            }
        }
        names.retain(|(_, name)| !name.is_empty());
        names
    }

    /// A page must never answer 500 because a template names a filter or a test the engine was
    /// built without (`urlencode` was, and every list's next link failed).
    #[test]
    fn every_filter_and_test_a_template_names_exists() {
        let env = env();
        let mut checked = 0;
        for (name, source) in TEMPLATES {
            for (filter, called) in called(source) {
                let probe = if filter {
                    format!("{{{{ x|{called} }}}}")
                } else {
                    format!("{{{{ x is {called} }}}}")
                };
                let outcome = env.render_str(&probe, minijinja::context! { x => "a" });
                if let Err(e) = outcome {
                    assert!(
                        !matches!(e.kind(), ErrorKind::UnknownFilter | ErrorKind::UnknownTest),
                        "{name} calls `{called}`, which this build does not have: {e}"
                    );
                }
                checked += 1;
            }
        }
        assert!(
            checked >= 10,
            "only {checked} calls found: the scan is broken"
        );
    }

    #[test]
    fn the_scan_finds_what_a_template_calls() {
        let found =
            called(r#"{{ a|urlencode }} {% if b is defined and c|length %}"x|y"{% endif %}"#);
        assert!(found.contains(&(true, "urlencode".into())), "{found:?}");
        assert!(found.contains(&(true, "length".into())), "{found:?}");
        assert!(found.contains(&(false, "defined".into())), "{found:?}");
        assert!(!found.iter().any(|(_, n)| n == "y"), "{found:?}");
    }
}
