// n8v-journal for OpenCode: a plugin (OpenCode's plugin API, @opencode-ai/plugin).
//
// - Loads the recent journal once per session and adds it to the session's system prompt: the
//   same text in every request of the session (prompt caching stays warm), fetched once.
// - Posts the conversation when the session goes idle, and marked ended when OpenCode shuts
//   down, so its entry grows and settles as Claude Code's does. The binary reads it as
//   `n8v-journal import --harness opencode` reads OpenCode's database: user and assistant text
//   only, never tool calls, tool output, reasoning or the compaction recap.
// - N8V_JOURNAL=off where OpenCode starts turns both off.
//
// All talk with the service goes through the `n8v-journal hook … --harness opencode` commands
// of the installed binary (the same endpoints, failure lines and switch as every other hook).
// `n8v-journal hook install --harness opencode` copies this file into OpenCode's plugins folder
// with INSTALLED filled in; a copy made by hand finds `n8v-journal` on PATH and N8V_URL.

import { spawn } from "node:child_process";

const INSTALLED = { bin: null, url: null };

const BIN = INSTALLED.bin || process.env.N8V_JOURNAL_BIN || "n8v-journal";
const HOOK_TIMEOUT_MS = 30_000;

// The requests OpenCode makes beside the conversation (a title, a compaction's summary):
// their system prompts are their own, and the journal has no place in them.
const SIDE_PROMPTS = [
  "You are a title generator",
  "You are a context summarization agent",
  "Summarize what was done in this conversation",
];

/** Runs `n8v-journal hook <event> --harness opencode` with `input` on stdin. */
function hook(event, input) {
  const args = ["hook", event, "--harness", "opencode"];
  const url = INSTALLED.url || process.env.N8V_URL;
  if (url) args.push("--url", url);
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let child;
    try {
      child = spawn(BIN, args, { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      resolve({ stdout: "", stderr: `n8v-journal: cannot run ${BIN}: ${e}` });
      return;
    }
    const timer = setTimeout(() => child.kill(), HOOK_TIMEOUT_MS);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ stdout: "", stderr: `n8v-journal: cannot run ${BIN}: ${e.message}` });
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}

/**
 * A session's messages as the binary reads them (OpenCode's own `{info, parts}` shape, the
 * same as `n8v-journal import` reads from OpenCode's database), cut to what it looks at: the
 * text and compaction parts, without tool calls, their output or reasoning.
 */
function pruned(messages) {
  return (messages || []).map(({ info, parts }) => ({
    info: {
      role: info?.role,
      summary: info?.summary === true,
      mode: info?.mode,
      agent: info?.agent,
      time: { created: info?.time?.created },
    },
    parts: (parts || [])
      .filter((p) => p.type === "text" || p.type === "compaction")
      .map((p) => ({ type: p.type, text: p.text, synthetic: p.synthetic, ignored: p.ignored })),
  }));
}

export const N8vJournal = async ({ client, directory }) => {
  if ((process.env.N8V_JOURNAL || "").trim() === "off") return {};

  const windows = new Map(); // session id -> Promise<string | null>: fetched once
  const posted = new Map(); // session id -> the messages last posted, posted ended at shutdown

  // Why a hook did nothing, in OpenCode's log (its TUI is not ours to write on).
  const report = async (stderr) => {
    const line = stderr.trim();
    if (!line) return;
    try {
      await client.app.log({ body: { service: "n8v-journal", level: "warn", message: line } });
    } catch {
      console.error(line);
    }
  };

  // A subagent's session (it has a parent) is part of its parent's work: it gets no window and
  // is not posted, as Claude Code's sidechains are not.
  const children = new Map(); // session id -> Promise<boolean>
  const isChild = (sessionID) => {
    if (!children.has(sessionID)) {
      children.set(
        sessionID,
        client.session
          .get({ path: { id: sessionID } })
          .then((answer) => Boolean((answer.data ?? answer)?.parentID))
          .catch(() => false),
      );
    }
    return children.get(sessionID);
  };

  const send = async (sessionID, event, found) => {
    const ran = await hook(event, { session_id: sessionID, cwd: directory, messages: found });
    await report(ran.stderr);
  };

  const post = async (sessionID) => {
    if (await isChild(sessionID)) return;
    let messages;
    try {
      const answer = await client.session.messages({ path: { id: sessionID } });
      messages = answer.data ?? answer;
    } catch (e) {
      await report(`n8v-journal: cannot read session ${sessionID}: ${e}`);
      return;
    }
    const found = pruned(messages);
    if (!found.some((m) => m.info.role === "assistant" && m.parts.length)) return;
    posted.set(sessionID, found);
    await send(sessionID, "stop", found);
  };

  return {
    "experimental.chat.system.transform": async (input, output) => {
      const sessionID = input.sessionID;
      if (!sessionID) return;
      const first = output.system[0] || "";
      if (SIDE_PROMPTS.some((p) => first.startsWith(p))) return;
      if (await isChild(sessionID)) return;
      if (!windows.has(sessionID)) {
        windows.set(
          sessionID,
          hook("session-start", { session_id: sessionID, cwd: directory }).then(async (ran) => {
            await report(ran.stderr);
            return ran.stdout.trim() || null;
          }),
        );
      }
      const window = await windows.get(sessionID);
      if (window) output.system.push(window);
    },
    event: async ({ event }) => {
      if (event.type === "session.idle") {
        await post(event.properties.sessionID);
      }
    },
    // OpenCode is shutting down: its server may no longer answer, so what was posted last
    // is posted again, marked ended, which drafts it.
    dispose: async () => {
      for (const [sessionID, found] of posted) await send(sessionID, "session-end", found);
    },
  };
};
