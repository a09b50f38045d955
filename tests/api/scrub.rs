//! Integration tests for `n8v_journal::scrub`.
//!
//! Fake secrets are assembled at run time so that no real-looking credential
//! sits literally in the source (and secret scanners stay quiet).

use n8v_journal::scrub::{contains_secret, scrub};
use std::borrow::Cow;

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX: &str = "0123456789abcdef";
const B64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Deterministic pseudo-random string of `len` characters from `alphabet`.
fn rand_str(alphabet: &str, len: usize, seed: u64) -> String {
    let chars: Vec<char> = alphabet.chars().collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            chars[((state >> 33) % chars.len() as u64) as usize]
        })
        .collect()
}

fn alnum(len: usize, seed: u64) -> String {
    rand_str(ALNUM, len, seed)
}

/// `secret` must be gone from `scrub(input)`, replaced by `[REDACTED:id]`,
/// with everything around it kept byte for byte.
fn check(input: &str, secret: &str, id: &str) {
    assert!(input.contains(secret), "bad test case: {input}");
    let marker = format!("[REDACTED:{id}]");
    let out = scrub(input);
    assert!(!out.contains(secret), "secret survived as {id}: {out}");
    assert_eq!(out, input.replace(secret, &marker), "input: {input}");
    assert!(
        contains_secret(input),
        "contains_secret missed {id}: {input}"
    );
    assert_eq!(scrub(&out), out, "not idempotent: {out}");
    assert!(!contains_secret(&out), "marker re-detected: {out}");
}

fn jwt(seed: u64) -> String {
    // {"alg":"HS256","typ":"JWT"} . {"sub":"…"} . signature
    format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ{}.{}",
        rand_str(B64URL, 40, seed),
        rand_str(B64URL, 43, seed + 1)
    )
}

