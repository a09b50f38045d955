//! Free text as it is stored: invisible format characters stripped first (they could split a
//! credential out of the rules' sight), then credentials scrubbed; request paths also
//! percent-decoded.

use super::{Found, scrub_found};
use std::borrow::Cow;

/// Removes Unicode format characters (general category Cf: zero-width space and joiners,
/// word joiner, soft hyphen, bidirectional controls, the byte-order mark, tag characters…).
/// They are invisible, so a credential split by one (`ghp_ab\u{200B}cd…`) would pass the rules
/// unseen while staying usable to whoever reads it. Emoji joined by ZWJ fall apart into their
/// parts; nothing else visible changes.
pub fn strip_format_chars(text: &str) -> Cow<'_, str> {
    use unicode_general_category::{GeneralCategory, get_general_category};
    let is_format = |c: char| get_general_category(c) == GeneralCategory::Format;
    if !text.chars().any(is_format) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().filter(|c| !is_format(*c)).collect())
}

/// Free text as it is stored (purposes, goals, outcomes, Record lines, the assistant name):
/// format characters stripped, then credentials scrubbed.
pub fn clean_text(text: &str) -> String {
    clean(text).text
}

/// Text as [`clean`] stores it, and the credentials scrubbed from it (each once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cleaned {
    pub text: String,
    pub found: Vec<Found>,
}

/// [`clean_text`], telling what the scrub removed.
pub fn clean(text: &str) -> Cleaned {
    let visible = strip_format_chars(text);
    let scrubbed = scrub_found(&visible);
    Cleaned {
        text: scrubbed.text.into_owned(),
        found: scrubbed.found,
    }
}

/// A request path as the audit log stores it: percent-decoded (repeatedly, so `%2567hp_…`
/// hides nothing either; invalid UTF-8 becomes U+FFFD), control characters shown as U+FFFD,
/// format characters stripped, then credentials scrubbed. Decoding first matters: a token
/// sent as `/api/v1/records/ghp%5F…` is only recognisable once decoded.
pub fn audit_path(raw: &str) -> String {
    let mut path = Cow::Borrowed(raw);
    for _ in 0..4 {
        let decoded: String = percent_encoding::percent_decode_str(&path)
            .decode_utf8_lossy()
            .into_owned();
        if decoded == *path {
            break;
        }
        path = Cow::Owned(decoded);
    }
    let visible: String = path
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    clean_text(&visible)
}
