//! What each rule finds, in human words, for the warnings a scrubbed credential raises ("A
//! GitHub token was scrubbed from 3 purposes…"): our own rules by this table, which a test
//! holds complete; a gitleaks rule by its id's words ("an adobe client secret").

/// Our rules' ids and what they find, with the article.
const LABELS: &[(&str, &str)] = &[
    ("private-key", "a private key"),
    ("aws-access-key", "an AWS access key"),
    ("aws-secret-key", "an AWS secret key"),
    ("github-pat", "a GitHub token"),
    ("github-fine-grained-pat", "a GitHub fine-grained token"),
    ("github-oauth", "a GitHub OAuth token"),
    ("github-app-token", "a GitHub App token"),
    ("github-refresh-token", "a GitHub refresh token"),
    ("gitlab-pat", "a GitLab token"),
    ("gitlab-token", "a GitLab token"),
    ("slack-token", "a Slack token"),
    ("slack-app-token", "a Slack app token"),
    ("slack-webhook", "a Slack webhook URL"),
    ("stripe-key", "a Stripe key"),
    ("anthropic-key", "an Anthropic API key"),
    ("openai-key", "an OpenAI API key"),
    ("google-api-key", "a Google API key"),
    ("npm-token", "an npm token"),
    ("pypi-token", "a PyPI token"),
    ("huggingface-token", "a Hugging Face token"),
    ("sendgrid-key", "a SendGrid key"),
    ("digitalocean-token", "a DigitalOcean token"),
    ("n8v-key", "an n8v API key"),
    ("jwt", "a JSON Web Token"),
    ("url-password", "a password in a URL"),
    ("authorization-header", "an Authorization header credential"),
    ("bearer-token", "a bearer token"),
    ("generic-secret", "a password or secret"),
];

/// What the rule `id` finds, with its article, as a warning names it: `a GitHub token`.
pub fn label(id: &str) -> String {
    if let Some((_, label)) = LABELS.iter().find(|(rule, _)| *rule == id) {
        return (*label).to_owned();
    }
    let words = id.replace(['-', '_'], " ");
    let article = match words.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    };
    format!("{article} {words}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_of_ours_has_a_label_and_gitleaks_rules_get_their_words() {
        for rule in super::super::RULES {
            let found = LABELS.iter().any(|(id, _)| *id == rule.id);
            assert!(found, "{} has no label", rule.id);
        }
        assert_eq!(
            LABELS.len(),
            super::super::RULES.len(),
            "a label for no rule"
        );
        assert_eq!(label("github-pat"), "a GitHub token");
        assert_eq!(label("adobe-client-secret"), "an adobe client secret");
        assert_eq!(label("1password-secret-key"), "a 1password secret key");
    }
}
