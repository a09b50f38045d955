//! Credential scrubbing for free text before it is stored (purposes, goals,
//! outcomes, log lines).
//!
//! # Approach
//!
//! * Two tiers of rules, all data. Ours in `RULES`: a stable kebab-case id, a
//!   regex, and an optional Shannon-entropy floor (their regexes are our own).
//!   Then every rule of the gitleaks default set (MIT; `scrub/gitleaks.rs`,
//!   run by `scrub/keyword_rules.rs`), each selected by its keywords, with its
//!   entropy floor and allowlists. On identical spans ours name the redaction.
//! * The rules are compiled once (`LazyLock`). A [`RegexSet`] over all of them
//!   answers "does anything match at all?" in one pass, so clean text (the
//!   common case) comes back as `Cow::Borrowed` without allocating.
//! * Only the rules the set reports are run individually. A rule's whole match
//!   is the secret unless its pattern has a `secret` capture group; then only
//!   that group is replaced and the context is kept (`password=`, the URL's
//!   scheme/user/host, `Authorization: Bearer `).
//! * Candidates are filtered: placeholders (`$TOKEN`, `<password>`) never
//!   count, and heuristic rules (those with an entropy floor) also need the
//!   floor and skip benign values: our own IDs, UUIDs, paths, timestamps,
//!   numbers, plain lowercase words.
//! * Overlapping spans are merged (the earliest start names the redaction, ties
//!   go to the rule listed first, so specific formats win over generic ones)
//!   and each span becomes `[REDACTED:<id>]`.
//! * Time stays linear in the text, also on hostile input such as
//!   `token=token=token=…`.
//! * Callers storing free text use [`clean_text`]: Unicode format characters
//!   (zero-width and bidi controls) are removed first, so they cannot split a
//!   token out of the rules' sight; [`audit_path`] also percent-decodes.
//!
//! # Idempotence
//!
//! A second pass finds nothing because (1) a match containing `[REDACTED:` is
//! never a secret, (2) a span ending inside a word is extended to the word's
//! end (and a gitleaks span starting inside one, to its start), so a marker
//! never creates a new word boundary, and (3) a rejected
//! match hides only its context (`password=`), never what its value spans, so
//! a marker shortening that value cannot uncover anything. A fuzz test checks
//! this.
//!
//! # Judgement calls
//!
//! * `generic-secret` (keyword `=`/`:` value) needs a value of 8+ characters
//!   with at least `GENERIC_MIN_ENTROPY` = 3.0 bits/char. Low-entropy values
//!   such as `password=changeme` (2.75) or `hunter22` are therefore *kept*:
//!   after a keyword they are far more often placeholders, defaults or prose
//!   (`password: incorrect`) than live credentials, and the format rules,
//!   `url-password` and `authorization-header` do not depend on entropy
//!   (`postgres://app:changeme@db` is still redacted). The price: short human
//!   passwords with repeated characters (`S3cr3tP@ss`, 2.92) and all-lowercase
//!   passphrases (treated as words, like `unauthorized`) pass through.
//! * The keyword must end the identifier (`db_password`, `API_KEY`,
//!   `clientSecret`), so `key_id`, `token_count` and our `key_…` IDs never
//!   count as keywords; a `key_…`/`ses_…` ID, UUID, path, timestamp or number
//!   as the value is left alone too (so an `Idempotency-Key: <uuid>` is kept,
//!   at the price of UUID-shaped API keys after a keyword). A value stops
//!   before `:/`, so `auth: https://h/cb?token=…` checks `token=…`, not the URL.
//! * A bare `Bearer <token>` outside an `Authorization` header needs 16+
//!   characters and the entropy floor, so prose like "Bearer authentication"
//!   stays.

use regex::{Regex, RegexSet};
use sha2::Digest;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

mod clean;
mod gitleaks;
mod keyword_rules;
mod labels;
mod rule_data;

pub use clean::{Cleaned, audit_path, clean, clean_text, strip_format_chars};
pub use keyword_rules::{gitleaks_rule_compiles, gitleaks_rules};
pub use labels::label;
pub use rule_data::{Allow, GitleaksRule, Target};

/// Minimum Shannon entropy (bits per character) for heuristic rules.
const GENERIC_MIN_ENTROPY: f64 = 3.0;

/// Filters judge at most this many bytes of a value (keeps them linear).
const JUDGE_LIMIT: usize = 256;

/// What `scrub` writes, up to the rule id; a match containing it is ours.
const MARKER_PREFIX: &str = "[REDACTED:";

