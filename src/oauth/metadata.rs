//! Discovery: the protected resource metadata of `/mcp` (RFC 9728) and the authorization
//! server metadata (RFC 8414), both built from the address the client reached the service at
//! ([`Config::public_base`]: `N8V_PUBLIC_URL`, else the loopback name it used), and the one
//! resource identifier tokens are issued for (RFC 8707), whichever loopback name it was asked by.

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
        "resource": config.mcp_url(),
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
        "scopes_supported": Scope::GRANTABLE.map(Scope::as_str),
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

/// The resource a client names (RFC 8707), as the one this service serves (the one its
/// tokens are bound to, [`Config::mcp_resource`]), or `None` for any other. Scheme and host
/// compare without case and a trailing `/` is ignored (the MCP authorization specification asks
/// servers to accept both); nothing else is normalised. Without `N8V_PUBLIC_URL` on a loopback
/// bind, every loopback name of the listening port (`localhost`, `127.0.0.1`, `[::1]`) names
/// the same resource: they reach the same server, so a token asked for at one works at all.
pub fn canonical_resource(given: &str, config: &Config) -> Option<String> {
    let norm = |text: &str| -> Option<String> {
        let url = url::Url::parse(text).ok()?;
        if url.fragment().is_some() || url.query().is_some() {
            return None;
        }
        // `Url` lowercases scheme and host already.
        Some(url.as_str().trim_end_matches('/').to_owned())
    };
    let given = norm(given)?;
    config
        .own_bases()
        .iter()
        .any(|base| norm(&format!("{base}/mcp")).as_ref() == Some(&given))
        .then(|| config.mcp_resource())
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
        assert_eq!(
            canonical_resource("http://localhost:8080/mcp", &config),
            None,
            "with N8V_PUBLIC_URL, loopback names are other resources"
        );
    }

    #[test]
    fn every_loopback_name_of_the_port_is_the_one_resource_without_a_public_url() {
        let mut config = Config::for_database("postgres://localhost/x");
        config.bind = "127.0.0.1:8080".parse().unwrap();
        let ours = "http://127.0.0.1:8080/mcp";
        assert_eq!(config.mcp_resource(), ours);
        for spelling in [
            ours,
            "http://localhost:8080/mcp",
            "http://LOCALHOST:8080/mcp/",
            "http://[::1]:8080/mcp",
        ] {
            assert_eq!(
                canonical_resource(spelling, &config).as_deref(),
                Some(ours),
                "{spelling}"
            );
        }
        for other in [
            "http://localhost:8081/mcp",
            "http://evil.example.com:8080/mcp",
            "https://localhost:8080/mcp",
            "http://localhost:8080/",
        ] {
            assert_eq!(canonical_resource(other, &config), None, "{other}");
        }
        config.bind = "10.0.0.5:8080".parse().unwrap();
        assert_eq!(
            canonical_resource("http://localhost:8080/mcp", &config),
            None,
            "a bind that is not loopback answers for its own address only"
        );
    }
}
