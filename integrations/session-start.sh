#!/usr/bin/env sh
# Prints the recent journal window (GET /journal.md) for a session-start hook.
#   N8V_URL    the service, e.g. https://journal.example.com (default http://127.0.0.1:8080)
#   N8V_TOKEN  an API key with chats:read (n8v_sk_…)
#   N8V_JOURNAL=off turns the automatic load off on this machine.
# Never fails the session: on any error it prints nothing and exits 0.
[ "${N8V_JOURNAL:-on}" = "off" ] && exit 0
[ -n "${N8V_TOKEN:-}" ] || exit 0
url="${N8V_URL:-http://127.0.0.1:8080}/journal.md?max_chars=${N8V_JOURNAL_MAX_CHARS:-9500}"
curl -fsS --max-time 5 -H "Authorization: Bearer ${N8V_TOKEN}" "$url" 2>/dev/null || true
exit 0
