//! Why a request's client or redirect URI is not known good, as the person reads it on the
//! error page (nothing goes to the redirect URI then): the client, when it is known, what went
//! wrong, and what to do about it, with whose fix it is. A person who followed an assistant's
//! link can rarely mend it: most of these are the client's to fix, and the page says so.

use crate::oauth::client::{Client, is_document_id};

/// A request refused before its client and redirect URI were known good.
#[derive(Debug)]
pub struct Unaddressed {
    /// The `client_id` the request named (empty when it named none).
    pub client_id: String,
    /// The client, when it was found (its redirect URI is then the problem).
    pub client: Option<Client>,
    /// What went wrong, in a sentence.
    pub problem: String,
    /// What to do about it, and whose fix it is.
    pub remedy: String,
    /// The redirect URI the request sent, when it is the problem (the client's registered
    /// ones are `client`'s).
    pub sent_redirect: Option<String>,
}

/// The remedy when the fix is in the client's redirect URIs.
fn fix_the_redirects(client_id: &str) -> String {
    let how = if is_document_id(client_id) {
        "its metadata document must list the redirect URI it sends"
    } else {
        "it must send one of the redirect URIs it registered, or register again with this one"
    };
    format!(
        "The fix is in the client's configuration ({how}); nothing on this page or in your \
         account can change it. Tell whoever makes or set up the assistant."
    )
}

impl Unaddressed {
    pub(super) fn no_client_id() -> Self {
        Self {
            client_id: String::new(),
            client: None,
            problem: "The authorization request names no client_id, so there is no telling \
                      which assistant sent you here."
                .into(),
            remedy: "Start connecting again from the assistant. If this page comes back, the \
                     assistant's OAuth client is at fault: it must send its client_id."
                .into(),
            sent_redirect: None,
        }
    }

    pub(super) fn unknown_client(client_id: &str, registration_hours: u64) -> Self {
        Self {
            client_id: client_id.to_owned(),
            client: None,
            problem: format!(
                "This client is not registered here, or its registration expired (a \
                 registration no connection was approved for lasts {registration_hours} hours)."
            ),
            remedy: "Start connecting again from the assistant, so that it registers anew. If \
                     it keeps using an old client id, remove this server from the assistant and \
                     add it again."
                .into(),
            sent_redirect: None,
        }
    }

    pub(super) fn unusable_client(client_id: &str, description: &str) -> Self {
        let remedy = if is_document_id(client_id) {
            "The fix is in the client's metadata document (at its client_id URL), which its \
             publisher must correct; nothing on this page or in your account can. Tell whoever \
             makes the assistant."
                .to_owned()
        } else {
            "Start connecting again from the assistant; if this page comes back, tell whoever \
             makes the assistant."
                .to_owned()
        };
        Self {
            client_id: client_id.to_owned(),
            client: None,
            problem: format!("The client cannot be used: {description}."),
            remedy,
            sent_redirect: None,
        }
    }

    /// This server could not fetch the client's metadata document: the document may be fine,
    /// and the fix is this server's reach, or another way to sign in.
    pub(super) fn unreachable_document(client_id: &str, description: &str) -> Self {
        let host = url::Url::parse(client_id)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_else(|| client_id.to_owned());
        Self {
            client_id: client_id.to_owned(),
            client: None,
            problem: format!(
                "The assistant names itself by a metadata document (its client_id URL), and \
                 {description}. The document is probably fine: this server has no route to \
                 {host} (a server inside a private network, or one whose DNS fails, has none)."
            ),
            remedy: format!(
                "Whoever runs this server can let it reach {host}. Or sign in by registration \
                 instead of the document: with Codex, `codex mcp login <server> \
                 --oauth-client-registration dcr`; with Claude Code, register a client at \
                 /oauth/register and add the server with `claude mcp add --client-id \
                 <its client_id>`."
            ),
            sent_redirect: None,
        }
    }

    pub(super) fn no_redirect_uri(client: Client) -> Self {
        Self {
            client_id: client.client_id.clone(),
            problem: format!(
                "The authorization request names no redirect_uri, and the client registered \
                 {} redirect URIs, so there is no telling where to send you back.",
                client.redirect_uris.len()
            ),
            remedy: fix_the_redirects(&client.client_id),
            client: Some(client),
            sent_redirect: None,
        }
    }

    /// `sent` matches none of the client's redirect URIs (`listed`: it matches one, which a
    /// rule added since refuses).
    pub(super) fn redirect_refused(client: Client, sent: &str, listed: bool) -> Self {
        let problem = if listed {
            "The redirect_uri this request sent is one the client registered, but redirect \
             URIs like it are no longer allowed (https, http to this computer, or an app's \
             own scheme)."
                .to_owned()
        } else {
            "The redirect_uri this request sent is not one the client registered (they must \
             match exactly; only a loopback http redirect may name another port)."
                .to_owned()
        };
        Self {
            client_id: client.client_id.clone(),
            problem,
            remedy: fix_the_redirects(&client.client_id),
            client: Some(client),
            sent_redirect: Some(sent.to_owned()),
        }
    }
}
