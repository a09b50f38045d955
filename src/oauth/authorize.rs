//! The authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707) and its rules, checked here
//! in two steps, as the consent page meets them: first the client and its redirect URI (before
//! the person signs in: until both are known good, a problem is told to the person, never sent
//! to a redirect URI that could be anyone's), then the rest against the key the person signed
//! in with (`response_type`, PKCE, `resource`, the scopes). Only a [`Checked`] request can be
//! approved ([`super::grants::approve`], which checks it once more as it makes the grant), and
//! only [`Addressed::check`] makes one. The page renders and posts; it decides nothing.

mod unaddressed;

pub use unaddressed::Unaddressed;

use super::client::{Client, same_redirect};
use super::documents::{Asker, BudgetSpent, Unreachable};
use super::metadata::{self, MCP_SCOPES};
use super::{registry, tokens};
use crate::config::Config;
use crate::db::{Db, Tenant};
use crate::scopes::{Scope, Scopes};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The authorization request's parameters, as the query of `GET /oauth/authorize` and again,
/// as hidden fields, in the consent form.
#[derive(Debug, Default, Deserialize, Serialize, Clone)]
pub struct AuthorizeRequest {
    #[serde(default)]
    pub response_type: String,
    #[serde(default)]
    pub client_id: String,
    pub redirect_uri: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    #[serde(default)]
    pub code_challenge: String,
    pub code_challenge_method: Option<String>,
    pub resource: Option<String>,
}

/// Why a request is refused, which decides where the refusal goes.
#[derive(Debug)]
pub enum Refusal {
    /// The client or its redirect URI is not known good: the person is told on a page (the
    /// client when it is known, what went wrong and what to do), and nothing goes to the
    /// redirect URI.
    Unaddressed(Box<Unaddressed>),
    /// The client's metadata document would be fetched, and the asking address's fetch budget
    /// is spent: the person is told on a page (`429`) when to try again.
    Busy { text: String, retry_after_secs: u64 },
    /// Finding the client failed (a server fault); the cause is for the log only.
    Fault(anyhow::Error),
    /// The client and its redirect URI are good: the error goes back to the client.
    ToClient(Reply),
}

/// An answer sent back to the client at its (checked) redirect URI: a code or an error, with
/// the request's `state` and, when it is sent, the issuer (RFC 9207).
#[derive(Debug)]
pub struct Reply {
    redirect_uri: String,
    state: Option<String>,
    params: Vec<(&'static str, String)>,
}

impl Reply {
    fn error(redirect_uri: &str, state: Option<&str>, error: &str, description: &str) -> Self {
        Self {
            redirect_uri: redirect_uri.to_owned(),
            state: state.map(str::to_owned),
            params: vec![
                ("error", error.to_owned()),
                ("error_description", description.to_owned()),
            ],
        }
    }

