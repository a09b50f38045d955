// The catch-up's MCP App in a real host (tests/api/browser_app.rs runs this against a live
// app): the official SDK's Client talks to the server's /mcp with a key, the official
// ext-apps AppBridge plays the host, and the view runs in Debian's headless Chromium in a
// sandboxed iframe under the CSP its resource declares. The bridge reaches the iframe through
// playwright (the page relays postMessage both ways), so the host is this script and the page.
// Its setup arrives as JSON in N8V_APP_SETUP; each step prints "ok <step>", and what it acted
// on as "closed <id>" / "dismissed <id>" for the test to check in the database.
import { createRequire } from "node:module";
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";

const setup = JSON.parse(process.env.N8V_APP_SETUP);
const require = createRequire(setup.modules + "/");
const { chromium } = require("playwright-core");
const load = (name) => import(pathToFileURL(require.resolve(name)).href);
const { Client, StreamableHTTPClientTransport } = await load("@modelcontextprotocol/client");
const { AppBridge, getToolUiResourceUri, RESOURCE_MIME_TYPE } = await load(
  "@modelcontextprotocol/ext-apps/app-bridge",
);

mkdirSync(setup.shots, { recursive: true });
const step = (name) => console.log("ok " + name);
function check(condition, message) {
  if (!condition) throw new Error("check failed: " + message);
}

const client = new Client({ name: "app-host-test", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(setup.base + "/mcp"), {
    requestInit: { headers: { Authorization: "Bearer " + setup.key, "X-Assistant": "App host test" } },
  }),
);

// 1. The tools name the view; the view is one HTML document that needs no outside origin.
const { tools } = await client.listTools();
const named = (name) => tools.find((t) => t.name === name);
const uri = getToolUiResourceUri(named("journal_catch_up"));
check(uri && uri.startsWith("ui://"), "journal_catch_up names a ui:// view: " + uri);
check(getToolUiResourceUri(named("journal_loops")) === uri, "journal_loops names the same view");
for (const name of ["journal_loop_close", "journal_loop_dismiss"]) {
  check(named(name), name + " is a tool");
  check(!getToolUiResourceUri(named(name)), name + " has no view of its own");
}
const read = await client.readResource({ uri });
const [view] = read.contents;
check(view.mimeType === RESOURCE_MIME_TYPE, "the view's mime type: " + view.mimeType);
const csp = view._meta?.ui?.csp;
check(csp, "the view declares its CSP");
for (const list of ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"]) {
  check(Array.isArray(csp[list]) && csp[list].length === 0, `${list} names no domain`);
}
check(!/\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(view.text), "the view loads nothing from elsewhere");
step("the tools name a self-contained view");

// The host's CSP, built from the declared domains (SEP-1865's construction, with none).
const policy = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src data:",
  "font-src 'none'",
  "media-src 'none'",
  `connect-src ${csp.connectDomains.join(" ") || "'none'"}`,
  `frame-src ${csp.frameDomains.join(" ") || "'none'"}`,
  "object-src 'none'",
  `base-uri ${csp.baseUriDomains.join(" ") || "'none'"}`,
].join("; ");
const html = view.text.replace(
  "<head>",
  `<head><meta http-equiv="Content-Security-Policy" content="${policy}">`,
);

const browser = await chromium.launch({
  executablePath: setup.chromium,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const refused = [];
const dialogs = [];

// Playwright between the bridge and the iframe: the page hands the view's messages to
// `onmessage`, `send` posts the bridge's into the view.
class FrameTransport {
  constructor(page, id) {
    this.page = page;
    this.id = id;
  }
  async start() {}
  async send(message) {
    await this.page.evaluate(
      ([id, m]) => document.getElementById(id).contentWindow.postMessage(m, "*"),
      [this.id, message],
    );
  }
  async close() {
    this.onclose?.();
  }
}

/// A page hosting the view in a sandboxed iframe, its bridge connected and initialized.
async function host(theme, width) {
  const context = await browser.newContext({ viewport: { width: width + 40, height: 900 }, colorScheme: theme });
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  page.on("pageerror", (e) => console.log("page error: " + e.message));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  const transport = new FrameTransport(page, "view");
  await page.exposeFunction("fromView", (message) => transport.onmessage?.(message));
  await page.setContent(
    `<!doctype html><html><body style="margin:20px;background:${theme === "dark" ? "#111" : "#eee"}">` +
      `<iframe id="view" sandbox="allow-scripts" style="border:0;width:${width}px;height:200px;` +
      `border-radius:10px;background:transparent"></iframe></body></html>`,
  );
  await page.evaluate(() =>
    window.addEventListener("message", (e) => {
      if (e.source === document.getElementById("view").contentWindow) window.fromView(e.data);
    }),
  );
  const bridge = new AppBridge(
    client,
    { name: "n8v-journal test host", version: "1.0.0" },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme, displayMode: "inline", locale: "en-US", containerDimensions: { width, maxHeight: 4000 } } },
  );
  bridge.onsizechange = ({ height }) =>
    page.evaluate((h) => (document.getElementById("view").style.height = h + "px"), height).catch(() => {});
  const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
  await bridge.connect(transport);
  await page.evaluate((doc) => (document.getElementById("view").srcdoc = doc), html);
  await initialized;
  const frame = page.frames().find((f) => f !== page.mainFrame());
  return { page, bridge, frame };
}

