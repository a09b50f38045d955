"""Turns a CLI's capture (capture_proxy.py's JSON lines) into its fixture in
tests/fixtures/oauth_clis/ (replayed by tests/api/oauth_clis.rs), with no secret in it: the
code, verifier, challenge and state become placeholders, and so do the client_id and resource
the replay fills in; no answer body (the tokens) is kept.

Usage: python3 fixture.py NAME VERSION DOCUMENT_JSON AUTH_CAPTURE MCP_CAPTURE OUT
"""

import json
import re
import sys
from urllib.parse import parse_qsl, urlsplit

# The request headers the replay sends as the client did (never Authorization or Cookie).
KEPT_HEADERS = {"accept", "content-type", "user-agent", "mcp-protocol-version", "mcp-method"}
PLACEHOLDERS = {"code_challenge", "state", "code", "code_verifier", "client_id", "resource"}


def records(path):
    return [json.loads(line) for line in open(path)]


def headers(record):
    return [[k, v] for k, v in record["headers"] if k.lower() in KEPT_HEADERS]


def pairs(query):
    return [[k, f"{{{k}}}" if k in PLACEHOLDERS else v]
            for k, v in parse_qsl(query, keep_blank_values=True)]


def main():
    name, version, document, auth_capture, mcp_capture, out = sys.argv[1:7]
    auth = records(auth_capture)
    authorize = next(r for r in auth if r["target"].startswith("/oauth/authorize?"))
    token = next(r for r in auth if r["target"] == "/oauth/token")
    client_id = dict(parse_qsl(urlsplit(authorize["target"]).query))["client_id"]
    mcp = [r for r in records(mcp_capture) if r["method"] == "POST" and r["target"] == "/mcp"]
    fixture = {
        "client": name,
        "version": version,
        "captured": "by .ci/oauth-clis: the CLI's own requests to a local `n8v-journal serve` "
                    "through a logging proxy, the person's part played over HTTP; the code, "
                    "verifier, challenge and state replaced by placeholders, no token kept",
        "client_id": client_id,
        "document_source": "the document the client_id names, as its publisher serves it "
                           "(redirect_uris and auth method as publicly reported; not fetched "
                           "here, the machine has no network); the test serves a copy from "
                           "loopback under a loopback client_id",
        "document": json.loads(document),
        "discovery": list(dict.fromkeys(
            f'{r["method"]} {r["target"]} {r["status"]}' for r in auth
            if r["target"].startswith("/.well-known") or r["target"] == "/mcp")),
        "authorization_request": pairs(urlsplit(authorize["target"]).query),
        "token_request": {"headers": headers(token), "form": pairs(token["body"])},
        "mcp_requests": [{"headers": headers(r), "body": json.loads(r["body"])} for r in mcp],
    }
    text = json.dumps(fixture, indent=2)
    # A [name, value] pair on one line.
    text = re.sub(r'\[\n\s+("(?:[^"\\]|\\.)*"),\n\s+("(?:[^"\\]|\\.)*")\n\s+\]', r"[\1, \2]", text)
    open(out, "w").write(text + "\n")


if __name__ == "__main__":
    main()