struct Rule {
    id: &'static str,
    pattern: &'static str,
    /// Entropy floor for the secret. `Some` marks a heuristic rule, which also
    /// skips benign-looking values (see [`BENIGN`]).
    min_entropy: Option<f64>,
    /// The `secret` group holds only the start of a value, which runs on to
    /// the end of [`VALUE_RUN`]. Found in code once per run, so nested
    /// `token=token=…` stays linear.
    value_run: bool,
}

const fn rule(id: &'static str, pattern: &'static str) -> Rule {
    Rule {
        id,
        pattern,
        min_entropy: None,
        value_run: false,
    }
}

/// One unit of a generic value: anything but whitespace, quotes and `,;&`,
/// where a run of `:` must not be followed by `/`, so a value stops before a
/// `://` (in `auth: https://h/cb?token=…` the URL is no value, `token=` is).
macro_rules! value_unit {
    () => {
        r#"(?:[^\s"'`,;&:]|:+[^\s"'`,;&:/])"#
    };
}

/// The rule table. On identical spans the earlier rule's id is used, so
/// specific formats come first and heuristic ones (with `min_entropy`) last.
///
/// `(?-u:\b)` is an ASCII word boundary, which keeps the regex DFA fast on
/// non-ASCII text (a Unicode `\b` makes it fall back to a slower engine).
#[rustfmt::skip]
const RULES: &[Rule] = &[
    rule("private-key", r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s\\:,-]*?-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,-]*)"),
    rule("aws-access-key", r"(?-u:\b)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?-u:\b)"),
    rule("aws-secret-key", r#"(?i)aws[_.-]?secret[_.-]?(?:access[_.-]?)?key["']?\s*(?:=|:|=>)\s*["']?(?P<secret>[A-Za-z0-9/+]{40})"#),
    rule("github-pat", r"(?-u:\b)ghp_[A-Za-z0-9]{36,}"),
    rule("github-fine-grained-pat", r"(?-u:\b)github_pat_[A-Za-z0-9_]{82,}"),
    rule("github-oauth", r"(?-u:\b)gho_[A-Za-z0-9]{36,}"),
    rule("github-app-token", r"(?-u:\b)gh[us]_[A-Za-z0-9]{36,}"),
    rule("github-refresh-token", r"(?-u:\b)ghr_[A-Za-z0-9]{36,}"),
    rule("gitlab-pat", r"(?-u:\b)glpat-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*"),
    rule("gitlab-token", r"(?-u:\b)(?:glptt|gldt|glrt|glcbt|glimt|glagent|glsoat|glft|glffct|gloas)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*"),
    rule("slack-token", r"(?-u:\b)xox[abeoprs]-[A-Za-z0-9-]{10,}"),
    rule("slack-app-token", r"(?-u:\b)xapp-[A-Za-z0-9-]{10,}"),
    rule("slack-webhook", r"(?i)(?-u:\b)hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9+/_-]{20,})"),
    rule("stripe-key", r"(?-u:\b)(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"),
    rule("anthropic-key", r"(?-u:\b)sk-ant-(?:api|admin|oat|sid)[0-9]{2}-[A-Za-z0-9_-]{20,}"),
    // sk-proj-/sk-svcacct-/sk-admin-/sk-None-, or legacy 48 alnum (20 + T3BlbkFJ + 20).
    rule("openai-key", r"(?-u:\b)sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{48})"),
    rule("google-api-key", r"(?-u:\b)AIza[A-Za-z0-9_-]{35}"),
    rule("npm-token", r"(?-u:\b)npm_[A-Za-z0-9]{36}"),
    rule("pypi-token", r"(?-u:\b)pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    rule("huggingface-token", r"(?-u:\b)hf_[A-Za-z]{34,}"),
    rule("sendgrid-key", r"(?-u:\b)SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
    rule("digitalocean-token", r"(?-u:\b)do[opr]_v1_[a-f0-9]{64}"),
    rule("n8v-key", r"(?-u:\b)n8v_sk_[A-Za-z0-9_-]{20,}"),
    rule("jwt", r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    rule("url-password", r"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:@/?#]*:(?P<secret>[^\s@/]+)@"),
    rule("authorization-header", r#"(?i)(?-u:\b)(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token)\s+(?P<secret>[^\s"',;]+)"#),
    Rule {
        id: "bearer-token",
        pattern: r"(?i)(?-u:\b)bearer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)",
        min_entropy: Some(GENERIC_MIN_ENTROPY),
        value_run: false,
    },
    Rule {
        id: "generic-secret",
        // Keyword ending an identifier, optional quote, separator, optional
        // quote, then a value of 8+ units that does not start with `:`/`=`
        // (`auth::jwt` is no match).
        pattern: concat!(
            r#"(?i)(?:key|keys|secret|secrets|token|passwd|password|passphrase|pwd|auth|authorization|credential|credentials|creds)"#,
            r#"(?:[_.-](?:base|value|b64|hex))?["']?[ \t]*(?:=|:=|:|=>)[ \t]*["'`]?"#,
            r#"(?P<secret>[^\s"'`,;&:=]"#,
            value_unit!(),
            "{7})"
        ),
        min_entropy: Some(GENERIC_MIN_ENTROPY),
        value_run: true,
    },
];

struct Compiled {
    set: RegexSet,
    regexes: Vec<Regex>,
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let patterns = RULES.iter().map(|r| r.pattern);
    Compiled {
        set: RegexSet::new(patterns.clone()).expect("scrub rules compile"),
        regexes: patterns
            .map(|p| Regex::new(p).expect("scrub rule compiles"))
            .collect(),
    }
});

/// The rest of a generic value, from its first character.
static VALUE_RUN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(concat!("^", value_unit!(), "*")).expect("value regex"));

/// Whole values that are placeholders, not secrets: `$TOKEN`, `${X}`, `$(cmd)`,
/// `<password>`, `{{ secret }}`, `%VAR%`, `****`, `xxxxxxxx`.
static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\$[A-Z_][A-Z0-9_]*|\$\{[^}]*\}|\$\([^)]*\)|<[^<>]*>|\{\{.*\}\}|%[A-Za-z_][A-Za-z0-9_]*%|\*+|x+|X+)$")
        .expect("placeholder regex")
});

