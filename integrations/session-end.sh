#!/usr/bin/env sh
# Posts the conversation that just ended to the journal as an episode (POST
# /api/v1/journal/episodes, through `n8v-journal import`). The journal keeps a drafted entry,
# never the prose; tool calls and output, reasoning and sidechains are never sent.
#   $1         the harness: claude-code (default) or codex
#   stdin      the hook's JSON, with "transcript_path" (Claude Code SessionEnd, Codex Stop)
#   N8V_URL    the service (default http://127.0.0.1:8080)
#   N8V_TOKEN  an API key with chats:read
#   N8V_JOURNAL=off turns the posting off on this machine.
# Never fails the session: on any error it exits 0 quietly.
[ "${N8V_JOURNAL:-on}" = "off" ] && exit 0
[ -n "${N8V_TOKEN:-}" ] || exit 0
harness="${1:-claude-code}"
path=$(sed -n 's/.*"transcript_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$path" ] && [ -f "$path" ] || exit 0
n8v-journal import --harness "$harness" "$path" >/dev/null 2>&1 || true
exit 0
