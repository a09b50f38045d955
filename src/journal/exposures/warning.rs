//! What an exposure says to whoever reads the journal: the warning line of each, and the one
//! `/journal.md` opens with.

use super::{Exposure, ScrubbedFrom};
use crate::markdown::inert;
use chrono::{DateTime, Datelike, Utc};

/// The warning: "A GitHub token was scrubbed from 3 purposes since 1 December: rotate it."; once
/// acknowledged (`acknowledged`, when every sighting read was acknowledged since it was last
/// scrubbed) no longer a call to rotate it: "…since 1 December; acknowledged as rotated on 3
/// December." A date names its year when it is not `now`'s.
pub fn warning(
    label: &str,
    from: &ScrubbedFrom,
    since: DateTime<Utc>,
    acknowledged: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> String {
    let mut label_chars = label.chars();
    let label: String = match label_chars.next() {
        Some(first) => first.to_uppercase().chain(label_chars).collect(),
        None => String::new(),
    };
    let day = |at: DateTime<Utc>| {
        let format = if at.year() == now.year() {
            "%-d %B"
        } else {
            "%-d %B %Y"
        };
        at.format(format).to_string()
    };
    let lead = format!(
        "{label} was scrubbed from {} since {}",
        from.words(),
        day(since)
    );
    match acknowledged {
        Some(at) => format!("{lead}; acknowledged as rotated on {}.", day(at)),
        None => format!("{lead}: rotate it."),
    }
}

/// The one line `/journal.md` opens with while any exposure is unacknowledged (given newest
/// first): the newest one's warning, and how many more there are.
pub fn markdown_warning(unacknowledged: &[Exposure]) -> Option<String> {
    let newest = unacknowledged.first()?;
    let more = match unacknowledged.len() - 1 {
        0 => String::new(),
        1 => " 1 more credential was scrubbed too.".into(),
        n => format!(" {n} more credentials were scrubbed too."),
    };
    Some(format!(
        "> **Warning:** {}{more} See GET /api/v1/journal/exposures; acknowledge each once \
         rotated.\n\n",
        inert(&newest.warning)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_warning_names_the_credential_the_texts_and_the_day() {
        let now = Utc.with_ymd_and_hms(2026, 12, 9, 12, 0, 0).unwrap();
        let since = Utc.with_ymd_and_hms(2026, 12, 1, 8, 0, 0).unwrap();
        let three = ScrubbedFrom {
            purposes: 3,
            ..ScrubbedFrom::default()
        };
        assert_eq!(
            warning("a GitHub token", &three, since, None, now),
            "A GitHub token was scrubbed from 3 purposes since 1 December: rotate it."
        );
        assert_eq!(
            warning("a GitHub token", &three, since, Some(now), now),
            "A GitHub token was scrubbed from 3 purposes since 1 December; acknowledged as \
             rotated on 9 December."
        );
        let mixed = ScrubbedFrom {
            purposes: 1,
            goals: 1,
            handoff_items: 2,
            ..ScrubbedFrom::default()
        };
        let last_year = Utc.with_ymd_and_hms(2025, 11, 30, 8, 0, 0).unwrap();
        assert_eq!(
            warning("an AWS access key", &mixed, last_year, None, now),
            "An AWS access key was scrubbed from 1 purpose, 1 goal and 2 hand-off items since \
             30 November 2025: rotate it."
        );
    }
}
