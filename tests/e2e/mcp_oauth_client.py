"""The official MCP Python SDK's OAuth client (`mcp.client.auth.OAuthClientProvider`) against
the journal, with nothing pasted into the client: it discovers the protected resource and the
authorization server from the 401, registers itself (RFC 7591), sends the person to the
authorization URL, exchanges the code with PKCE, and calls tools with the access token.

The person's part is played over HTTP on the journal's real pages: the authorization URL sends
them to the sign-in form, where they sign in with their API key, back to the consent page, where
they allow. Only the person holds the key; the client never sees it.

Usage: python mcp_oauth_client.py <mcp url> <the person's api key> <client name>
Prints one JSON line (what the Rust test checks further); exits non-zero when anything is off.
"""

import html
import json
import re
import sys
from urllib.parse import parse_qs, urlencode, urljoin, urlparse

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

URL, KEY, NAME = sys.argv[1], sys.argv[2], sys.argv[3]
BASE = f"{urlparse(URL).scheme}://{urlparse(URL).netloc}"
REDIRECT = "http://127.0.0.1:9/callback"
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class Memory:
    """Token storage for one run (the SDK's TokenStorage protocol)."""

    def __init__(self):
        self.tokens = None
        self.client = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def cookie(response, name):
    for header in response.headers.get_list("set-cookie"):
        if header.startswith(name + "="):
            return header.split(";", 1)[0]
    raise AssertionError(f"no {name} cookie in {response.status_code} {response.headers}")


def hidden(page, after=""):
    start = page.find(after) if after else 0
    assert start >= 0, f"{after!r} not on the page"
    return [(n, html.unescape(v)) for n, v in HIDDEN.findall(page[start:])]


redirected = {}
seen = {}


async def play_the_person(authorization_url: str) -> None:
    """What a person does in their browser with the authorization URL."""
    async with httpx2.AsyncClient(follow_redirects=False, headers={"Accept": "text/html"}) as browser:
        first = await browser.get(authorization_url)
        assert first.status_code == 303, f"not signed in: to the sign-in form ({first.status_code})"
        sign_in = await browser.get(urljoin(BASE, first.headers["location"]))
        assert sign_in.status_code == 200, sign_in.status_code
        fields = hidden(sign_in.text) + [("key", KEY)]
        signed = await browser.post(
            f"{BASE}/journal/sign-in",
            headers={**FORM, "Cookie": cookie(sign_in, "n8v_pre")},
            content=urlencode(fields),
        )
        assert signed.status_code == 303, f"sign-in: {signed.status_code} {signed.text[:300]}"
        session = cookie(signed, "n8v_journal")
        consent = await browser.get(urljoin(BASE, signed.headers["location"]), headers={"Cookie": session})
        assert consent.status_code == 200, consent.status_code
        assert NAME in consent.text, "the consent page names the client"
        seen["consent_names_redirect_host"] = "127.0.0.1" in consent.text
        fields = hidden(consent.text, 'action="/oauth/authorize"') + [("decision", "approve")]
        decided = await browser.post(
            f"{BASE}/oauth/authorize", headers={**FORM, "Cookie": session}, content=urlencode(fields)
        )
        assert decided.status_code == 303, f"consent: {decided.status_code} {decided.text[:300]}"
        location = decided.headers["location"]
        assert location.startswith(REDIRECT + "?"), location
        query = parse_qs(urlparse(location).query)
        redirected.update({k: v[0] for k, v in query.items()})


async def code() -> AuthorizationCodeResult:
    return AuthorizationCodeResult(code=redirected["code"], state=redirected.get("state"), iss=redirected.get("iss"))


def data(result):
    assert not result.is_error, f"tool error: {result.content}"
    return result.structured_content


async def main() -> None:
    storage = Memory()
    provider = OAuthClientProvider(
        server_url=URL,
        client_metadata=OAuthClientMetadata(
            client_name=NAME,
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=play_the_person,
        callback_handler=code,
    )
    http = httpx2.AsyncClient(auth=provider)
    async with http, Client(streamable_http_client(URL, http_client=http), mode="legacy") as client:
        tools = sorted(t.name for t in (await client.list_tools()).tools)
        assert "session_start" in tools and "journal_catch_up" in tools, tools
        started = await client.call_tool(
            "session_start", {"goal": "Connect without pasting a key", "purpose": "Open this conversation"}
        )
        session = data(started)["id"]
        read = data(
            await client.call_tool(
                "journal_session", {"session_id": session, "session": session, "purpose": "Check who I am"}
            )
        )
        brief = data(await client.call_tool("journal_catch_up", {"purpose": "Pick up where we stopped"}))
        assert "work_finished" in brief, brief
    assert storage.client is not None and storage.client.client_id, "registered"
    assert storage.tokens is not None and storage.tokens.refresh_token, "a refresh token was issued"
    print(
        json.dumps(
            {
                "session": session,
                "assistant": read["session"]["assistant"],
                "client_id": storage.client.client_id,
                "access_token": storage.tokens.access_token,
                "refresh_token": storage.tokens.refresh_token,
                "scope": storage.tokens.scope,
                "iss": redirected.get("iss"),
                **seen,
            }
        )
    )


anyio.run(main)
