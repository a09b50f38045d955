//! What a gitleaks rule is, as data: the types of the generated table (`gitleaks.rs`) and the
//! constructor its rows call. `keyword_rules` runs them.

/// One rule of the gitleaks default set (see `scrub/gitleaks.rs`).
pub struct GitleaksRule {
    pub id: &'static str,
    /// Empty for a rule that only names files (nothing to find in text).
    pub pattern: &'static str,
    /// The rule runs only when one of these occurs in the text (ASCII case-insensitively):
    /// the prefilter.
    pub keywords: &'static [&'static str],
    /// Entropy floor (bits per character) for the secret.
    pub entropy: Option<f64>,
    /// The capture group holding the secret; `None`: the first group that matched, else the
    /// whole match.
    pub secret_group: Option<usize>,
    /// Matches that are not secrets.
    pub allow: &'static [Allow],
}

/// One row of the generated table (`gitleaks.rs`): the fields in their order.
pub(super) const fn rule(
    id: &'static str,
    pattern: &'static str,
    keywords: &'static [&'static str],
    entropy: Option<f64>,
    secret_group: Option<usize>,
    allow: &'static [Allow],
) -> GitleaksRule {
    GitleaksRule {
        id,
        pattern,
        keywords,
        entropy,
        secret_group,
        allow,
    }
}

/// Matches a rule leaves alone: a regex on the secret, the whole match or its line, or a
/// stopword contained in the secret.
pub struct Allow {
    pub target: Target,
    pub regexes: &'static [&'static str],
    pub stopwords: &'static [&'static str],
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Secret,
    Match,
    Line,
}
