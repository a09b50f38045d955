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
    /// Whether `uri` is one of the registered redirect URIs (exactly, or the same loopback
    /// redirect on another port: [`same_redirect`]), and one [`check_redirect_uri`] allows (a
    /// client kept from before a rule was added is never sent where the rule now refuses, nor
    /// is the consent page's policy opened to it).
    pub fn allows_redirect(&self, uri: &str) -> bool {
        self.redirect_uris.iter().any(|r| same_redirect(r, uri)) && check_redirect_uri(uri).is_ok()
    }
}

/// Whether a `client_id` is meant as a metadata document's URL (see [`super::documents`]).
pub fn is_document_id(client_id: &str) -> bool {
    client_id.starts_with("https://") || client_id.starts_with("http://")
}

/// Who a client is, as a person deciding on it should read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// A client ID metadata document's client: the host its document is published on (with
    /// its port, when not the scheme's own) is the relying party, the one party vouched for
    /// (by the web's TLS, not by us); the document's `client_name` is only its own claim.
    Document { host: String },
    /// A dynamically registered client: whoever registered it chose its name, which nobody
    /// checked.
    Registered,
}

/// Who the client `client_id` names is ([`Identity`]).
pub fn identity(client_id: &str) -> Identity {
    if is_document_id(client_id)
        && let Ok(url) = url::Url::parse(client_id)
        && let Some(host) = url.host_str()
    {
        let host = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        return Identity::Document { host };
    }
    Identity::Registered
}

/// Where a redirect URI sends the person back to, as they should read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// `http` to a loopback host: an app listening on this computer (`shown` is its origin).
    ThisComputer { shown: String },
    /// A web site: `shown` is the redirect URI's origin.
    Web { shown: String },
    /// A native app's private-use scheme (RFC 8252 §7.1): whichever app on the device claims
    /// the scheme is opened. `shown` keeps the scheme, so `myapp://claude.ai/cb` reads as
    /// `myapp://claude.ai` and never as the web site `claude.ai`.
    App { shown: String, scheme: String },
}

/// Where `uri` (a redirect URI the client registered) sends the person back to.
pub fn destination(uri: &str) -> Destination {
    let Ok(url) = url::Url::parse(uri) else {
        return Destination::App {
            shown: uri.to_owned(),
            scheme: String::new(),
        };
    };
    let authority = |url: &url::Url| {
        let host = url.host_str().unwrap_or_default();
        match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    };
    match url.scheme() {
        // Plain http is allowed only to a loopback host.
        "http" if check_redirect_uri(uri).is_ok() => Destination::ThisComputer {
            shown: url.origin().ascii_serialization(),
        },
        "http" | "https" => Destination::Web {
            shown: url.origin().ascii_serialization(),
        },
        scheme => Destination::App {
            shown: match url.host_str() {
                Some(_) => format!("{scheme}://{}", authority(&url)),
                None => format!("{scheme}:"),
            },
            scheme: scheme.to_owned(),
        },
    }
}

/// Whether `requested` is the `registered` redirect URI: the same text, or, for an `http`
/// redirect to a loopback host (`127.0.0.1`, `[::1]`, `localhost`), the same but for the
/// port. A native app listens on a port the system gives it at that moment, so an
/// authorization server must let the port vary there (RFC 8252 §7.3, OAuth 2.1 §8.4.2):
/// Claude Code's document lists `http://localhost/callback` and it sends
/// `http://localhost:3118/callback`. The scheme, the host (a name stays a name, an address an
/// address), the path and the query match exactly; nothing else is a pattern.
pub fn same_redirect(registered: &str, requested: &str) -> bool {
    if registered == requested {
        return true;
    }
    let (Ok(registered), Ok(requested)) = (url::Url::parse(registered), url::Url::parse(requested))
    else {
        return false;
    };
    let loopback = |u: &url::Url| {
        u.scheme() == "http"
            && matches!(u.host_str(), Some("127.0.0.1" | "[::1]" | "localhost"))
            && u.username().is_empty()
            && u.password().is_none()
            && u.fragment().is_none()
    };
    loopback(&registered)
        && loopback(&requested)
        && registered.host_str() == requested.host_str()
        && registered.path() == requested.path()
        && registered.query() == requested.query()
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

/// Checks one redirect URI: absolute, no fragment, and one of the three kinds a client may be
/// sent back to (RFC 8252 §7, OAuth 2.1 §2.3.1): `https`; `http` only to a loopback host
/// (§7.3, native apps); or a private-use scheme of a native app (§7.1), which is no scheme
/// with a meaning of its own ([`is_private_use`]). Nothing else: not `ftp`, `ws`, `mailto`,
/// nor any scheme that runs or reads in the browser.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    if uri.len() > MAX_URI_CHARS {
        return Err(format!(
            "a redirect URI is longer than {MAX_URI_CHARS} characters"
        ));
    }
    // The URL parser would percent-encode them, but the URI is kept as sent (a NUL, which
    // PostgreSQL text cannot hold, among them): a 400, never a 500.
    if uri.chars().any(char::is_control) {
        return Err(format!("{uri:?} holds a control character"));
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
        scheme if is_private_use(scheme) => Ok(()),
        _ => Err(format!(
            "{uri:?}: a redirect URI is https, http to a loopback address, or an app's \
             private-use scheme (RFC 8252)"
        )),
    }
}

