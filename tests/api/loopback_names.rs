//! Issue 45, finding 2: without `N8V_PUBLIC_URL`, a service on loopback answers discovery for
//! the loopback name the client used (`localhost`, `127.0.0.1`, `[::1]` with the listening
//! port), so clients given `http://localhost:PORT/mcp` find the resource they were given; a
//! foreign `Host` (a rebound name) is never reflected. With `N8V_PUBLIC_URL` set, every answer
//! names it, and the `401` and `GET /` say that it is the URL to give clients. (The SDKs'
//! own runs at both names are `mcp_oauth`.)

use crate::common::{self, TestApp};
use reqwest::header::{HOST, WWW_AUTHENTICATE};
use serde_json::{Value, json};

fn port(app: &TestApp) -> u16 {
    url::Url::parse(&app.base).unwrap().port().unwrap()
}

/// `GET path` with `Host: host`, as JSON.
async fn get_as(app: &TestApp, host: &str, path: &str) -> Value {
    let response = app
        .http
        .get(app.url(path))
        .header(HOST, host)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path} as {host}");
    response.json().await.unwrap()
}

/// An unauthenticated `initialize` to `/mcp` with `Host: host`: its `WWW-Authenticate` and
/// its problem.
async fn challenge_as(app: &TestApp, host: &str) -> (String, Value) {
    let response = app
        .http
        .post(app.url("/mcp"))
        .header(HOST, host)
        .header("accept", "application/json, text/event-stream")
        .json(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"}}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401, "as {host}");
    // Answered before its body was read, the refusal closes the connection and says so.
    assert_eq!(response.headers()["connection"], "close");
    let challenge = response.headers()[WWW_AUTHENTICATE]
        .to_str()
        .unwrap()
        .to_owned();
    (challenge, response.json().await.unwrap())
}

/// What discovery says the service is, asked with `Host: host`: the resource and every URL a
/// client compares.
async fn assert_answers_as(app: &TestApp, host: &str, base: &str) {
    let resource = get_as(app, host, "/.well-known/oauth-protected-resource/mcp").await;
    assert_eq!(resource["resource"], format!("{base}/mcp"), "as {host}");
    assert_eq!(
        resource["authorization_servers"],
        json!([base]),
        "as {host}"
    );
    let root = get_as(app, host, "/.well-known/oauth-protected-resource").await;
    assert_eq!(root, resource);
    let server = get_as(app, host, "/.well-known/oauth-authorization-server").await;
    assert_eq!(server["issuer"], base, "as {host}");
    for endpoint in [
        "authorization_endpoint",
        "token_endpoint",
        "registration_endpoint",
        "revocation_endpoint",
    ] {
        assert!(
            server[endpoint]
                .as_str()
                .is_some_and(|e| e.starts_with(&format!("{base}/oauth/"))),
            "{endpoint} as {host}: {server}"
        );
    }
    let (challenge, _) = challenge_as(app, host).await;
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{base}/.well-known/oauth-protected-resource/mcp\""
        )),
        "as {host}: {challenge}"
    );
    let doors = get_as(app, host, "/").await;
    assert_eq!(doors["mcp_url"], format!("{base}/mcp"), "as {host}");
}

#[tokio::test]
async fn discovery_answers_for_the_loopback_name_the_client_used() {
    let app = common::spawn_app().await;
    let port = port(&app);
    for name in ["localhost", "127.0.0.1", "[::1]"] {
        let host = format!("{name}:{port}");
        assert_answers_as(&app, &host, &format!("http://{host}")).await;
    }
    assert_answers_as(
        &app,
        &format!("LocalHost:{port}"),
        &format!("http://localhost:{port}"),
    )
    .await;
}

#[tokio::test]
async fn a_foreign_name_or_port_is_answered_as_the_listening_address() {
    let app = common::spawn_app().await;
    let port = port(&app);
    // A page whose name was rebound to 127.0.0.1 learns nothing of its own name back, and
    // neither does a loopback name on another port (another service's).
    for host in [
        format!("evil.example.com:{port}"),
        format!("localhost.evil.example.com:{port}"),
        format!("localhost:{}", port.wrapping_add(1)),
    ] {
        assert_answers_as(&app, &host, &app.base).await;
    }
}

#[tokio::test]
async fn with_a_public_url_every_answer_names_it_and_says_to_give_it_to_clients() {
    let app = common::spawn_app_configured(|config| {
        config.public_url = Some("https://journal.example.com".into());
    })
    .await;
    let port = port(&app);
    let ours = "https://journal.example.com";
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        assert_answers_as(&app, &host, ours).await;
        let (_, problem) = challenge_as(&app, &host).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains("Give MCP clients the URL https://journal.example.com/mcp")
                && detail.contains("N8V_PUBLIC_URL"),
            "{detail}"
        );
        let doors = get_as(&app, &host, "/").await;
        let connect = doors["connect"].as_str().unwrap();
        assert!(
            connect
                .starts_with("Give MCP clients https://journal.example.com/mcp (N8V_PUBLIC_URL)"),
            "{connect}"
        );
    }
}

#[tokio::test]
async fn a_token_asked_for_at_one_loopback_name_is_bound_to_the_one_resource() {
    let app = common::spawn_app().await;
    let port = port(&app);
    let form = |resource: String| {
        [
            ("grant_type", "refresh_token".to_owned()),
            ("client_id", "nobody".to_owned()),
            ("refresh_token", "n8v_rt_unknown".to_owned()),
            ("resource", resource),
        ]
    };
    // Every loopback spelling of the port is this server's resource: the request gets as far as
    // the unknown refresh token (`invalid_grant`); another port or host is `invalid_target`.
    for (resource, error) in [
        (format!("http://localhost:{port}/mcp"), "invalid_grant"),
        (format!("http://[::1]:{port}/mcp"), "invalid_grant"),
        (format!("http://127.0.0.1:{port}/mcp"), "invalid_grant"),
        (
            format!("http://localhost:{}/mcp", port.wrapping_add(1)),
            "invalid_target",
        ),
        (
            format!("http://evil.example.com:{port}/mcp"),
            "invalid_target",
        ),
    ] {
        let response = app
            .http
            .post(app.url("/oauth/token"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(serde_urlencoded::to_string(form(resource.clone())).unwrap())
            .send()
            .await
            .unwrap();
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], error, "{resource}: {body}");
    }
}