/// Calls `tool` as the model would, and hands the input and the result to the view.
async function show(bridge, tool, args) {
  await bridge.sendToolInput({ arguments: args });
  const result = await client.callTool({ name: tool, arguments: args });
  check(!result.isError, `${tool} answered: ${JSON.stringify(result.content)}`);
  // A host without Apps shows the text, which is still the structured content in full.
  check(JSON.stringify(JSON.parse(result.content[0].text)) === JSON.stringify(result.structuredContent),
    `${tool}'s text is its structured content`);
  await bridge.sendToolResult(result);
  return result.structuredContent;
}

try {
  // 2. The brief, rendered.
  const { page, bridge, frame } = await host("light", 680);
  const brief = await show(bridge, "journal_catch_up", { purpose: "Catch up in the app test" });
  await frame.waitForSelector("#decisions li");
  const decisions = await frame.locator("#decisions > ul > li > .text").allTextContents();
  check(JSON.stringify(decisions) === JSON.stringify(brief.decisions.map((d) => d.text)),
    "the decisions, in the brief's order: " + JSON.stringify(decisions));
  check(brief.decisions.length === 1 && (brief.decisions[0].replaces || []).length === 1,
    "the server's brief: one current decision, replacing the earlier one");
  for (const d of brief.decisions) {
    const under = await frame.locator(`#decisions li[data-decision="${d.id}"] .replaced .old`).allTextContents();
    const replaced = (d.replaces || []).map((r) => r.text);
    check(JSON.stringify(under) === JSON.stringify(replaced), `what ${d.id} replaced: ${JSON.stringify(under)}`);
  }
  const loops = brief.open_questions.concat(brief.next_steps).filter((i) => i.id);
  check((await frame.locator("#loops li[data-item]").count()) === loops.length, "one row per open loop");
  for (const item of loops) {
    const row = frame.locator(`#loops li[data-item="${item.id}"]`);
    const text = await row.textContent();
    check(text.includes(item.text), `${item.id} shows its text`);
    check(text.includes(item.age === 0 ? "open today" : `open ${item.age} day`), `${item.id} shows its age: ${text}`);
    const tiers = { this_credential: "this key", other_credential: "other key", organization: "org member",
      derived: "derived", person: "released by you" };
    check(text.includes(tiers[item.tier]) && text.includes(item.author.assistant),
      `${item.id} names its author and tier (${item.tier}): ${text}`);
    const buttons = await row.locator("button").allTextContents();
    const expected = item.own ? ["Close", "Drop"] : ["Dismiss"];
    check(JSON.stringify(buttons) === JSON.stringify(expected), `${item.id}'s buttons: ${buttons}`);
  }
  const assistants = await frame.locator("#sessions .assistant > p").allTextContents();
  for (const name of setup.assistants) {
    check(assistants.some((a) => a.startsWith(name + " ")), `${name} is among ${assistants}`);
  }
  step("the view renders the brief");

  // 3. Other assistants' words are text: markup shows as itself and runs nothing.
  check((await frame.locator("img").count()) === 0, "no img element in the view");
  const body = await frame.locator("body").textContent();
  check(body.includes(setup.markup), "the markup shows literally");
  step("an item's markup shows as text");
  await page.screenshot({ path: `${setup.shots}/app-light.png`, fullPage: true });

  // What a decision replaced shows as text too: the brief with a replaced decision holding
  // markup, by hand.
  const replacing = await host("light", 680);
  const [current] = brief.decisions;
  const old = { id: "dec_replaced", text: "<b>" + setup.markup + "</b>", session_id: current.session_id, stated: true };
  // One that only the session's summary says it replaced: labelled as not applied.
  const byModel = { id: "dec_said", text: "Keep the cron runner", session_id: current.session_id, stated: false };
  const withReplaces = { ...brief, decisions: [{ ...current, id: "dec_current", replaces: [old, byModel] }] };
  await replacing.bridge.sendToolInput({ arguments: {} });
  await replacing.bridge.sendToolResult({ content: [{ type: "text", text: "{}" }], structuredContent: withReplaces });
  const under = replacing.frame.locator('#decisions li[data-decision="dec_current"] .replaced li[data-replaced="dec_replaced"]');
  await under.waitFor();
  check((await under.locator(".old").textContent()) === old.text, "the replaced decision, as text");
  check((await under.locator(".label").textContent()) === "replaces", "a replacement applied reads 'replaces'");
  const saidRow = replacing.frame.locator('#decisions li[data-decision="dec_current"] .replaced li[data-replaced="dec_said"]');
  check((await saidRow.locator(".label").textContent()) === "its summary says it replaces (not applied)",
    "a summary's reading is labelled as not applied");
  const struck = async (row) => row.locator(".old").evaluate((e) => getComputedStyle(e).textDecorationLine);
  check((await struck(under)) === "line-through" && (await struck(saidRow)) === "none",
    "only what was replaced is struck through: the summary's reading is still current");
  check((await replacing.frame.locator("b, img").count()) === 0, "no element from the replaced text");
  await replacing.page.screenshot({ path: `${setup.shots}/app-replaces.png`, fullPage: true });
  step("a replaced decision shows under what replaced it");

  // On a phone (a host 340 px wide), every card holds its text and ids: none runs past it,
  // and the view scrolls no way but down.
  const phone = await host("light", 340);
  await show(phone.bridge, "journal_catch_up", { purpose: "Catch up on a phone in the app test" });
  await phone.frame.waitForSelector("#loops li[data-item]");
  const spill = await phone.frame.evaluate(() => {
    const out = [];
    if (document.documentElement.scrollWidth > window.innerWidth) {
      out.push(`the view: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    }
    for (const card of document.querySelectorAll(".items > li")) {
      const edge = card.getBoundingClientRect().right;
      for (const e of card.querySelectorAll("*")) {
        const right = e.getBoundingClientRect().right;
        if (right > edge + 0.5) out.push(`${e.className || e.tagName} in ${card.dataset.item || card.dataset.decision}: ${right} > ${edge}`);
      }
    }
    return out;
  });
  await phone.page.screenshot({ path: `${setup.shots}/app-340.png`, fullPage: true });
  check(spill.length === 0, "at 340 px something runs past its card: " + spill.slice(0, 5).join("; "));
  step("the view fits a 340 px host");

  // 4. Close one of the reader's loops, dismiss a member's, through the host's tools/call. A
  // second view, showing journal_loops, still offers the loop; closing it there afterwards is
  // refused, and that view says why.
  const stale = await host("light", 680);
  await show(stale.bridge, "journal_loops", { purpose: "List open loops in the app test" });
  const closing = loops.find((i) => i.text === setup.closeText);
  check(closing && closing.own, "the loop to close is in the brief, the reader's own");
  const closeRow = frame.locator(`#loops li[data-item="${closing.id}"]`);
  await closeRow.locator("button[data-action=close]").click();
  await frame.waitForSelector(`#loops li[data-item="${closing.id}"].settled`);
  check((await closeRow.locator(".outcome").textContent()) === "done", "the row says done");
  console.log("closed " + closing.id);
  const member = loops.find((i) => i.text === setup.memberText);
  check(member && !member.own, "the member's loop is in the brief, not the reader's");
  const memberRow = frame.locator(`#loops li[data-item="${member.id}"]`);
  await memberRow.locator("button[data-action=dismiss]").click();
  await frame.waitForSelector(`#loops li[data-item="${member.id}"].settled`);
  console.log("dismissed " + member.id);
  const staleRow = stale.frame.locator(`#loops li[data-item="${closing.id}"]`);
  await staleRow.locator("button[data-action=drop]").click();
  const said = await stale.frame.waitForSelector(`#loops li[data-item="${closing.id}"] .error`);
  check(/closed/i.test(await said.textContent()), "the refusal says it is closed: " + (await said.textContent()));
  check(!(await staleRow.getAttribute("class"))?.includes("settled"), "the refused row stays as it was");
  const open = (await show(stale.bridge, "journal_loops", { purpose: "List open loops again" })).loops;
  check(!open.some((l) => l.id === closing.id || l.id === member.id), "neither is open for the reader");
  step("Close and Dismiss act through the host");

  // 5. The host turns dark: the view follows.
  await page.evaluate(() => (document.body.style.background = "#111"));
  bridge.setHostContext({ theme: "dark" });
  await frame.waitForFunction(() => document.documentElement.style.colorScheme === "dark");
  await page.screenshot({ path: `${setup.shots}/app-dark.png`, fullPage: true });
  step("the host's theme reaches the view");

  check(refused.length === 0, "the CSP refused nothing: " + refused.join("; "));
  check(dialogs.length === 0, "no dialog opened: " + dialogs.join("; "));
  console.log("app: all steps passed");
} finally {
  await browser.close();
  await client.close();
}
