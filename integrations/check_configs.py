"""Checks the assistant configurations in integrations/.

`--formats` (no server; run by the tests, `tests/api/hooks.rs`): every file is checked against
the format its client documents, and for what the hooks must never do:

- claude-code/.claude-plugin/plugin.json, the plugin manifest (Claude Code's plugin manifest
  reference, code.claude.com/docs/en/plugins/manifest-reference): `name` in kebab-case, only the
  documented keys, an `author` object with a `name`, component paths starting with `./`;
- claude-code/.claude-plugin/marketplace.json, the local marketplace (the marketplace reference,
  code.claude.com/docs/en/plugins/marketplace-reference): `name` (not a reserved one), `owner`
  with a `name`, `plugins` whose `source` resolves from the marketplace root (the directory
  holding .claude-plugin/) to a plugin whose manifest has the entry's name;
- claude-code/hooks/hooks.json (the plugin's hooks) and claude-code/settings.json (the same
  hooks without the plugin), as Claude Code's hooks reference (code.claude.com/docs/en/hooks)
  has them: known events, matcher groups, `command` handlers with a positive `timeout`;
- codex/hooks.json, as Codex's hooks page (developers.openai.com/codex/hooks) has it;
- claude-code/.mcp.json: one `http` server `n8v`.
No hook command may use a path into this repository (`integrations/…`, `$CLAUDE_PROJECT_DIR`):
hooks run in every project.

Without flags (`.ci/live-check mcp`): the MCP configurations against a live server, read the way
the clients read them, and the official MCP Python SDK lists the tools through each:
- claude-code/.mcp.json: `${VAR}` / `${VAR:-default}` expanded from the environment (as Claude
  Code does), then the `http` server's url and headers are used;
- codex/config.toml: `[mcp_servers.n8v]` url with the bearer token from the variable named by
  `bearer_token_env_var`, its `http_headers`, and the hooks feature switch codex/hooks.json needs.
Usage (from the repository):
    python integrations/check_configs.py --formats [--root DIR]
    N8V_URL=http://127.0.0.1:PORT N8V_TOKEN=n8v_sk_... python integrations/check_configs.py
"""

import json
import os
import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOLS = {"journal_catch_up", "session_start", "session_end", "journal_sessions", "journal_session",
         "journal_entry", "record_list", "record_read", "record_append"}

KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MANIFEST_KEYS = {"$schema", "name", "version", "description", "author", "homepage", "repository",
                 "license", "keywords", "dependencies", "commands", "agents", "skills", "hooks",
                 "mcpServers", "outputStyles", "lspServers", "monitors", "userConfig", "channels"}
COMPONENT_PATHS = {"commands", "agents", "skills", "hooks", "mcpServers", "outputStyles",
                   "lspServers"}
RESERVED_MARKETPLACES = {"claude-code-marketplace", "claude-code-plugins", "claude-plugins-official",
                         "anthropic-marketplace", "anthropic-plugins", "agent-skills",
                         "anthropic-agent-skills", "claude-community", "claude-plugins-community"}
CLAUDE_EVENTS = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "Notification",
                 "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "StopFailure",
                 "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "PermissionRequest"}
CODEX_EVENTS = {"SessionStart", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact",
                "PostCompact", "UserPromptSubmit", "SubagentStop", "Stop"}
REPOSITORY_PATHS = re.compile(r"integrations/|\$CLAUDE_PROJECT_DIR|\$\{CLAUDE_PROJECT_DIR\}")


class Invalid(Exception):
    pass


