"""Checks the MCP client configurations in integrations/ against a live server, the way the
clients read them:

- claude-code/.mcp.json: `${VAR}` / `${VAR:-default}` expanded from the environment (as Claude
  Code does), then the `http` server's url and headers are used;
- codex/config.toml: `[mcp_servers.n8v]` url with the bearer token from the variable named by
  `bearer_token_env_var`, its `http_headers`, and the hooks feature switch the SessionStart hook
  (codex/hooks.json) needs.

For each, the official MCP Python SDK connects and lists the tools. Usage (from the repository):
    N8V_URL=http://127.0.0.1:PORT N8V_TOKEN=n8v_sk_... python integrations/check_configs.py
"""

import json
import os
import re
import sys
import tomllib
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent
TOOLS = {"journal_catch_up", "session_start", "session_end", "journal_sessions", "journal_session",
         "journal_entry", "record_list", "record_read", "record_append"}


def expand(text: str) -> str:
    """Claude Code's expansion in .mcp.json: ${VAR} and ${VAR:-default}; a missing variable
    without a default is an error."""

    def one(m: re.Match) -> str:
        name, default = m.group(1), m.group(3)
        value = os.environ.get(name)
        if value is None:
            if default is None:
                sys.exit(f".mcp.json needs ${name} in the environment")
            return default
        return value

    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}", one, text)


async def tools_at(url: str, headers: dict[str, str]) -> set[str]:
    http = httpx2.AsyncClient(headers=headers)
    async with http, Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
        return {t.name for t in (await client.list_tools()).tools}


def claude_code() -> tuple[str, dict[str, str]]:
    config = json.loads((HERE / "claude-code" / ".mcp.json").read_text())
    server = config["mcpServers"]["n8v"]
    assert server["type"] == "http", server
    return expand(server["url"]), {k: expand(v) for k, v in server["headers"].items()}


def codex() -> tuple[str, dict[str, str]]:
    config = tomllib.loads((HERE / "codex" / "config.toml").read_text())
    assert config["features"].get("codex_hooks") is True, "the hooks feature switch is off"
    hooks = json.loads((HERE / "codex" / "hooks.json").read_text())
    commands = [h["command"] for group in hooks["hooks"]["SessionStart"] for h in group["hooks"]]
    assert any("session-start.sh" in c for c in commands), commands
    server = config["mcp_servers"]["n8v"]
    token = os.environ[server["bearer_token_env_var"]]
    # The committed file points at the default local address; use the server under test.
    url = server["url"].replace("http://127.0.0.1:8080", os.environ.get("N8V_URL", "http://127.0.0.1:8080"))
    return url, {"Authorization": f"Bearer {token}", **server.get("http_headers", {})}


async def main() -> None:
    for name, (url, headers) in {"claude code": claude_code(), "codex": codex()}.items():
        tools = await tools_at(url, headers)
        missing = TOOLS - tools
        assert not missing, f"{name}: tools/list lacks {sorted(missing)}"
        print(f"integrations: the {name} configuration reaches {url} and lists {len(tools)} tools")


anyio.run(main)