/// Whole values that heuristic rules leave alone: our IDs (`key_01J9…`),
/// UUIDs, file paths, ISO timestamps, plain numbers, and lowercase words or
/// identifiers (`unauthorized`, `not_provided`), which are enum values or prose.
static BENIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:[a-z]{2,10}_[0-9A-HJKMNP-TV-Z]{26}",
        r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        r"|(?:/|\./|\.\./|~/).*",
        r"|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?",
        r"|[0-9]+(?:\.[0-9]+)?|[a-z]+(?:[_-][a-z]+)*)$",
    ))
    .expect("benign regex")
});

/// Replaces every credential found in `text` with `[REDACTED:<rule-id>]`.
pub fn scrub(text: &str) -> Cow<'_, str> {
    scrub_found(text).text
}

/// A credential [`scrub`] removed: the rule that named it, and the SHA-256 of its text, so that
/// the same credential can be recognised when it turns up again (`journal::exposures` keys it
/// per account) while no copy of the text outlives the scrub. `Debug` shows the rule only.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub rule: &'static str,
    digest: [u8; 32],
}

impl Found {
    /// The credential's fingerprint under `key`: HMAC-SHA256 of the SHA-256 of its text. Equal
    /// credentials give equal fingerprints under one key and unrelated ones under two.
    pub fn fingerprint(&self, key: &[u8]) -> [u8; 32] {
        crate::crypto::hmac_sha256(key, &self.digest)
    }
}

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Found")
            .field("rule", &self.rule)
            .finish_non_exhaustive()
    }
}

/// Text as [`scrub`] leaves it, and the credentials it removed (each once).
pub struct Scrubbed<'a> {
    pub text: Cow<'a, str>,
    pub found: Vec<Found>,
}

/// [`scrub`], telling what it removed. Clean text (the common case) allocates nothing.
pub fn scrub_found(text: &str) -> Scrubbed<'_> {
    let spans = find_spans(text, false);
    if spans.is_empty() {
        return Scrubbed {
            text: Cow::Borrowed(text),
            found: Vec::new(),
        };
    }
    let mut out = String::with_capacity(text.len());
    let mut found: Vec<Found> = Vec::with_capacity(spans.len());
    let mut last = 0;
    for span in &spans {
        out.push_str(&text[last..span.start]);
        out.push_str(MARKER_PREFIX);
        out.push_str(rule_id(span.rule));
        out.push(']');
        let one = Found {
            rule: rule_id(span.rule),
            digest: sha2::Sha256::digest(&text.as_bytes()[span.start..span.end]).into(),
        };
        if !found.iter().any(|f| f.digest == one.digest) {
            found.push(one);
        }
        last = span.end;
    }
    out.push_str(&text[last..]);
    Scrubbed {
        text: Cow::Owned(out),
        found,
    }
}

fn rule_id(index: usize) -> &'static str {
    match RULES.get(index) {
        Some(rule) => rule.id,
        None => gitleaks::RULES[index - RULES.len()].id,
    }
}