/// Schemes with a meaning of their own, registered (IANA's URI schemes) or given one by
/// browsers and systems: never an app's private-use scheme.
#[rustfmt::skip]
const NOT_PRIVATE_USE: &[&str] = &[
    "about", "acap", "acct", "afp", "blob", "chrome", "chrome-extension", "cid", "coap", "coaps",
    "content", "data", "dav", "dict", "dns", "edge", "facetime", "fax", "feed", "file",
    "filesystem", "ftp", "ftps", "geo", "git", "go", "gopher", "h323", "http", "https", "iax",
    "icap", "im", "imap", "imaps", "info", "intent", "ipp", "ipps", "irc", "ircs", "itms",
    "itms-apps", "jabber", "javascript", "ldap", "ldaps", "magnet", "mailto", "market", "mid",
    "mms", "moz-extension", "msrp", "msrps", "mtqp", "mupdate", "news", "nfs", "nntp", "pop",
    "pres", "resource", "rsync", "rtmp", "rtsp", "rtsps", "rtspu", "s3", "sftp", "shttp", "sieve",
    "sip", "sips", "skype", "smb", "sms", "snews", "snmp", "ssh", "stun", "stuns", "svn", "tag",
    "tel", "telnet", "tftp", "tip", "tn3270", "turn", "turns", "tv", "urn", "vbscript",
    "view-source", "vnc", "webcal", "ws", "wss", "xmpp", "z39.50r", "z39.50s",
];

/// Whether `scheme` (as `url` gives it: lowercase) can be a native app's private-use scheme
/// (RFC 8252 §7.1): RFC 8252 asks for a reverse domain name (`com.example.app`), and MCP
/// clients in wide use register single names (`cursor`, `vscode`); either is taken, unless it
/// names a scheme with a meaning of its own.
fn is_private_use(scheme: &str) -> bool {
    !NOT_PRIVATE_USE.contains(&scheme)
}

#[cfg(test)]
mod tests {
    use super::{Destination, Identity, destination, identity, same_redirect};

    #[test]
    fn a_document_client_is_its_host_and_a_redirect_keeps_its_scheme() {
        assert_eq!(
            identity("https://claude.ai/oauth/claude-code-client-metadata"),
            Identity::Document {
                host: "claude.ai".into()
            }
        );
        assert_eq!(
            identity("http://127.0.0.1:4000/client.json"),
            Identity::Document {
                host: "127.0.0.1:4000".into()
            }
        );
        assert_eq!(identity("n8v_cl_abc"), Identity::Registered);
        let shown = |uri| match destination(uri) {
            Destination::ThisComputer { shown } => format!("computer {shown}"),
            Destination::Web { shown } => format!("web {shown}"),
            Destination::App { shown, scheme } => format!("app {scheme} {shown}"),
        };
        assert_eq!(shown("myapp://claude.ai/cb"), "app myapp myapp://claude.ai");
        assert_eq!(
            shown("com.example.app:/oauth2redirect"),
            "app com.example.app com.example.app:"
        );
        assert_eq!(
            shown("https://claude.ai/api/mcp/auth_callback"),
            "web https://claude.ai"
        );
        assert_eq!(
            shown("http://localhost:3118/callback"),
            "computer http://localhost:3118"
        );
        assert_eq!(shown("http://[::1]:9/cb"), "computer http://[::1]:9");
    }

    #[test]
    fn only_a_loopback_redirects_port_varies() {
        for (registered, requested) in [
            (
                "http://localhost/callback",
                "http://localhost:3118/callback",
            ),
            (
                "http://127.0.0.1/callback",
                "http://127.0.0.1:46553/callback",
            ),
            (
                "http://127.0.0.1:8976/callback",
                "http://127.0.0.1:51234/callback",
            ),
            ("http://[::1]/cb", "http://[::1]:40001/cb"),
            ("https://app.example/cb", "https://app.example/cb"),
            ("myapp://cb", "myapp://cb"),
        ] {
            assert!(
                same_redirect(registered, requested),
                "{registered} {requested}"
            );
        }
        for (registered, requested) in [
            (
                "http://localhost/callback",
                "http://127.0.0.1:3118/callback",
            ),
            ("http://localhost/callback", "http://localhost:3118/other"),
            (
                "http://localhost/callback",
                "http://localhost:3118/callback?x=1",
            ),
            (
                "http://localhost/callback",
                "http://localhost:3118/callback#f",
            ),
            (
                "http://localhost/callback",
                "http://u@localhost:3118/callback",
            ),
            (
                "http://localhost/callback",
                "https://localhost:3118/callback",
            ),
            (
                "https://localhost/callback",
                "https://localhost:3118/callback",
            ),
            ("https://app.example/cb", "https://app.example:8443/cb"),
            ("http://127.0.0.2/cb", "http://127.0.0.2:9/cb"),
            (
                "http://localhost.example/cb",
                "http://localhost.example:9/cb",
            ),
        ] {
            assert!(
                !same_redirect(registered, requested),
                "{registered} {requested}"
            );
        }
    }
}
