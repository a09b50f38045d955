//! The gitleaks default rule set (data in `gitleaks.rs`), run beside our own rules: a rule runs
//! only when one of its keywords occurs in the text (one Aho-Corasick pass over all keywords
//! is the prefilter), its regex is compiled on first use, and its findings go through
//! gitleaks' entropy floors and allowlists, our placeholder filter and, for the generic rule,
//! our benign-value filter, as our heuristic rules do.

use super::rule_data::{GitleaksRule, Target};
use super::{
    BENIGN, JUDGE_LIMIT, PLACEHOLDER, RULES, Span, gitleaks, shannon_entropy, word_end, word_start,
};
use aho_corasick::AhoCorasick;
use regex::{Regex, RegexBuilder};
use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

/// The gitleaks rules this scrubber runs, for tests and documentation.
pub fn gitleaks_rules() -> &'static [GitleaksRule] {
    gitleaks::RULES
}

struct Compiled {
    /// Every gitleaks keyword; `keyword_rules[pattern]` are the rules it selects.
    keywords: AhoCorasick,
    keyword_rules: Vec<Vec<usize>>,
    /// Compiled on first use (most texts select few rules); `None` if a pattern fails to
    /// compile (a test makes sure none does).
    gitleaks: Vec<OnceLock<Option<CompiledGitleaks>>>,
    global_allow: Vec<Regex>,
}

struct CompiledGitleaks {
    regex: Regex,
    allow: Vec<(Target, Vec<Regex>, &'static [&'static str])>,
}

fn compile(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern)
        .size_limit(64 << 20)
        .dfa_size_limit(16 << 20)
        .build()
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let mut words: Vec<String> = Vec::new();
    let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
    for (i, rule) in gitleaks::RULES.iter().enumerate() {
        for word in rule.keywords {
            let word = word.to_ascii_lowercase();
            match words.iter().position(|w| *w == word) {
                Some(k) => keyword_rules[k].push(i),
                None => {
                    words.push(word);
                    keyword_rules.push(vec![i]);
                }
            }
        }
    }
    Compiled {
        keywords: AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .expect("keywords compile"),
        keyword_rules,
        gitleaks: gitleaks::RULES.iter().map(|_| OnceLock::new()).collect(),
        global_allow: gitleaks::GLOBAL_ALLOW
            .regexes
            .iter()
            .filter_map(|p| compile(p).ok())
            .collect(),
    }
});

/// The compiled form of gitleaks rule `i`, `None` when it does not compile.
fn gitleaks_rule(i: usize) -> Option<&'static CompiledGitleaks> {
    COMPILED.gitleaks[i]
        .get_or_init(|| {
            let rule = &gitleaks::RULES[i];
            if rule.pattern.is_empty() {
                return None;
            }
            let regex = compile(rule.pattern)
                .map_err(|e| tracing::error!(rule = rule.id, error = %e, "gitleaks rule does not compile"))
                .ok()?;
            let allow = rule
                .allow
                .iter()
                .map(|a| {
                    let regexes = a.regexes.iter().filter_map(|p| compile(p).ok()).collect();
                    (a.target, regexes, a.stopwords)
                })
                .collect();
            Some(CompiledGitleaks { regex, allow })
        })
        .as_ref()
}

/// Whether gitleaks rule `i` compiles (for tests).
pub fn gitleaks_rule_compiles(i: usize) -> Result<(), String> {
    let rule = &gitleaks::RULES[i];
    compile(rule.pattern)
        .map(|_| ())
        .map_err(|e| e.to_string())?;
    for allow in rule.allow {
        for p in allow.regexes {
            compile(p).map_err(|e| format!("allowlist {p}: {e}"))?;
        }
    }
    Ok(())
}

/// Spans found by the gitleaks rules whose keywords occur in `text`. Their span's `rule` is
/// `RULES.len() + i`, so on identical spans our own (listed first) names the redaction.
pub(super) fn spans(
    text: &str,
    has_marker: &dyn Fn(Range<usize>) -> bool,
    first_only: bool,
    spans: &mut Vec<Span>,
) {
    let compiled = &*COMPILED;
    let mut selected = vec![false; gitleaks::RULES.len()];
    for found in compiled.keywords.find_overlapping_iter(text) {
        for &i in &compiled.keyword_rules[found.pattern().as_usize()] {
            selected[i] = true;
        }
    }
    for (i, _) in selected.iter().enumerate().filter(|(_, s)| **s) {
        let Some(rule) = gitleaks_rule(i) else {
            continue;
        };
        let meta = &gitleaks::RULES[i];
        for caps in rule.regex.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let secret = match meta.secret_group {
                Some(g) => caps.get(g),
                None => caps.iter().skip(1).flatten().find(|m| !m.is_empty()),
            }
            .unwrap_or(whole);
            if secret.is_empty() || has_marker(whole.range()) {
                continue;
            }
            let value = secret.as_str();
            let judged = &value[..value.floor_char_boundary(JUDGE_LIMIT)];
            // The generic rule is a heuristic like ours: it leaves our IDs, UUIDs, paths,
            // timestamps, numbers and plain words alone.
            let heuristic = meta.id.starts_with("generic-");
            if PLACEHOLDER.is_match(judged)
                || (heuristic && BENIGN.is_match(judged))
                || meta.entropy.is_some_and(|e| shannon_entropy(value) < e)
                || allowed(text, whole.range(), value, rule, compiled)
            {
                continue;
            }
            // Unlike ours, some gitleaks patterns do not start at a word boundary: widen to the
            // word's start too, so a marker never creates a boundary a second pass could use.
            spans.push(Span {
                start: word_start(text, secret.start()),
                end: word_end(text, secret.end()),
                rule: RULES.len() + i,
            });
            if first_only {
                return;
            }
        }
    }
}

/// gitleaks' allowlists: the rule's own and the global one.
fn allowed(
    text: &str,
    whole: Range<usize>,
    secret: &str,
    rule: &CompiledGitleaks,
    compiled: &Compiled,
) -> bool {
    let lower = secret.to_ascii_lowercase();
    let contains_stopword = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if compiled.global_allow.iter().any(|r| r.is_match(secret))
        || contains_stopword(gitleaks::GLOBAL_ALLOW.stopwords)
    {
        return true;
    }
    let line = || {
        let start = text[..whole.start].rfind('\n').map_or(0, |i| i + 1);
        let end = text[whole.end..]
            .find('\n')
            .map_or(text.len(), |i| whole.end + i);
        &text[start..end]
    };
    rule.allow.iter().any(|(target, regexes, stopwords)| {
        let haystack = match target {
            Target::Secret => secret,
            Target::Match => &text[whole.clone()],
            Target::Line => line(),
        };
        regexes.iter().any(|r| r.is_match(haystack)) || contains_stopword(stopwords)
    })
}