    /// Where the browser is sent: the redirect URI with the answer, `state` and `iss`; `None`
    /// when the redirect URI is not a URL.
    pub fn location(&self, issuer: &str) -> Option<url::Url> {
        let mut url = url::Url::parse(&self.redirect_uri).ok()?;
        {
            let mut query = url.query_pairs_mut();
            for (k, v) in &self.params {
                query.append_pair(k, v);
            }
            if let Some(state) = &self.state {
                query.append_pair("state", state);
            }
            query.append_pair("iss", issuer);
        }
        Some(url)
    }
}

impl AuthorizeRequest {
    /// The first step: the client the request names (registered, or its metadata document)
    /// and the redirect URI it gave, registered exactly (or the only one, when it gave none).
    /// A document not stored is fetched on `asker`'s budget.
    #[tracing::instrument(skip_all)]
    pub async fn address(
        self,
        db: &Db,
        config: &Config,
        now: DateTime<Utc>,
        asker: Asker<'_>,
    ) -> Result<Addressed, Refusal> {
        if self.client_id.is_empty() {
            return Err(unaddressed(Unaddressed::no_client_id()));
        }
        let client = match registry::find(db, config, &self.client_id, now, asker).await {
            Ok(Some(client)) => client,
            Ok(None) => {
                let hours = config.oauth.unused_client_ttl.as_secs() / 3600;
                return Err(unaddressed(Unaddressed::unknown_client(
                    &self.client_id,
                    hours,
                )));
            }
            Err(e) if e.status == 429 => {
                let retry_after_secs = e
                    .cause
                    .as_ref()
                    .and_then(|c| c.downcast_ref::<BudgetSpent>())
                    .map_or(60, |spent| spent.0);
                return Err(Refusal::Busy {
                    text: e.description,
                    retry_after_secs,
                });
            }
            Err(e) if e.status >= 500 => {
                return Err(Refusal::Fault(
                    e.cause
                        .unwrap_or_else(|| anyhow::anyhow!("finding the client")),
                ));
            }
            Err(e) if e.cause.as_ref().is_some_and(|c| c.is::<Unreachable>()) => {
                return Err(unaddressed(Unaddressed::unreachable_document(
                    &self.client_id,
                    &e.description,
                )));
            }
            Err(e) => {
                return Err(unaddressed(Unaddressed::unusable_client(
                    &self.client_id,
                    &e.description,
                )));
            }
        };
        let redirect_uri = match &self.redirect_uri {
            Some(uri) => uri.clone(),
            None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
            None => return Err(unaddressed(Unaddressed::no_redirect_uri(client))),
        };
        if !client.allows_redirect(&redirect_uri) {
            let listed = client
                .redirect_uris
                .iter()
                .any(|r| same_redirect(r, &redirect_uri));
            return Err(unaddressed(Unaddressed::redirect_refused(
                client,
                &redirect_uri,
                listed,
            )));
        }
        Ok(Addressed {
            request: self,
            client,
            redirect_uri,
        })
    }
}

fn unaddressed(why: Unaddressed) -> Refusal {
    Refusal::Unaddressed(Box::new(why))
}

/// A request whose client and redirect URI are known good: from here on a refusal goes back
/// to the client.
#[derive(Debug)]
pub struct Addressed {
    request: AuthorizeRequest,
    client: Client,
    redirect_uri: String,
}

impl Addressed {
    /// The second step: the rest of the request, against the key that would approve it (its
    /// scopes are the ceiling; the grant gets what was asked and the key holds).
    pub fn check(self, config: &Config, approver: &Tenant) -> Result<Checked, Refusal> {
        match self.check_params(config, &approver.scopes) {
            Ok((granted, withheld, resource)) => Ok(Checked {
                approver: approver.clone(),
                granted,
                withheld,
                resource,
                addressed: self,
            }),
            Err((error, description)) => {
                Err(Refusal::ToClient(self.reply_error(error, &description)))
            }
        }
    }

    fn reply_error(&self, error: &str, description: &str) -> Reply {
        Reply::error(
            &self.redirect_uri,
            self.request.state.as_deref(),
            error,
            description,
        )
    }

    /// The granted and withheld scopes and the resource; `Err` is the OAuth error and its text.
    fn check_params(
        &self,
        config: &Config,
        held: &Scopes,
    ) -> Result<(Scopes, Scopes, String), (&'static str, String)> {
        let request = &self.request;
        let fail = |error: &'static str, description: &str| (error, description.to_owned());
        if request.response_type != "code" {
            return Err(fail(
                "unsupported_response_type",
                "only response_type=code is supported",
            ));
        }
        if request.code_challenge_method.as_deref() != Some("S256") {
            return Err(fail(
                "invalid_request",
                "PKCE is required, with code_challenge_method=S256",
            ));
        }
        if !tokens::challenge_well_formed(&request.code_challenge) {
            return Err(fail(
                "invalid_request",
                "code_challenge must be an S256 challenge (43 base64url characters)",
            ));
        }
        let resource = match &request.resource {
            None => config.mcp_resource(),
            Some(given) => metadata::canonical_resource(given, config).ok_or_else(|| {
                fail(
                    "invalid_target",
                    "resource must be this server's MCP endpoint",
                )
            })?,
        };
        let asked = match request
            .scope
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None => Scopes::from_names(MCP_SCOPES.map(|s| s.as_str())).unwrap_or_default(),
            Some(text) => Scopes::parse(text).map_err(|e| fail("invalid_scope", &e))?,
        };
        if asked.contains(Scope::ChatsRelease) {
            return Err(fail(
                "invalid_scope",
                "chats:release is the person's own: no OAuth grant carries it (a key made with \
                 it holds it, for the journal pages); ask without it",
            ));
        }
        let granted = asked.intersection(held);
        if granted.is_empty() {
            return Err(fail(
                "invalid_scope",
                "the signed-in key holds none of the scopes asked for",
            ));
        }
        let withheld = Scopes::from_names(
            asked
                .names()
                .iter()
                .filter(|n| !granted.names().contains(n))
                .map(String::as_str),
        )
        .unwrap_or_default();
        Ok((granted, withheld, resource))
    }
}