/// True when `text` contains something scrub would replace.
pub fn contains_secret(text: &str) -> bool {
    !find_spans(text, true).is_empty()
}

/// A byte range of `text` to redact, and the index of the rule naming it.
struct Span {
    start: usize,
    end: usize,
    rule: usize,
}

/// Accepted secret spans, sorted and merged so they do not overlap. With
/// `first_only` it returns as soon as one is found.
fn find_spans(text: &str, first_only: bool) -> Vec<Span> {
    let compiled = &*COMPILED;
    let markers: Vec<usize> = text.match_indices(MARKER_PREFIX).map(|(i, _)| i).collect();
    let has_marker = |range: Range<usize>| {
        let i = markers.partition_point(|&m| m < range.start);
        markers
            .get(i)
            .is_some_and(|&m| m + MARKER_PREFIX.len() <= range.end)
    };
    let mut spans = Vec::new();
    for idx in compiled.set.matches(text).iter() {
        let rule = &RULES[idx];
        let mut run = 0..0;
        let mut pos = 0;
        while pos <= text.len() {
            let Some(caps) = compiled.regexes[idx].captures_at(text, pos) else {
                break;
            };
            let Some(whole) = caps.get(0) else { break };
            let mut secret = caps.name("secret").unwrap_or(whole).range();
            if rule.value_run {
                if !run.contains(&secret.start) {
                    let len = VALUE_RUN.find(&text[secret.start..]).map_or(0, |m| m.end());
                    run = secret.start..secret.start + len;
                }
                secret.end = secret.end.max(run.end);
            }
            let accepted = !has_marker(whole.start()..whole.end().max(secret.end))
                && is_secret(rule, &text[secret.clone()]);
            if accepted {
                spans.push(Span {
                    start: secret.start,
                    end: word_end(text, secret.end),
                    rule: idx,
                });
                if first_only {
                    return spans;
                }
            }
            // After a rejected secret, go on from its start: only the context
            // (`password=`) is skipped, so nothing else hides behind it.
            pos = if accepted {
                whole.end().max(secret.end)
            } else {
                secret.start
            };
            pos = pos.max(whole.start() + next_char_len(text, whole.start()));
        }
    }
    keyword_rules::spans(text, &has_marker, first_only, &mut spans);
    merge(&mut spans);
    spans
}

/// Sorts spans and merges overlapping ones; the earliest (then the first
/// listed) rule names the merged span.
fn merge(spans: &mut Vec<Span>) {
    spans.sort_by_key(|s| (s.start, s.rule));
    spans.dedup_by(|next, kept| {
        let overlaps = next.start < kept.end;
        if overlaps {
            kept.end = kept.end.max(next.end);
        }
        overlaps
    });
}

fn next_char_len(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(1, char::len_utf8)
}

/// Extends a span ending inside an ASCII word to the end of that word, so no
/// token tail is left behind and the marker never creates a new `\b` that a
/// second pass could match at (keeps scrubbing idempotent).
fn word_end(text: &str, end: usize) -> usize {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if !text[..end].ends_with(is_word) {
        return end;
    }
    text[end..]
        .find(|c| !is_word(c))
        .map_or(text.len(), |n| end + n)
}

/// The start of the ASCII word `start` is inside of (see [`word_end`]).
fn word_start(text: &str, start: usize) -> usize {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if !text[start..].starts_with(is_word) {
        return start;
    }
    text[..start]
        .rfind(|c| !is_word(c))
        .map_or(0, |i| i + next_char_len(text, i))
}

fn is_secret(rule: &Rule, value: &str) -> bool {
    let value = &value[..value.floor_char_boundary(JUDGE_LIMIT)];
    if PLACEHOLDER.is_match(value) {
        return false;
    }
    match rule.min_entropy {
        Some(floor) => !BENIGN.is_match(value) && shannon_entropy(value) >= floor,
        None => true,
    }
}

/// Shannon entropy of `s` in bits per character.
fn shannon_entropy(s: &str) -> f64 {
    let mut ascii = [0u32; 128];
    let mut other: Vec<char> = Vec::new();
    for c in s.chars() {
        match ascii.get_mut(c as usize) {
            Some(count) => *count += 1,
            None => other.push(c),
        }
    }
    other.sort_unstable();
    let runs = other.chunk_by(|a, b| a == b).map(|run| run.len() as u32);
    let counts: Vec<u32> = ascii.into_iter().filter(|&k| k > 0).chain(runs).collect();
    let n = counts.iter().sum::<u32>() as f64;
    counts
        .into_iter()
        .map(|k| {
            let p = f64::from(k) / n;
            -p * p.log2()
        })
        .sum()
}
