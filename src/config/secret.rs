//! Settings that are secrets, redacted by their type: a [`Secret`] (a key, a password) prints
//! as `[redacted]`, a [`SecretUrl`] (a database or provider URL) with its password taken out.
//! `Config` derives `Debug` and ends up in logs and panic messages; neither type has a
//! `Display`, so its text reaches nothing without an explicit [`Secret::expose`].

/// A secret setting: `Debug` says only that it is set.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// The secret itself, for the one place that uses it (a signing key, a request header).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl From<&str> for Secret {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() {
            "\"\""
        } else {
            "[redacted]"
        })
    }
}

/// A URL that may carry a password (`scheme://user:password@host/…`, `?password=…`): `Debug`
/// shows it with the password [redacted](redact_url).
#[derive(Clone, PartialEq, Eq)]
pub struct SecretUrl(String);

impl SecretUrl {
    /// The URL itself, password and all, for the connection that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for SecretUrl {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl From<&str> for SecretUrl {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl std::fmt::Debug for SecretUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", redact_url(&self.0))
    }
}

/// `scheme://user:secret@host/…` → `scheme://user:[redacted]@host/…`; also `password=` in
/// the query string.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some((scheme, rest)) = url.split_once("://") {
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        if let Some(at) = rest[..authority_end].rfind('@') {
            let userinfo = &rest[..at];
            if let Some((user, _)) = userinfo.split_once(':') {
                out = format!("{scheme}://{user}:[redacted]{}", &rest[at..]);
            }
        }
    }
    if let Some(q) = out.find('?') {
        let (head, query) = out.split_at(q + 1);
        let query: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=[redacted]"),
                _ => pair.to_owned(),
            })
            .collect();
        out = format!("{head}{}", query.join("&"));
    }
    out
}