/// A request checked in both steps against the key that would approve it: what the consent
/// page shows, and the only thing a grant is made from.
#[derive(Debug)]
pub struct Checked {
    addressed: Addressed,
    /// The signed-in credential that would approve: its scopes and repository are the ceiling.
    approver: Tenant,
    granted: Scopes,
    /// Asked for, but the approver does not hold them.
    withheld: Scopes,
    /// The resource the tokens are for, canonical.
    resource: String,
}

impl Checked {
    pub fn client(&self) -> &Client {
        &self.addressed.client
    }

    pub fn redirect_uri(&self) -> &str {
        &self.addressed.redirect_uri
    }

    pub(super) fn approver(&self) -> &Tenant {
        &self.approver
    }

    pub fn granted(&self) -> &Scopes {
        &self.granted
    }

    pub fn withheld(&self) -> &Scopes {
        &self.withheld
    }

    pub(super) fn resource(&self) -> &str {
        &self.resource
    }

    /// Whether the request named its redirect URI (else it is the client's only one): the
    /// code's exchange must then name it too (OAuth 2.1 §4.1.3).
    pub(super) fn redirect_uri_named(&self) -> bool {
        self.addressed.request.redirect_uri.is_some()
    }

    pub(super) fn code_challenge(&self) -> &str {
        &self.addressed.request.code_challenge
    }

    /// The request's parameters as the consent form carries them back: as they were given
    /// (a redirect URI it did not name stays unnamed, so the grant knows it was not).
    pub fn form_fields(&self) -> BTreeMap<String, String> {
        let mut fields = BTreeMap::new();
        if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(&self.addressed.request) {
            for (name, value) in map {
                if let serde_json::Value::String(text) = value {
                    fields.insert(name, text);
                }
            }
        }
        fields
    }

    /// The answer when the person denies the request.
    pub fn denied(&self) -> Reply {
        self.addressed
            .reply_error("access_denied", "the person denied the request")
    }

    /// The answer when the grant could not be made (a server fault).
    pub fn failed(&self) -> Reply {
        self.addressed
            .reply_error("server_error", "the grant could not be made; try again")
    }

    /// The answer carrying a fresh authorization code.
    pub(super) fn code(&self, code: String) -> Reply {
        Reply {
            redirect_uri: self.addressed.redirect_uri.clone(),
            state: self.addressed.request.state.clone(),
            params: vec![("code", code)],
        }
    }

