"""End-to-end check with the official MCP Python SDK (PyPI `mcp`) as a real client.

Usage: python mcp_client.py <mcp url> <bearer token>
Exits non-zero (with an assertion message) when anything is off.
"""

import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

URL, TOKEN = sys.argv[1], sys.argv[2]


def data(result):
    assert not result.is_error, f"tool error: {result.content}"
    return result.structured_content


async def main() -> None:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}", "X-Assistant": "python-e2e"})
    async with http, Client(streamable_http_client(URL, http_client=http), mode="legacy") as client:
        tools = sorted(t.name for t in (await client.list_tools()).tools)
        for name in ["journal_catch_up", "session_start", "session_end", "journal_sessions",
                     "journal_session", "journal_entry", "record_list", "record_read", "record_append"]:
            assert name in tools, f"{name} missing from {tools}"

        started = await client.call_tool("session_start", {
            "goal": "Get the login fix ready for review", "purpose": "Open this conversation"})
        session = data(started)["id"]
        assert started.meta["n8v/session"] == session, started.meta

        records = await client.call_tool("record_list", {"session": session, "purpose": "Find my Record"})
        record = data(records)["records"][0]["id"]
        assert data(records)["session"] == session

        appended = await client.call_tool("record_append", {
            "record_id": record, "line": "Login fix merged",
            "session": session, "purpose": "Put the fix on record"})
        assert data(appended)["line"] == "Login fix merged"
        assert appended.meta["n8v/session"] == session

        read = data(await client.call_tool("journal_session", {
            "session_id": session, "session": session, "purpose": "Read the earlier actions"}))
        purposes = {a["operation"]: a.get("purpose") for a in read["actions"]}
        assert purposes.get("record_append") == "Put the fix on record", purposes
        assert read["session"]["assistant"] == "python-e2e", read["session"]

        ended = data(await client.call_tool("session_end", {
            "session": session, "outcome": "Fix ready for review; tests passed",
            "purpose": "Leave a handoff"}))
        assert ended["status"] == "closed"

        brief = await client.call_tool("journal_catch_up", {"since": session, "purpose": "Pick up where we stopped"})
        finished = [i["text"] for i in data(brief)["work_finished"]]
        assert "Fix ready for review; tests passed" in finished, finished
        assert brief.meta.get("n8v/session"), brief.meta

        # The SDK validated each structured content above against the tool's outputSchema;
        # every tool carries a title and annotations.
        listed = (await client.list_tools()).tools
        for tool in listed:
            assert tool.title and tool.annotations and tool.output_schema, tool
            assert tool.annotations.open_world_hint is False, tool
        # The brief and the loops name the catch-up's view (an MCP App), which needs no domain.
        views = {t.name: (t.meta or {}).get("ui", {}).get("resourceUri") for t in listed}
        app = "ui://n8v-journal/catch-up"
        assert {n for n, v in views.items() if v} == {"journal_catch_up", "journal_loops"}, views
        assert views["journal_catch_up"] == app, views
        resources = sorted(str(r.uri) for r in (await client.list_resources()).resources)
        assert resources == ["journal://brief", "journal://window", app], resources
        view = (await client.read_resource(app)).contents[0]
        assert view.mime_type == "text/html;profile=mcp-app", view.mime_type
        assert view.meta["ui"]["csp"]["connectDomains"] == [], view.meta
        templates = (await client.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["journal://sessions/{id}"], templates
        window = (await client.read_resource("journal://window")).contents[0]
        assert window.mime_type == "text/markdown", window
        assert "Get the login fix ready for review" in window.text, window.text
        one = (await client.read_resource(f"journal://sessions/{session}")).contents[0]
        assert session in one.text, one.text
        prompts = sorted(p.name for p in (await client.list_prompts()).prompts)
        assert prompts == ["catch_up", "hand_off"], prompts
        hand_off = await client.get_prompt("hand_off", {"session": session})
        assert "session_end" in hand_off.messages[0].content.text, hand_off
    print("python mcp e2e: ok")


anyio.run(main)