#[test]
fn aws() {
    let id = format!("AKIA{}", rand_str(UPPER_ALNUM, 16, 1));
    check(
        &format!("configured key {id} for the uploader"),
        &id,
        "aws-access-key",
    );
    let id = format!("ASIA{}", rand_str(UPPER_ALNUM, 16, 2));
    check(
        &format!(r#"{{"AccessKeyId": "{id}", "region": "eu-west-1"}}"#),
        &id,
        "aws-access-key",
    );

    let secret = rand_str(B64, 40, 3);
    check(
        &format!("[default]\naws_secret_access_key = {secret}\n"),
        &secret,
        "aws-secret-key",
    );
    let secret = rand_str(B64, 40, 4);
    check(
        &format!("export AWS_SECRET_ACCESS_KEY=\"{secret}\" && deploy"),
        &secret,
        "aws-secret-key",
    );
}

#[test]
fn github() {
    let t = format!("ghp_{}", "a1B2".repeat(9));
    check(&format!("cloned with {t} then pushed"), &t, "github-pat");
    let t = format!("ghp_{}", alnum(36, 5));
    check(&format!("GITHUB_TOKEN={t}"), &t, "github-pat");

    let t = format!("github_pat_{}_{}", alnum(22, 6), alnum(59, 7));
    check(
        &format!("using fine-grained token {t}."),
        &t,
        "github-fine-grained-pat",
    );
    let t = format!("github_pat_{}", rand_str("abcXYZ019_", 82, 8));
    check(&format!("token: {t}"), &t, "github-fine-grained-pat");

    let t = format!("gho_{}", alnum(36, 9));
    check(&format!("oauth {t} granted"), &t, "github-oauth");
    let t = format!("gho_{}", alnum(36, 10));
    check(&format!("({t})"), &t, "github-oauth");

    let t = format!("ghu_{}", alnum(36, 11));
    check(&format!("user-to-server {t}"), &t, "github-app-token");
    let t = format!("ghs_{}", alnum(36, 12));
    check(
        &format!("installation token {t} expires in 1h"),
        &t,
        "github-app-token",
    );

    let t = format!("ghr_{}", alnum(36, 13));
    check(&format!("refresh={t}"), &t, "github-refresh-token");
    let t = format!("ghr_{}", alnum(76, 14));
    check(&format!("refresh token {t}"), &t, "github-refresh-token");
}

#[test]
fn gitlab() {
    let t = format!("glpat-{}", rand_str(B64URL, 20, 15));
    check(&format!("PRIVATE-TOKEN: {t}"), &t, "gitlab-pat");
    let t = format!("glpat-{}.01.{}", alnum(27, 16), alnum(9, 17));
    check(&format!("new routable token {t} issued"), &t, "gitlab-pat");

    let t = format!("glptt-{}", rand_str(HEX, 40, 18));
    check(&format!("trigger with {t}"), &t, "gitlab-token");
    let t = format!("gldt-{}", alnum(20, 19));
    check(&format!("deploy token {t}"), &t, "gitlab-token");
    let t = format!("glrt-{}", alnum(20, 20));
    check(&format!("runner registered: {t}"), &t, "gitlab-token");
}

#[test]
fn slack() {
    for (i, kind) in ["xoxb", "xoxp", "xoxa", "xoxr", "xoxs"].iter().enumerate() {
        let t = format!(
            "{kind}-{}-{}-{}",
            rand_str("0123456789", 11, i as u64),
            rand_str("0123456789", 12, 30 + i as u64),
            alnum(24, 40 + i as u64)
        );
        check(&format!("slack {t} used"), &t, "slack-token");
    }
    let t = format!(
        "xapp-1-A{}-{}-{}",
        rand_str(UPPER_ALNUM, 10, 21),
        rand_str("0123456789", 13, 22),
        rand_str(HEX, 64, 23)
    );
    check(&format!("socket mode via {t}"), &t, "slack-app-token");
    let t = format!("xapp-1-{}", alnum(40, 24));
    check(&format!("SLACK_APP_TOKEN={t}"), &t, "slack-app-token");

    let path = format!(
        "T{}/B{}/{}",
        rand_str(UPPER_ALNUM, 8, 25),
        rand_str(UPPER_ALNUM, 10, 26),
        alnum(24, 27)
    );
    // gitleaks' slack-webhook-url takes the whole URL, which wins over our path-only rule.
    let url = format!("https://hooks.slack.com/services/{path}");
    check(&format!("posted to {url} ok"), &url, "slack-webhook-url");
    let path = format!(
        "T{}/A{}/{}",
        rand_str(UPPER_ALNUM, 10, 28),
        rand_str(UPPER_ALNUM, 10, 29),
        alnum(32, 30)
    );
    let url = format!("https://hooks.slack.com/workflows/{path}");
    check(&format!("webhook={url}"), &url, "slack-webhook-url");
}

#[test]
fn stripe() {
    for (i, prefix) in ["sk_live", "sk_test", "rk_live", "pk_live"]
        .iter()
        .enumerate()
    {
        let t = format!("{prefix}_{}", alnum(24, 50 + i as u64));
        check(&format!("charged with {t} today"), &t, "stripe-key");
    }
}

#[test]
fn openai_and_anthropic() {
    let t = format!(
        "sk-proj-{}T3BlbkFJ{}",
        rand_str(B64URL, 74, 60),
        rand_str(B64URL, 74, 61)
    );
    check(&format!("OPENAI_API_KEY={t}"), &t, "openai-key");
    let t = format!("sk-svcacct-{}", rand_str(B64URL, 120, 62));
    check(&format!("service account {t} created"), &t, "openai-key");
    let t = format!("sk-{}T3BlbkFJ{}", alnum(20, 63), alnum(20, 64));
    check(&format!("legacy key {t}"), &t, "openai-key");
    let t = format!("sk-None-{}", rand_str(B64URL, 48, 67));
    check(&format!("{t} was pasted"), &t, "openai-key");

    let t = format!("sk-ant-api03-{}AA", rand_str(B64URL, 93, 65));
    check(&format!("x-api-key: {t}"), &t, "anthropic-key");
    let t = format!("sk-ant-admin01-{}AA", rand_str(B64URL, 93, 66));
    check(&format!("admin key {t} rotated"), &t, "anthropic-key");
}

#[test]
fn google_npm_pypi_hf_sendgrid_digitalocean() {
    let t = format!("AIza{}", rand_str(B64URL, 35, 70));
    check(&format!("maps key {t} restricted"), &t, "google-api-key");
    let t = format!("AIza{}", rand_str(B64URL, 35, 71));
    check(&format!("?key={t}&libraries=places"), &t, "google-api-key");

    let t = format!("npm_{}", alnum(36, 72));
    check(
        &format!("//registry.npmjs.org/:_authToken={t}"),
        &t,
        "npm-token",
    );
    let t = format!("npm_{}", alnum(36, 73));
    check(&format!("published using {t}"), &t, "npm-token");

    let t = format!("pypi-AgEIcHlwaS5vcmc{}", rand_str(B64URL, 70, 74));
    check(&format!("password = {t}"), &t, "pypi-token");
    let t = format!("pypi-AgEIcHlwaS5vcmc{}", rand_str(B64URL, 150, 75));
    check(&format!("twine upload -p {t} dist/*"), &t, "pypi-token");

    let t = format!("hf_{}", rand_str(LETTERS, 34, 76));
    check(&format!("HF_TOKEN={t}"), &t, "huggingface-token");
    let t = format!("hf_{}", rand_str(LETTERS, 34, 77));
    check(
        &format!("downloaded the model with {t}."),
        &t,
        "huggingface-token",
    );

    let t = format!(
        "SG.{}.{}",
        rand_str(B64URL, 22, 78),
        rand_str(B64URL, 43, 79)
    );
    check(&format!("mail via {t}"), &t, "sendgrid-key");
    let t = format!(
        "SG.{}.{}",
        rand_str(B64URL, 22, 80),
        rand_str(B64URL, 43, 81)
    );
    check(&format!("\"{t}\""), &t, "sendgrid-key");

    for (i, prefix) in ["dop", "doo", "dor"].iter().enumerate() {
        let t = format!("{prefix}_v1_{}", rand_str(HEX, 64, 82 + i as u64));
        check(&format!("doctl auth init -t {t}"), &t, "digitalocean-token");
    }
}

#[test]
fn n8v_keys_and_jwts() {
    let t = format!("n8v_sk_{}", rand_str(B64URL, 32, 90));
    check(&format!("X-Api-Key: {t}"), &t, "n8v-key");
    let t = format!("n8v_sk_{}", alnum(20, 91));
    check(
        &format!("created {t} for acc_01J9ZQ3K8X7M2N4P5R6S7T8V9W"),
        &t,
        "n8v-key",
    );

    let t = jwt(92);
    check(&format!("session jwt {t} accepted"), &t, "jwt");
    // In a header the more specific jwt rule names the redaction.
    let t = jwt(93);
    check(&format!("Authorization: Bearer {t}"), &t, "jwt");
    // Unsigned token (empty signature).
    let t = format!("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ{}.", alnum(20, 94));
    check(&format!("token={t}"), &t, "jwt");
}

#[test]
fn private_keys() {
    let body: Vec<String> = (0..5).map(|i| rand_str(B64, 64, 100 + i)).collect();
    let block = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        body.join("\n")
    );
    check(
        &format!("key file:\n{block}\nend of file"),
        &block,
        "private-key",
    );

    let block = format!(
        "-----BEGIN OPENSSH PRIVATE KEY-----\\n{}\\n-----END OPENSSH PRIVATE KEY-----",
        body.join("\\n")
    );
    check(&format!(r#"{{"key": "{block}"}}"#), &block, "private-key");

    let block = format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----",
        rand_str(B64, 64, 110)
    );
    check(
        &format!("two keys: {block} and {block}"),
        &block,
        "private-key",
    );

    // Truncated (no END line): redact from BEGIN through the base64 run.
    let block = format!(
        "-----BEGIN EC PRIVATE KEY-----\n{}\n{}",
        rand_str(B64, 64, 111),
        rand_str(B64, 20, 112)
    );
    check(&format!("{block}... (truncated)"), &block, "private-key");

    // Public material is not a secret.
    let public = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----";
    assert!(matches!(scrub(public), Cow::Borrowed(_)));
}

#[test]
fn url_passwords_keep_scheme_user_and_host() {
    let out = scrub(
        "connect postgres://journal:S3cr3t-P4ss@db.internal:5432/journal?sslmode=require now",
    );
    assert_eq!(
        out,
        "connect postgres://journal:[REDACTED:url-password]@db.internal:5432/journal?sslmode=require now"
    );

    check("redis://:hunter2@cache:6379/0", "hunter2", "url-password");
    check(
        "git clone https://deploy:changeme@git.example.com/org/repo.git",
        "changeme",
        "url-password",
    );
    let pw = alnum(16, 120);
    check(
        &format!("DATABASE_URL=mysql://root:{pw}@127.0.0.1/app"),
        &pw,
        "url-password",
    );
}

#[test]
fn authorization_headers_and_bearer() {
    let t = alnum(40, 130);
    check(
        &format!("curl -H 'Authorization: Bearer {t}' https://api.example.com"),
        &t,
        "authorization-header",
    );
    check(
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "dXNlcjpwYXNzd29yZA==",
        "authorization-header",
    );
    let t = alnum(24, 131);
    check(
        &format!(r#"headers: {{"authorization": "token {t}"}}"#),
        &t,
        "authorization-header",
    );
    check(
        "proxy-authorization: basic YWxhZGRpbjpvcGVuc2VzYW1l",
        "YWxhZGRpbjpvcGVuc2VzYW1l",
        "authorization-header",
    );

    let t = rand_str(B64URL, 32, 132);
    check(
        &format!("sent Bearer {t} to the upstream"),
        &t,
        "bearer-token",
    );
    let t = format!("{}.{}", alnum(20, 133), alnum(12, 134));
    check(&format!("bearer {t}"), &t, "bearer-token");
}

#[test]
fn generic_keyword_assignments() {
    let v = format!("{}!{}", alnum(10, 140), alnum(4, 141));
    assert_eq!(
        scrub(&format!("password={v}")),
        "password=[REDACTED:generic-secret]"
    );
    check(&format!("db_password: \"{v}\""), &v, "generic-secret");
    check(
        &format!(r#"{{"client_secret":"{v}","limit":20}}"#),
        &v,
        "generic-secret",
    );
    check(&format!("apiKey={v} limit=20"), &v, "generic-secret");
    check(
        &format!("GET /v1/items?access_token={v}&limit=20"),
        &v,
        "generic-secret",
    );
    check(&format!("SECRET_KEY_BASE='{v}'"), &v, "generic-secret");
    check(&format!("passphrase => \"{v}\""), &v, "generic-secret");
    check(&format!("app.auth.token := {v};"), &v, "generic-secret");
    let hex = rand_str(HEX, 40, 142);
    check(&format!("WEBHOOK_SECRET={hex}"), &hex, "generic-secret");
    // A value hidden behind a rejected one is still found.
    check(
        &format!("auth: https://sso.example.com/cb?token={v}"),
        &v,
        "generic-secret",
    );
}

#[test]
fn negatives_are_untouched() {
    let negatives = [
        "Rotate the password tomorrow and revoke the old token.",
        "The user asked to reset their API key; the token was expired.",
        "session 0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b started",
        "ses_01J9ZQ3K8X7M2N4P5R6S7T8V9W call_01J9ZQ3K8X7M2N4P5R6S7T8V9W rec_01J9ZQ3K8X7M2N4P5R6S7T8V9W",
        "acc_01J9ZQ3K8X7M2N4P5R6S7T8V9W owns key_01J9ZQ3K8X7M2N4P5R6S7T8V9W",
        "key: key_01J9ZQ3K8X7M2N4P5R6S7T8V9W",
        "api_key_id=key_01J9ZQ3K8X7M2N4P5R6S7T8V9W revoked",
        "revoked key_01J9ZQ3K8X7M2N4P5R6S7T8V9W: leaked in a paste",
        "idempotency_key: 0191a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b",
        "merged 9fceb02d0ae598e95dc970b74767f19372d61af8 into main",
        "fixed in 3f2a9c1, reverted by a1b2c3d4e5f6",
        "see https://example.com/docs/path?q=token&limit=20#section",
        "cloned https://octocat@github.com/org/repo.git and git@github.com:org/repo.git",
        "listening on http://localhost:8080/v1/sessions and ssh://git@host:22/x",
        "started 2024-05-01T12:34:56Z, finished 2024-05-01T12:35:10.123+02:00",
        "wrote /var/lib/n8v/journal.db and src/scrub.rs:42",
        "limit=20 offset=100 page_size=50",
        "password=changeme",
        "password: incorrect",
        "token: expired, key: missing",
        "sort_key: created_at",
        "max_tokens=4096 input_tokens: 123456789",
        "token_count: 1234",
        "ran task_test_integration42 and bookmark_live_2024abcdef",
        "token: unauthorized, auth: not_provided, secret: rotated-by-admin",
        "The bearer token expired. Bearer authentication is required.",
        "Bearer authorization_required_for_this_route",
        "Authorization: Bearer $API_TOKEN",
        "password=${DB_PASSWORD} token=<your-token-here>",
        "n8v_journal::auth::middleware: request rejected",
        "PWD=/home/dev/projects/n8v-journal",
        "auth_url: https://auth.example.com/oauth2/authorize",
        "-----BEGIN CERTIFICATE-----",
        "Der Schlüssel wurde rotiert — パスワードを変更しました 🔑",
        "[REDACTED:github-pat] and password=[REDACTED:generic-secret]",
        "",
    ];
    for text in negatives {
        let out = scrub(text);
        assert!(
            matches!(out, Cow::Borrowed(_)),
            "changed: {text:?} -> {out:?}"
        );
        assert!(!contains_secret(text), "contains_secret: {text:?}");
    }
}

#[test]
fn idempotent() {
    let text = format!(
        "goal: deploy with ghp_{} and Authorization: Bearer {}; db postgres://u:{}@h/db; password={}!x; {}",
        alnum(36, 150),
        jwt(151),
        alnum(12, 152),
        alnum(14, 153),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
    );
    let once = scrub(&text).into_owned();
    assert_ne!(once, text);
    assert_eq!(once.matches("[REDACTED:").count(), 5, "{once}");
    let twice = scrub(&once);
    assert!(matches!(twice, Cow::Borrowed(_)));
    assert_eq!(twice, once);

    // Shapes that once made a second pass find more (found by fuzzing): a
    // token glued to a keyword, a multi-line key becoming a one-word marker,
    // fixed-length tokens glued to the next one.
    let tricky = [
        format!(
            "hf_{}Authorization: \0[REDACTED:jwt]x pwd=\tkey: Zq8Lm3Xv9K2w",
            rand_str(LETTERS, 34, 154)
        ),
        format!(
            "https://password:=-----BEGIN RSA PRIVATE KEY-----{} services/pwd=\tclient_secret\":\"Zq8Lm3XvxK1O06gG$;",
            alnum(20, 155)
        ),
        format!(
            "AIza{}ghp_{} npm_{}sk_live_{}",
            alnum(35, 156),
            alnum(36, 157),
            alnum(36, 158),
            alnum(12, 159)
        ),
        format!(
            "token: Authorization: Basic npm_{}/password=x[REDACTED:jwt]?Authorization: Basic {}",
            alnum(36, 160),
            alnum(20, 161)
        ),
    ];
    for text in &tricky {
        let once = scrub(text).into_owned();
        assert_ne!(&once, text);
        assert_eq!(scrub(&once), once, "input: {text:?}");
    }
}

#[test]
fn unicode_and_odd_input_never_panics() {
    let t = format!("ghp_{}", alnum(36, 160));
    // Token next to non-ASCII text is still found when at a word boundary.
    check(&format!("🔑{t}— überprüft"), &t, "github-pat");
    check(
        &format!("пароль password=«{}»", alnum(12, 161)),
        &format!("«{}»", alnum(12, 161)),
        "generic-secret",
    );

    // `¦`-separated building blocks: keywords, separators, token prefixes and
    // bodies, markers and assorted non-ASCII.
    let fragments: Vec<String> = concat!(
        "password=¦token: ¦\"¦'¦://¦:¦@¦ghp_¦Bearer ¦Authorization: ¦eyJ¦.¦=¦%¦$¦{¦}¦",
        "-----BEGIN RSA PRIVATE KEY-----¦-----END RSA PRIVATE KEY-----¦AKIA¦sk-¦n8v_sk_¦xoxb-¦",
        "a1B2c3D4¦Zq8Lm3Xv¦e5F6g7H8i9J0¦[REDACTED:jwt]¦key_01J9ZQ3K8X7M2N4P5R6S7T8V9W¦",
        "é¦ß¦日本¦🔑¦\u{0301}¦\0¦\n¦ "
    )
    .split('¦')
    .map(String::from)
    .chain([
        format!("ghp_{}", alnum(36, 170)),
        format!("AIza{}", alnum(35, 172)),
        format!("npm_{}", alnum(36, 173)),
        format!("AKIA{}", rand_str(UPPER_ALNUM, 16, 174)),
        format!("sk_live_{}", alnum(12, 175)),
        format!("dop_v1_{}", rand_str(HEX, 64, 176)),
        jwt(171),
        "task_test_".to_string(),
        "https://".to_string(),
        "postgres://u:pw@h".to_string(),
        "api_key=Zq8Lm3Xv9".to_string(),
    ])
    .collect();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut changed = 0;
    for _ in 0..5000 {
        let text: String = (0..next() % 24)
            .map(|_| fragments[(next() % fragments.len() as u64) as usize].as_str())
            .collect();
        let once = scrub(&text).into_owned();
        assert_eq!(contains_secret(&text), once != text, "{text:?}");
        assert_eq!(scrub(&once), once, "not idempotent for {text:?}");
        assert!(!contains_secret(&once), "{once:?}");
        changed += usize::from(once != text);
    }
    assert!(changed > 100, "fuzz produced only {changed} redactions");

    let long = "é🔑a".repeat(10_000);
    assert!(matches!(scrub(&long), Cow::Borrowed(_)));
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let lossy = String::from_utf8_lossy(&bytes);
    let _ = scrub(&lossy);
    let _ = contains_secret(&lossy);
}

#[test]
fn adversarial_input_stays_fast() {
    // Each of these would be quadratic with a naive "retry inside the
    // rejected value" loop or an unbounded lazy PEM body.
    let inputs = [
        "password=".repeat(20_000),
        "auth:".repeat(40_000),
        format!("token={}", "token=https://".repeat(10_000)),
        "-----BEGIN RSA PRIVATE KEY----- . ".repeat(5_000),
        "key=a1B2c3D4 ".repeat(20_000),
        "é🔑пароль=".repeat(20_000),
    ];
    let start = std::time::Instant::now();
    for text in &inputs {
        let _ = scrub(text);
        let _ = contains_secret(text);
    }
    // Generous bound (debug build, busy CI); quadratic behaviour takes minutes.
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

// The gitleaks rule set ----------------------------------------------------------------------

/// A small generator of strings matching a regex: walks the parsed pattern, picking
/// alternatives and repetition counts at random and, in classes, letters and digits first.
mod sample {
    use regex_syntax::hir::{Class, Hir, HirKind};

    pub struct Rng(pub u64);

    impl Rng {
        pub fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n.max(1)
        }
    }

    fn pick_char(ranges: &[(u32, u32)], rng: &mut Rng) -> char {
        let mut preferred = Vec::new();
        let mut printable = Vec::new();
        for &(lo, hi) in ranges {
            for c in lo.max(0x21)..=hi.min(0x7e) {
                let c = char::from_u32(c).unwrap();
                if c.is_ascii_alphanumeric() {
                    preferred.push(c);
                } else {
                    printable.push(c);
                }
            }
        }
        // A class of nearly everything (`.`, `[^"]`) is often a sloppy literal dot
        // (`hooks.slack.com`): give the dot a fair chance.
        let size: u32 = ranges.iter().map(|(lo, hi)| hi - lo + 1).sum();
        if size > 100_000 && printable.contains(&'.') && rng.below(2) == 0 {
            return '.';
        }
        let pool = if !preferred.is_empty() {
            preferred
        } else if !printable.is_empty() {
            printable
        } else {
            // Only whitespace or non-ASCII: take the first character of a range.
            let (lo, _) = ranges[rng.below(ranges.len() as u64) as usize];
            return char::from_u32(lo).unwrap_or(' ');
        };
        pool[rng.below(pool.len() as u64) as usize]
    }

    pub fn generate(hir: &Hir, rng: &mut Rng, out: &mut String) {
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
            HirKind::Class(Class::Unicode(class)) => {
                let ranges: Vec<(u32, u32)> = class
                    .ranges()
                    .iter()
                    .map(|r| (r.start() as u32, r.end() as u32))
                    .collect();
                out.push(pick_char(&ranges, rng));
            }
            HirKind::Class(Class::Bytes(class)) => {
                let ranges: Vec<(u32, u32)> = class
                    .ranges()
                    .iter()
                    .map(|r| (u32::from(r.start()), u32::from(r.end()).min(0x7f)))
                    .filter(|(lo, hi)| lo <= hi)
                    .collect();
                out.push(pick_char(&ranges, rng));
            }
            HirKind::Repetition(rep) => {
                let max = rep.max.unwrap_or(rep.min + 8).min(rep.min + 24);
                let n = rep.min + rng.below(u64::from(max - rep.min) + 1) as u32;
                for _ in 0..n {
                    generate(&rep.sub, rng, out);
                }
            }
            HirKind::Capture(cap) => generate(&cap.sub, rng, out),
            HirKind::Concat(parts) => parts.iter().for_each(|p| generate(p, rng, out)),
            HirKind::Alternation(branches) => {
                let branch = &branches[rng.below(branches.len() as u64) as usize];
                generate(branch, rng, out);
            }
        }
    }
}

fn entropy(s: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for c in s.chars() {
        *counts.entry(c).or_insert(0u32) += 1;
    }
    let n = s.chars().count() as f64;
    counts
        .values()
        .map(|&k| {
            let p = f64::from(k) / n;
            -p * p.log2()
        })
        .sum()
}

#[test]
fn every_gitleaks_rule_compiles() {
    let rules = n8v_journal::scrub::gitleaks_rules();
    assert!(rules.len() >= 200, "the whole set: {}", rules.len());
    let failures: Vec<String> = (0..rules.len())
        .filter(|&i| !rules[i].pattern.is_empty())
        .filter_map(|i| {
            n8v_journal::scrub::gitleaks_rule_compiles(i)
                .err()
                .map(|e| format!("{}: {e}", rules[i].id))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// One generated sample per gitleaks rule (a string its pattern matches, with a secret above
/// its entropy floor), embedded in a sentence; the secret must be gone after scrubbing.
#[test]
fn gitleaks_rules_recall_on_generated_samples() {
    let rules = n8v_journal::scrub::gitleaks_rules();
    let mut applicable = 0;
    let mut no_sample = Vec::new();
    let mut missed = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if rule.pattern.is_empty() {
            continue; // a file-name rule: nothing to find in text
        }
        applicable += 1;
        let regex = regex::Regex::new(rule.pattern).unwrap();
        let hir = regex_syntax::parse(rule.pattern).unwrap();
        let mut found = None;
        for seed in 0..200u64 {
            let mut rng = sample::Rng(seed * 7919 + i as u64);
            let mut generated = String::new();
            sample::generate(&hir, &mut rng, &mut generated);
            // gitleaks runs a rule only when one of its keywords is in the text; where the
            // pattern does not spell one out, the sentence names the service.
            let has_keyword = |t: &str| {
                let lower = t.to_ascii_lowercase();
                rule.keywords
                    .iter()
                    .any(|k| lower.contains(&k.to_ascii_lowercase()))
            };
            let text = if has_keyword(&generated) || seed % 2 == 0 {
                format!("the value is {generated} here")
            } else {
                format!("the {} value is {generated} here", rule.keywords[0])
            };
            if !has_keyword(&text) {
                continue;
            }
            let Some(caps) = regex.captures(&text) else {
                continue;
            };
            let secret = match rule.secret_group {
                Some(g) => caps.get(g),
                None => caps.iter().skip(1).flatten().find(|m| !m.is_empty()),
            }
            .or_else(|| caps.get(0))
            .unwrap()
            .as_str()
            .to_owned();
            if secret.len() < 4 || rule.entropy.is_some_and(|e| entropy(&secret) < e) {
                continue;
            }
            found = Some((text, secret));
            break;
        }
        let Some((text, secret)) = found else {
            no_sample.push(rule.id);
            continue;
        };
        let out = scrub(&text);
        if out.contains(&secret) {
            missed.push(format!("{}: {text:?} -> {out:?}", rule.id));
        }
        assert_eq!(scrub(&out), out, "not idempotent for {}", rule.id);
    }
    let sampled = applicable - no_sample.len();
    let detected = sampled - missed.len();
    let recall = detected as f64 / sampled as f64;
    println!(
        "gitleaks rules: {} in all, {applicable} with a pattern, {sampled} sampled; \
         recall {detected}/{sampled} = {:.1} %",
        rules.len(),
        recall * 100.0
    );
    println!("no sample generated for: {no_sample:?}");
    for m in &missed {
        println!("missed {m}");
    }
    assert!(
        no_sample.len() <= applicable / 20,
        "too few samples: {no_sample:?}"
    );
    assert!(recall >= 0.95, "recall {recall:.3}; missed: {missed:#?}");
}