    /// The request checked once more as the grant is made (as workers-oauth-provider's
    /// `completeAuthorization` does): the client still registers the redirect URI, the PKCE
    /// challenge is an S256 one, the resource is ours, and the scopes are some and within the
    /// approver's. `Err` names the rule that failed; it means a bug, never a client's fault.
    pub(super) fn recheck(&self, config: &Config) -> Result<(), &'static str> {
        if !self.client().allows_redirect(self.redirect_uri()) {
            return Err("the redirect URI is not the client's");
        }
        if !tokens::challenge_well_formed(self.code_challenge()) {
            return Err("the code challenge is not an S256 challenge");
        }
        if metadata::canonical_resource(&self.resource, config).as_deref() != Some(&self.resource) {
            return Err("the resource is not this server's");
        }
        if self.granted.is_empty() || !self.granted.is_subset_of(&self.approver.scopes) {
            return Err("the scopes are not within the approver's");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn addressed(request: AuthorizeRequest) -> Addressed {
        let redirect_uri = "http://127.0.0.1:9/callback".to_owned();
        Addressed {
            request,
            client: Client {
                client_id: "n8v_cl_x".into(),
                client_name: "Tool".into(),
                redirect_uris: vec![redirect_uri.clone()],
            },
            redirect_uri,
        }
    }

    fn request() -> AuthorizeRequest {
        AuthorizeRequest {
            response_type: "code".into(),
            client_id: "n8v_cl_x".into(),
            scope: Some("chats:read records:write".into()),
            state: Some("s".into()),
            code_challenge: CHALLENGE.into(),
            code_challenge_method: Some("S256".into()),
            ..Default::default()
        }
    }

    fn approver(scopes: &str) -> Tenant {
        Tenant {
            scopes: Scopes::parse(scopes).unwrap(),
            credential_id: Some(uuid::Uuid::nil()),
            ..Tenant::account(uuid::Uuid::nil())
        }
    }

    fn refused_with(request: AuthorizeRequest, held: &str) -> String {
        let config = Config::for_database("postgres://localhost/x");
        match addressed(request).check(&config, &approver(held)) {
            Err(Refusal::ToClient(reply)) => reply.params[0].1.clone(),
            other => panic!("not refused to the client: {other:?}"),
        }
    }

    #[test]
    fn a_request_is_checked_against_the_approvers_scopes() {
        let config = Config::for_database("postgres://localhost/x");
        let checked = addressed(request())
            .check(&config, &approver("chats:read records:read"))
            .unwrap();
        assert_eq!(checked.granted().names(), ["chats:read"]);
        assert_eq!(checked.withheld().names(), ["records:write"]);
        assert_eq!(checked.resource(), config.mcp_resource());
        assert_eq!(checked.recheck(&config), Ok(()));
        let fields = checked.form_fields();
        assert_eq!(fields["scope"], "chats:read records:write");
        assert!(!fields.contains_key("resource"));
        // Not named, it stays unnamed (and the exchange may leave it out).
        assert!(!fields.contains_key("redirect_uri"));
        assert!(!checked.redirect_uri_named());
        let location = checked.denied().location("https://issuer").unwrap();
        assert_eq!(
            location.as_str(),
            "http://127.0.0.1:9/callback?error=access_denied&\
             error_description=the+person+denied+the+request&state=s&iss=https%3A%2F%2Fissuer"
        );
    }

    #[test]
    fn each_rule_refuses_with_its_error() {
        let held = "chats:read";
        type Spoil = fn(&mut AuthorizeRequest);
        let rules: [(Spoil, &str); 5] = [
            (
                |r| r.response_type = "token".into(),
                "unsupported_response_type",
            ),
            (
                |r| r.code_challenge_method = Some("plain".into()),
                "invalid_request",
            ),
            (|r| r.code_challenge = "short".into(), "invalid_request"),
            (
                |r| r.resource = Some("https://elsewhere.example.com/mcp".into()),
                "invalid_target",
            ),
            (|r| r.scope = Some("records:read".into()), "invalid_scope"),
        ];
        for (spoil, error) in rules {
            let mut r = request();
            spoil(&mut r);
            assert_eq!(refused_with(r, held), error);
        }
    }

    #[test]
    fn the_grant_is_checked_again_as_it_is_made() {
        let config = Config::for_database("postgres://localhost/x");
        let mut checked = addressed(request())
            .check(&config, &approver("chats:read"))
            .unwrap();
        checked.granted = Scopes::parse("chats:read records:write").unwrap();
        assert!(
            checked.recheck(&config).is_err(),
            "more than the approver holds"
        );
        checked.granted = Scopes::parse("chats:read").unwrap();
        checked.addressed.redirect_uri = "http://127.0.0.1:9/other".into();
        assert!(
            checked.recheck(&config).is_err(),
            "a redirect URI not the client's"
        );
    }
}
