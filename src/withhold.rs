//! What the journal withholds from the next conversation (issue 53, part 3): a line that turns
//! on its reader, an assistant, rather than telling it about the work. Decisions and next steps
//! are instructions to the next assistant by design ("Run the migration on staging", "Ignore
//! flaky test in CI"), so an imperative alone is never withheld; what is withheld is text that
//! overrides the reader's instructions, forges a turn of the conversation, fetches and runs code,
//! sends data out, claims an approval nobody gave, hides itself, asks to be decoded and obeyed, or
//! carries an active link.
//!
//! Deterministic and model-free: fixed rules, compiled once, run on every line handed over. The
//! figures on public payloads and on real engineering lines are in `bench/RESULTS-trust.md`.
//!
//! A leaf: it uses nothing else in the crate.

mod hidden;
mod normalize;
mod patterns;
mod rot13;

/// Why a text is withheld, and the short part of it that matched (for logs: never the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    pub rule: Rule,
    /// What matched, at most [`MATCHED_MAX`] characters: the folded text (lower case, NFKC) for
    /// the phrase rules, a description ("U+202E (direction override)") for hidden text.
    pub matched: String,
}

/// The longest excerpt a [`Withheld`] keeps.
pub const MATCHED_MAX: usize = 60;

/// The rules, in the order they are tried: the first that matches is the one reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Characters a person does not see, or letters of another script made to look Latin.
    HiddenText,
    /// A forged turn of a conversation, or the closing tag of a context.
    RoleMarker,
    /// Text addressed to an assistant or its instructions that overrides them.
    Override,
    /// A claim that someone already approved what the text asks.
    ClaimedApproval,
    /// Code fetched and run in one step.
    FetchExecute,
    /// An image, a `data:` or `javascript:` URL, or a link whose address carries data.
    ActiveLink,
    /// A command, an address or a request that sends secrets or data out.
    Exfiltration,
    /// An encoded blob its reader is asked to decode and follow.
    EncodedBlob,
}

impl Rule {
    /// Every rule, in the order they are tried.
    pub const ALL: [Rule; 8] = [
        Rule::HiddenText,
        Rule::RoleMarker,
        Rule::Override,
        Rule::ClaimedApproval,
        Rule::FetchExecute,
        Rule::ActiveLink,
        Rule::Exfiltration,
        Rule::EncodedBlob,
    ];

    /// A stable kebab-case name: it goes into webhooks and APIs.
    pub fn id(&self) -> &'static str {
        match self {
            Rule::Override => "override",
            Rule::RoleMarker => "role-marker",
            Rule::FetchExecute => "fetch-execute",
            Rule::Exfiltration => "exfiltration",
            Rule::ClaimedApproval => "claimed-approval",
            Rule::HiddenText => "hidden-text",
            Rule::EncodedBlob => "encoded-blob",
            Rule::ActiveLink => "active-link",
        }
    }

    /// One plain sentence for a person.
    pub fn reason(&self) -> &'static str {
        match self {
            Rule::Override => {
                "It reads as an instruction to an assistant to set aside its own instructions."
            }
            Rule::RoleMarker => "It imitates a turn of a conversation or the end of a context.",
            Rule::FetchExecute => "It downloads code and runs it in the same step.",
            Rule::Exfiltration => "It would send secrets or data to an outside address.",
            Rule::ClaimedApproval => "It claims an approval that the journal has no record of.",
            Rule::HiddenText => {
                "It contains characters a person cannot see, or letters disguised as others."
            }
            Rule::EncodedBlob => "It asks its reader to decode a hidden message and act on it.",
            Rule::ActiveLink => "It contains an image or a link that would send data when opened.",
        }
    }
}

/// `None` when the text may be handed to the next conversation; otherwise the first rule it
/// breaks and what matched.
pub fn withheld(text: &str) -> Option<Withheld> {
    if let Some(matched) = hidden::hidden(text) {
        return Some(Withheld {
            rule: Rule::HiddenText,
            matched: excerpt(&matched),
        });
    }
    let folded = normalize::fold(text);
    patterns::first_match(&folded)
        .or_else(|| rot13::rot13_english(&folded).map(|m| (Rule::EncodedBlob, m)))
        .map(|(rule, matched)| Withheld {
            rule,
            matched: excerpt(matched),
        })
}

fn excerpt(matched: &str) -> String {
    let matched = matched.trim();
    match matched.char_indices().nth(MATCHED_MAX) {
        Some((end, _)) => format!("{}…", &matched[..end]),
        None => matched.to_owned(),
    }
}

#[cfg(test)]
mod tests;
