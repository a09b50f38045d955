//! Discovery: the protected resource metadata of `/mcp` (RFC 9728) and the authorization
//! server metadata (RFC 8414), both built from the public URL (`N8V_PUBLIC_URL`), and the one
//! resource identifier tokens are issued for (RFC 8707).

use crate::config::Config;
use crate::scopes::Scope;
use serde_json::{Value, json};

pub const AUTHORIZE_PATH: &str = "/oauth/authorize";
pub const TOKEN_PATH: &str = "/oauth/token";
pub const REGISTER_PATH: &str = "/oauth/register";
pub const REVOKE_PATH: &str = "/oauth/revoke";
/// RFC 9728 §3.1: the well-known path with the resource's path (`/mcp`) appended.
pub const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

/// What an MCP client gets when it names no scope, and what the `401` challenge asks for: the
/// journal and the Records, read and write. Deleting (`chats:delete`) and everything else is
/// asked for by name; `account:delete` never comes by default.
pub const MCP_SCOPES: [Scope; 3] = [Scope::ChatsRead, Scope::RecordsRead, Scope::RecordsWrite];

/// The default scopes, space-separated as OAuth writes them.
pub fn mcp_scope_text() -> String {
    MCP_SCOPES.map(Scope::as_str).join(" ")
}

/// The URL of `/mcp`'s protected resource metadata, as the `401` challenge names it.
pub fn resource_metadata_url(config: &Config) -> String {
    format!("{}{RESOURCE_METADATA_PATH}", config.public_base())
}

/// RFC 9728 metadata of `/mcp` (served at the path-suffixed and the root well-known address).
pub fn protected_resource(config: &Config) -> Value {
    json!({
        "resource": config.mcp_resource(),
        "authorization_servers": [config.public_base()],
        "scopes_supported": MCP_SCOPES.map(Scope::as_str),
        "bearer_methods_supported": ["header"],
        "resource_name": "n8v journal",
        "resource_documentation": format!("{}/docs", config.public_base()),
    })
}

/// RFC 8414 metadata (also served as OpenID Connect discovery, which clients probe too).
pub fn authorization_server(config: &Config) -> Value {
    let base = config.public_base();
    json!({
        "issuer": base,
        "authorization_endpoint": format!("{base}{AUTHORIZE_PATH}"),
        "token_endpoint": format!("{base}{TOKEN_PATH}"),
        "registration_endpoint": format!("{base}{REGISTER_PATH}"),
        "revocation_endpoint": format!("{base}{REVOKE_PATH}"),
        "scopes_supported": Scope::ALL.map(Scope::as_str),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    })
}

/// The resource a client names (RFC 8707), as the one this service serves, or `None` for any
/// other. Scheme and host compare without case and a trailing `/` is ignored (the MCP
/// authorization specification asks servers to accept both); nothing else is normalised.
pub fn canonical_resource(given: &str, config: &Config) -> Option<String> {
    let ours = config.mcp_resource();
    let norm = |text: &str| -> Option<String> {
        let url = url::Url::parse(text).ok()?;
        if url.fragment().is_some() || url.query().is_some() {
            return None;
        }
        // `Url` lowercases scheme and host already.
        Some(url.as_str().trim_end_matches('/').to_owned())
    };
    (norm(given)? == norm(&ours)?).then_some(ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resource_is_recognised_in_its_spellings_only() {
        let mut config = Config::for_database("postgres://localhost/x");
        config.public_url = Some("https://journal.example.com".into());
        let ours = "https://journal.example.com/mcp";
        for spelling in [
            ours,
            "https://journal.example.com/mcp/",
            "HTTPS://Journal.Example.com/mcp",
        ] {
            assert_eq!(canonical_resource(spelling, &config).as_deref(), Some(ours));
        }
        for other in [
            "https://journal.example.com/",
            "https://journal.example.com/mcp2",
            "https://evil.example.com/mcp",
            "https://journal.example.com/mcp#x",
            "journal.example.com/mcp",
        ] {
            assert_eq!(canonical_resource(other, &config), None, "{other}");
        }
    }
}
