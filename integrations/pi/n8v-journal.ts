// n8v-journal for Pi: an extension (Pi's extension API, @mariozechner/pi-coding-agent).
//
// - Loads the recent journal once per session (`session_start`) and adds it to the system
//   prompt after Pi's own (`before_agent_start`): the same text in every request of the
//   session, fetched once.
// - Posts the conversation after each prompt is answered (`agent_end`), and marked ended when
//   the session is left or Pi quits (`session_shutdown`): Pi's session file is the transcript,
//   read by the binary as `n8v-journal import` reads it (user and assistant text on the
//   current branch; tool calls, tool results, thinking and the compaction and branch
//   summaries are never sent).
// - N8V_JOURNAL=off where Pi starts turns both off.
//
// All talk with the service goes through `n8v-journal hook … --harness pi` (the same
// endpoints, failure lines and switch as every other hook). `n8v-journal hook install
// --harness pi` copies this file into Pi's extensions folder with INSTALLED filled in; a copy
// made by hand finds `n8v-journal` on PATH and N8V_URL.

import { spawn } from "node:child_process";

const INSTALLED = { bin: null, url: null };

const BIN: string = INSTALLED.bin || process.env.N8V_JOURNAL_BIN || "n8v-journal";
const HOOK_TIMEOUT_MS = 30_000;

type Ran = { stdout: string; stderr: string };

/** Runs `n8v-journal hook <event> --harness pi` with `input` on stdin. */
function hook(event: string, input: Record<string, unknown>): Promise<Ran> {
  const args = ["hook", event, "--harness", "pi"];
  const url = INSTALLED.url || process.env.N8V_URL;
  if (url) args.push("--url", url);
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    const child = spawn(BIN, args, { stdio: ["pipe", "pipe", "pipe"] });
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

/** Says why a hook did nothing: in Pi's interface when it has one, else on stderr. */
function report(ran: Ran, ctx: any) {
  const line = ran.stderr.trim();
  if (!line) return;
  if (ctx?.hasUI) ctx.ui.notify(line, "warning");
  else console.error(line);
}

export default function (pi: any) {
  if ((process.env.N8V_JOURNAL || "").trim() === "off") return;

  let window: Promise<string | null> | null = null;
  let posted = false;

  const about = (ctx: any) => ({
    session_id: ctx.sessionManager.getSessionId(),
    transcript_path: ctx.sessionManager.getSessionFile() ?? null,
    cwd: ctx.cwd,
  });

  const load = (ctx: any) => {
    if (!window) {
      window = hook("session-start", about(ctx)).then((ran) => {
        report(ran, ctx);
        return ran.stdout.trim() || null;
      });
    }
    return window;
  };

  pi.on("session_start", async (_event: any, ctx: any) => {
    void load(ctx);
  });

  pi.on("before_agent_start", async (event: any, ctx: any) => {
    const text = await load(ctx);
    if (!text) return;
    return { systemPrompt: `${event.systemPrompt}\n\n${text}` };
  });

  pi.on("agent_end", async (_event: any, ctx: any) => {
    const input = about(ctx);
    if (!input.transcript_path) return; // an in-memory session (--no-session): nothing to read
    posted = true;
    report(await hook("stop", input), ctx);
  });

  pi.on("session_shutdown", async (_event: any, ctx: any) => {
    const input = about(ctx);
    if (!posted || !input.transcript_path) return;
    report(await hook("session-end", input), ctx);
  });
}