def need(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise Invalid(f"{where}: {message}")


def load(path: Path) -> dict:
    try:
        value = json.loads(path.read_text())
    except FileNotFoundError:
        raise Invalid(f"{path}: missing")
    except json.JSONDecodeError as e:
        raise Invalid(f"{path}: not JSON ({e})")
    need(isinstance(value, dict), str(path), "not a JSON object")
    return value


def check_manifest(plugin_root: Path) -> dict:
    path = plugin_root / ".claude-plugin" / "plugin.json"
    manifest = load(path)
    where = str(path)
    need(isinstance(manifest.get("name"), str) and KEBAB.match(manifest["name"]) is not None,
         where, "`name` is required, in kebab-case (lowercase letters, digits, hyphens)")
    unknown = set(manifest) - MANIFEST_KEYS
    need(not unknown, where, f"keys the manifest reference does not document: {sorted(unknown)}")
    author = manifest.get("author")
    if author is not None:
        need(isinstance(author, dict) and isinstance(author.get("name"), str) and author["name"],
             where, "`author` is an object with a `name`")
    keywords = manifest.get("keywords", [])
    need(isinstance(keywords, list) and all(isinstance(k, str) for k in keywords), where,
         "`keywords` is a list of strings")
    for key in ("version", "description", "homepage", "repository", "license"):
        need(key not in manifest or isinstance(manifest[key], str), where, f"`{key}` is a string")
    for key in COMPONENT_PATHS & set(manifest):
        paths = manifest[key] if isinstance(manifest[key], list) else [manifest[key]]
        for p in paths:
            if isinstance(p, str):
                need(p.startswith("./"), where, f"`{key}` path {p!r} must start with ./")
                need((plugin_root / p).exists(), where, f"`{key}` path {p!r} does not exist")
    # Components live at the plugin root, never inside .claude-plugin/.
    extra = {p.name for p in (plugin_root / ".claude-plugin").iterdir()} - {"plugin.json",
                                                                            "marketplace.json"}
    need(not extra, where, f".claude-plugin/ holds only the manifest (and a marketplace): {extra}")
    return manifest


def check_marketplace(root: Path) -> None:
    path = root / ".claude-plugin" / "marketplace.json"
    market = load(path)
    where = str(path)
    name = market.get("name")
    need(isinstance(name, str) and KEBAB.match(name) is not None, where,
         "`name` is required, in kebab-case")
    need(name not in RESERVED_MARKETPLACES, where, f"`{name}` is a reserved marketplace name")
    owner = market.get("owner")
    need(isinstance(owner, dict) and isinstance(owner.get("name"), str) and owner["name"], where,
         "`owner` is required: an object with a `name`")
    plugins = market.get("plugins")
    need(isinstance(plugins, list) and plugins, where, "`plugins` is a non-empty list")
    for entry in plugins:
        need(isinstance(entry, dict), where, "each plugin entry is an object")
        need(isinstance(entry.get("name"), str) and KEBAB.match(entry["name"]) is not None, where,
             "each plugin entry has a kebab-case `name`")
        source = entry.get("source")
        need(isinstance(source, (str, dict)), where, f"plugin {entry['name']}: `source` is required")
        if isinstance(source, str):
            need(source.startswith("./"), where, f"a relative `source` starts with ./: {source!r}")
            plugin_root = (root / source).resolve()
            need(plugin_root.is_relative_to(root.resolve()), where,
                 f"`source` {source!r} leaves the marketplace root")
            manifest = check_manifest(plugin_root)
            need(manifest["name"] == entry["name"], where,
                 f"the entry `{entry['name']}` names the plugin `{manifest['name']}`")


def check_hooks(path: Path, events: set[str], plugin_root: Path | None = None) -> dict:
    config = load(path)
    where = str(path)
    need(set(config) <= {"hooks", "description"}, where, "only `hooks` (and `description`)")
    hooks = config.get("hooks")
    need(isinstance(hooks, dict) and hooks, where, "`hooks` maps events to matcher groups")
    for event, groups in hooks.items():
        need(event in events, where, f"no hook event {event!r}")
        need(isinstance(groups, list) and groups, where, f"{event}: a list of matcher groups")
        for group in groups:
            need(isinstance(group, dict) and set(group) <= {"matcher", "hooks"}, where,
                 f"{event}: a group has `hooks` and an optional `matcher`")
            need("matcher" not in group or isinstance(group["matcher"], str), where,
                 f"{event}: `matcher` is a string")
            handlers = group.get("hooks")
            need(isinstance(handlers, list) and handlers, where, f"{event}: a list of handlers")
            for h in handlers:
                need(isinstance(h, dict) and h.get("type") == "command"
                     and isinstance(h.get("command"), str) and h["command"].strip(), where,
                     f"{event}: a handler is {{\"type\": \"command\", \"command\": …}}")
                timeout = h.get("timeout", 1)
                need(isinstance(timeout, (int, float)) and timeout > 0, where,
                     f"{event}: `timeout` is a positive number of seconds")
                command = h["command"]
                need(not REPOSITORY_PATHS.search(command), where,
                     f"{event}: {command!r} uses a path into this repository")
                if plugin_root is not None and "${CLAUDE_PLUGIN_ROOT}" in command:
                    script = re.search(r"\$\{CLAUDE_PLUGIN_ROOT\}/([^\"' ]+)", command)
                    need(script is not None and (plugin_root / script.group(1)).is_file(), where,
                         f"{event}: {command!r} runs a file the plugin does not have")
    return hooks


def check_mcp(path: Path) -> None:
    config = load(path)
    server = config.get("mcpServers", {}).get("n8v")
    need(isinstance(server, dict), str(path), "`mcpServers.n8v` is the journal's server")
    need(server.get("type") == "http" and "/mcp" in server.get("url", ""), str(path),
         "an `http` server at …/mcp")


def formats(root: Path) -> None:
    plugin = root / "claude-code"
    check_marketplace(plugin)
    check_manifest(plugin)
    check_mcp(plugin / ".mcp.json")
    hooks = check_hooks(plugin / "hooks" / "hooks.json", CLAUDE_EVENTS, plugin)
    need({"SessionStart", "PreCompact", "SessionEnd"} <= set(hooks), "plugin hooks",
         "SessionStart, PreCompact and SessionEnd")
    check_hooks(plugin / "settings.json", CLAUDE_EVENTS)
    codex = check_hooks(root / "codex" / "hooks.json", CODEX_EVENTS)
    need({"SessionStart", "Stop"} <= set(codex), "codex hooks", "SessionStart and Stop")
    config = tomllib.loads((root / "codex" / "config.toml").read_text())
    need(config.get("features", {}).get("codex_hooks") is True, "codex/config.toml",
         "the hooks feature switch is off")
    print(f"integrations: the plugin, its marketplace and the hooks in {root} have their formats")


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
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

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
    assert any("hook session-start" in c for c in commands), commands
    server = config["mcp_servers"]["n8v"]
    token = os.environ[server["bearer_token_env_var"]]
    # The committed file points at the default local address; use the server under test.
    url = server["url"].replace("http://127.0.0.1:8080", os.environ.get("N8V_URL", "http://127.0.0.1:8080"))
    return url, {"Authorization": f"Bearer {token}", **server.get("http_headers", {})}


async def live() -> None:
    for name, (url, headers) in {"claude code": claude_code(), "codex": codex()}.items():
        tools = await tools_at(url, headers)
        missing = TOOLS - tools
        assert not missing, f"{name}: tools/list lacks {sorted(missing)}"
        print(f"integrations: the {name} configuration reaches {url} and lists {len(tools)} tools")


if __name__ == "__main__":
    args = sys.argv[1:]
    root = Path(args[args.index("--root") + 1]) if "--root" in args else HERE
    try:
        formats(root)
    except Invalid as e:
        sys.exit(f"integrations: {e}")
    if "--formats" not in args:
        import anyio

        anyio.run(live)
