"""n8v-journal for Hermes: a plugin (Hermes' plugin API: hooks and middleware).

- Loads the recent journal once per session (``on_session_start``) and adds it to the system
  prompt after Hermes' own, in every request of the session (``llm_request`` middleware): the
  same text each time, fetched once.
- Posts the conversation after each turn (``post_llm_call``), and marked ended when the
  session is finalized (``on_session_finalize``: the CLI exits, a gateway session expires).
  The binary reads it as ``n8v-journal import --harness hermes`` reads Hermes' database: user
  and assistant text only, never tool calls, tool output, reasoning or the compaction summary.
- Whose conversations are posted: ``N8V_HERMES_CAPTURE`` = ``cli`` (the default: the CLI, the
  TUI and editors over ACP, the person's own), ``all`` (a chat gateway's too: other people's
  conversations), ``off``. N8V_JOURNAL=off turns loading and posting off.

All talk with the service goes through ``n8v-journal hook … --harness hermes`` (the same
endpoints, failure lines and switch as every other hook). ``n8v-journal hook install --harness
hermes`` copies this folder into Hermes' plugins with INSTALLED filled in; a copy made by hand
finds ``n8v-journal`` on PATH and N8V_URL.
"""

import json
import logging
import os
import subprocess
import threading
import time

INSTALLED = {"bin": None, "url": None}

HOOK_TIMEOUT_S = 30
# Why a hook did nothing goes to Hermes' log (~/.hermes/logs), not over its interface.
log = logging.getLogger("n8v-journal")
# The surfaces where the person at the keyboard is the one talking.
LOCAL_PLATFORMS = {"", "cli", "tui", "local", "acp"}
# The platform of a delegated subagent (tools/delegate_tool.py): no window, never posted.
SUBAGENT = "subagent"
# How Hermes flags the summary it puts in place of compacted turns (agent/context_compressor.py).
RECAP_KEY = "_compressed_summary"


def _off():
    return os.environ.get("N8V_JOURNAL", "").strip() == "off"


def _captures(platform):
    # A subagent's conversation is part of its parent's work (Claude Code's sidechains).
    if platform == SUBAGENT:
        return False
    mode = os.environ.get("N8V_HERMES_CAPTURE", "cli").strip() or "cli"
    if mode == "off":
        return False
    if mode == "all":
        return True
    return (platform or "") in LOCAL_PLATFORMS


def _hook(event, payload):
    """Runs ``n8v-journal hook <event> --harness hermes`` with ``payload`` on stdin."""
    binary = INSTALLED["bin"] or os.environ.get("N8V_JOURNAL_BIN") or "n8v-journal"
    args = [binary, "hook", event, "--harness", "hermes"]
    url = INSTALLED["url"] or os.environ.get("N8V_URL")
    if url:
        args += ["--url", url]
    try:
        ran = subprocess.run(
            args,
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=HOOK_TIMEOUT_S,
        )
    except (OSError, subprocess.SubprocessError) as e:
        log.warning("n8v-journal: cannot run %s: %s", binary, e)
        return ""
    if ran.stderr.strip():
        log.warning("%s", ran.stderr.strip())
    return ran.stdout


def _text(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            p.get("text", "")
            for p in content
            if isinstance(p, dict) and p.get("type") in ("text", "input_text", "output_text")
        )
    return ""


class _Session:
    def __init__(self):
        self.window = None
        self.loading = None
        self.times = []  # when each message was first seen
        self.messages = []  # what was posted last


_sessions = {}
_lock = threading.Lock()


def _session(session_id):
    with _lock:
        return _sessions.setdefault(session_id, _Session())


def _load(session_id):
    """Starts fetching the window for ``session_id`` once; the thread doing it."""
    state = _session(session_id)
    with _lock:
        if state.loading is None:

            def fetch():
                out = _hook("session-start", {"session_id": session_id, "cwd": os.getcwd()})
                state.window = out.strip() or None

            state.loading = threading.Thread(target=fetch, daemon=True)
            state.loading.start()
        return state.loading


def _messages(state, history):
    """``history``'s user and assistant messages as the binary reads them (OpenAI-shaped:
    ``role``, ``content``, the compaction flag), each with when it was first seen; tool
    messages, tool calls and reasoning stay here."""
    kept = []
    for message in history or []:
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            continue
        text = _text(message.get("content"))
        if not text.strip():
            continue
        kept.append({"role": message["role"], "content": text,
                     RECAP_KEY: bool(message.get(RECAP_KEY))})
    now = time.time()
    while len(state.times) < len(kept):
        state.times.append(now)
    for message, at in zip(kept, state.times):
        message["at"] = at
    return kept


def _post(event, session_id, messages):
    _hook(event, {"session_id": session_id, "cwd": os.getcwd(), "messages": messages})


def on_session_start(session_id=None, platform=None, **_):
    if session_id and platform != SUBAGENT:
        _load(session_id)


def add_window(request=None, session_id=None, platform=None, **_):
    """``llm_request`` middleware: the window after Hermes' own system prompt."""
    if not session_id or not isinstance(request, dict) or platform == SUBAGENT:
        return None
    _load(session_id).join(HOOK_TIMEOUT_S)
    window = _session(session_id).window
    if not window:
        return None
    addition = "\n\n" + window
    messages = request.get("messages")
    if isinstance(messages, list) and messages and messages[0].get("role") == "system":
        first = dict(messages[0])
        first["content"] = _text(first.get("content")) + addition
        request["messages"] = [first] + list(messages[1:])
    elif isinstance(request.get("instructions"), str):
        request["instructions"] += addition
    elif isinstance(request.get("system"), str):
        request["system"] += addition
    else:
        return None
    return {"request": request}


def post_llm_call(session_id=None, conversation_history=None, platform=None, **_):
    if not session_id or not _captures(platform):
        return
    state = _session(session_id)
    messages = _messages(state, conversation_history)
    if not any(m["role"] == "assistant" for m in messages):
        return
    state.messages = messages
    # Not waited for: the next prompt is not held up; a non-daemon thread finishes its post
    # before Hermes exits.
    threading.Thread(target=_post, args=("stop", session_id, messages)).start()


def on_session_finalize(session_id=None, platform=None, **_):
    if not session_id or not _captures(platform):
        return
    with _lock:
        state = _sessions.get(session_id)
    if state and state.messages:
        _post("session-end", session_id, state.messages)


def register(ctx):
    if _off():
        return
    ctx.register_hook("on_session_start", on_session_start)
    ctx.register_hook("post_llm_call", post_llm_call)
    ctx.register_hook("on_session_finalize", on_session_finalize)
    ctx.register_middleware("llm_request", add_window)
