//! What a client is, however it was registered (dynamically or by a metadata document), and
//! the rules its name and redirect URIs keep: shared by the [`super::registry`] (which keeps
//! clients) and [`super::documents`] (which fetches them).

/// The longest redirect URI accepted.
const MAX_URI_CHARS: usize = 2_000;
/// The most characters of a client's name that are kept.
pub const MAX_NAME_CHARS: usize = 100;

/// A client, however it was registered.
#[derive(Debug, Clone)]
pub struct Client {
    pub client_id: String,
    pub client_name: String,
    pub redirect_uris: Vec<String>,
}

impl Client {
    /// Whether `uri` is one of the registered redirect URIs, exactly (no prefix or pattern).
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.redirect_uris.iter().any(|r| r == uri)
    }
}

/// A client's name as kept and shown: one line, control characters dropped, at most
/// [`MAX_NAME_CHARS`]; `None` when nothing is left.
pub fn clean_name(name: &str) -> Option<String> {
    let cleaned: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_owned())
}

/// Checks one redirect URI: absolute, no fragment; `http` only to a loopback host (RFC 8252
/// §7.3, native apps); no scheme that runs or reads in the browser.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    if uri.len() > MAX_URI_CHARS {
        return Err(format!(
            "a redirect URI is longer than {MAX_URI_CHARS} characters"
        ));
    }
    let url = url::Url::parse(uri).map_err(|e| format!("{uri:?} is not an absolute URI: {e}"))?;
    if url.fragment().is_some() {
        return Err(format!("{uri:?} has a fragment; redirect URIs may not"));
    }
    match url.scheme() {
        "https" => Ok(()),
        "http" => match url.host() {
            Some(url::Host::Domain("localhost")) => Ok(()),
            Some(url::Host::Ipv4(ip)) if ip.is_loopback() => Ok(()),
            Some(url::Host::Ipv6(ip)) if ip.is_loopback() => Ok(()),
            _ => Err(format!(
                "{uri:?}: plain http is allowed only to a loopback address"
            )),
        },
        "javascript" | "data" | "file" | "vbscript" | "about" | "blob" => {
            Err(format!("{uri:?}: that scheme cannot be a redirect URI"))
        }
        // Private-use schemes of native apps (`cursor://…`, `vscode://…`).
        _ => Ok(()),
    }
}
