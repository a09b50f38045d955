// The browser journey tests/browser.rs runs against a live app, in Debian's headless Chromium
// driven by playwright-core. Its setup arrives as JSON in N8V_BROWSER_SETUP; each step prints
// "ok <step>" and the script exits non-zero on the first failure. Screenshots of every page go
// to the setup's `shots` directory.
import { setup, step, check, launch, shot } from "./harness.mjs";

const base = setup.base;

async function api(token, method, path, body, assistant) {
  const headers = { Authorization: "Bearer " + token, "X-Purpose": "browser journey setup" };
  if (assistant) headers["X-Assistant"] = assistant;
  if (body) headers["Content-Type"] = "application/json";
  const r = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  return { status: r.status, session: r.headers.get("x-session-id"), body: text ? JSON.parse(text) : null };
}

const browser = await launch();
let dialogs = "accept";
// Called once a dialog has been dismissed (set by the step that expects one).
let onDismissed = () => {};
async function newPage(width) {
  const context = await browser.newContext({ viewport: { width: width || 1280, height: 900 } });
  const page = await context.newPage();
  page.on("dialog", (d) => (dialogs === "accept" ? d.accept() : d.dismiss().then(() => onDismissed())));
  page.on("pageerror", (e) => console.log("page error: " + e.message));
  page.setDefaultTimeout(10000);
  return page;
}

try {
  // Before: the journal is off for both accounts.
  check((await api(setup.keyA, "GET", "/api/v1/journal/sessions")).status === 404, "A's journal starts off");

  // 1. The operator turns assistantJournal on for Ada alone, in the console.
  const op = await newPage();
  await op.goto(base + "/internal/admin/feature-flags");
  await op.fill("#key", setup.operatorKey);
  await op.click("button[type=submit]");
  await op.waitForSelector("h1:has-text('Feature flags')");
  step("operator signs in to the console");
  await op.fill("#account-q", "Ada");
  await op.click("form[role=search] button");
  const ada = op.locator(`li[data-account="${setup.accountA}"]`);
  await ada.waitFor();
  check((await op.locator("ul.found > li").count()) === 1, "finding Ada finds one account");
  await ada.locator("button", { hasText: "Turn on for Ada" }).click();
  await op.waitForSelector(`#flag-assistantJournal tr[data-account="${setup.accountA}"] .override-value:has-text('on')`);
  const log = await op.locator("table.log tbody tr").first().innerText();
  check(log.includes("set-flag") && log.includes(setup.accountA), "the change is in the operator log: " + log);
  check(log.includes(setup.operatorName), "the log names the operator: " + log);
  await shot(op, "console");
  step("operator turns assistantJournal on for one account");

  // The account's journal records from now on; the other's does not.
  const startA = await api(setup.keyA, "POST", "/api/v1/journal/sessions",
    { goal: "Ship the pelican export", repository: "acme/web" }, "Claude");
  check(startA.status === 201, "A opens a session: " + startA.status);
  const appended = await api(setup.keyA, "POST", `/api/v1/records/${setup.recordA}/entries`,
    { line: "export shipped" }, "Claude");
  check(appended.status === 201 && appended.session, "A's write is journalled");
  await api(setup.keyA, "POST", `/api/v1/journal/sessions/${startA.body.id}/end`, { outcome: "pelican export shipped", decisions: ["Export pelicans as CSV"], open_questions: ["Should the export include archived pelicans?"] }, "Claude");
  const other = await api(setup.keyA, "GET", "/api/v1/records", null, "Codex");
  check(other.session, "a Codex call is journalled too");
  const callB = await api(setup.keyB, "GET", "/api/v1/records", null, "Claude");
  check(callB.status === 200 && !callB.session, "B's call is not journalled");
  check((await api(setup.keyB, "GET", "/api/v1/journal/sessions")).status === 404, "B's journal stays off");
  step("the account's journal records while the other's does not");

  // 2. Ada signs in.
  const page = await newPage();
  await page.goto(base + "/journal");
  check(page.url().endsWith("/journal/sign-in"), "signed out, the journal sends to sign-in");
  await shot(page, "sign-in");
  await page.fill("#key", setup.keyA);
  await page.click("main button[type=submit]");
  await page.waitForSelector(".journal");
  const cookies = await page.context().cookies();
  const cookie = cookies.find((c) => c.name === "n8v_journal");
  check(cookie && cookie.httpOnly && cookie.sameSite === "Strict", "the sign-in cookie is HttpOnly, SameSite=Strict");
  check(await page.locator(`#${startA.body.id}`).count() === 1, "the new session is on the journal page");
  await shot(page, "journal");
  step("sign in");

  // 3. Settings > Journal: filter by assistant.
  await page.click("nav a:has-text('Settings')");
  await page.waitForSelector("h1:has-text('Settings')");
  const all = await page.locator("li.session").count();
  await page.fill("#f-assistant", "Codex");
  await page.click("form.filters button");
  await page.waitForURL(/assistant=Codex/);
  const codex = await page.locator("li.session").count();
  check(codex >= 1 && codex < all, `the assistant filter narrows the list (${codex} of ${all})`);
  for (const meta of await page.locator("li.session > .meta").allInnerTexts()) {
    check(meta.includes("Codex"), "only Codex sessions: " + meta);
  }
  await page.fill("#f-assistant", "");
  await page.fill("#f-from", setup.seededDay);
  await page.fill("#f-to", setup.seededDay);
  await page.click("form.filters button");
  await page.waitForURL(/from=/);
  const days = await page.locator("li.session > .meta").allInnerTexts();
  check(days.length >= 1 && days.every((m) => m.startsWith(setup.seededDay)), "the period filter: " + days);
  await shot(page, "sessions");
  step("filter sessions");

  // 4. One session, one call, its audit entry.
  await page.goto(base + "/journal/settings");
  await page.click(`li#${startA.body.id} a.title`);
  await page.waitForSelector("table.actions");
  const rows = await page.locator("table.actions tbody tr").count();
  await page.click("a.toggle");
  await page.waitForURL(/writes=true/);
  const writes = await page.locator("table.actions tbody tr").count();
  check(writes >= 1 && writes < rows, `writes only: ${writes} of ${rows}`);
  const carried = await page.locator("dl.carried").innerText();
  check(carried.includes("Export pelicans as CSV") && carried.includes("archived pelicans?"),
    "the session shows its hand-off: " + carried);
  await shot(page, "session");
  await page.click("table.actions tbody tr a");
  await page.waitForSelector("dl.facts");
  const purpose = await page.locator("dd.purpose").innerText();
  check(purpose === "browser journey setup", "the call's purpose: " + purpose);
  await shot(page, "entry");
  step("open a session and a call");
  const auditId = await page.locator("a.audit-link").innerText();
  await page.click("a.audit-link");
  await page.waitForSelector("dd.audit-id");
  check((await page.locator("dd.audit-id").innerText()) === auditId, "the audit entry opens");
  await shot(page, "audit");
  step("follow the audit link");

  // 5. The journal: J/K and the timeline's keys.
  await page.goto(base + "/journal");
  const periods = await page.locator("section.period").evaluateAll((s) => s.map((e) => e.id));
  check(periods.length >= 4, "several periods: " + periods);
  const current = () => page.locator(".journal").getAttribute("data-current");
  check((await current()) === periods[0], "the newest period is in view first");
  await page.keyboard.press("j");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[1]);
  await page.keyboard.press("j");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[2]);
  await page.keyboard.press("k");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[1]);
  const label = await page.locator("#period-label").innerText();
  check(label.length > 0 && (await page.locator("#period-ago").innerText()).includes("ago"), "the big date names the period: " + label);
  step("J/K");
  // The timeline's end labels stay in its column, clear of the cards, wide and narrow.
  const labelsInColumn = (pg) => pg.evaluate(() => {
    const cards = document.querySelector(".periods").getBoundingClientRect();
    return [...document.querySelectorAll("#timeline .tl-end")]
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.right > cards.left)
      .map((r) => `${r.left}-${r.right} over ${cards.left}`);
  });
  const intrusions = await labelsInColumn(page);
  check(intrusions.length === 0, "the timeline's labels overlap the cards: " + intrusions);
  await page.focus("#timeline");
  await page.keyboard.press("End");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[periods.length - 1]);
  await page.keyboard.press("Home");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[0]);
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[1]);
  const box = await page.locator("#timeline").boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height - 2);
  await page.waitForFunction((id) => document.querySelector(".journal").dataset.current === id, periods[periods.length - 1]);
  step("timeline keys and click");

  // 6. Search: "/" focuses the box; a match jumps to its entry.
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  check(await page.evaluate(() => document.activeElement.id === "q"), "/ focuses the search box");
  await page.keyboard.type("kestrel");
  await page.keyboard.press("Enter");
  await page.waitForSelector("button.hit");
  check((await page.locator("#timeline .dot").count()) >= 1, "matches show as dots on the timeline");
  const hits = await page.locator("button.hit").allInnerTexts();
  check(hits.every((h) => !h.includes("hummingbird")), "B's words never match: " + hits);
  await shot(page, "search");
  await page.locator("button.hit").first().click();
  await page.waitForFunction((id) => document.getElementById(id).classList.contains("flash"), setup.kestrelSession);
  await page.waitForFunction((day) => document.querySelector(".journal").dataset.current === day, "day-" + setup.seededDay);
  step("search and jump");
  const viaApi = await api(setup.keyA, "GET", "/api/v1/journal/search?q=kestrel");
  check(viaApi.body.hits.length === hits.length, "the page's search is the API's search");

  // 7. Delete with confirmation: dismissed keeps the entry, accepted deletes it.
  const target = `#${setup.kestrelSession}`;
  // Every request the page sends meanwhile: a dismissed confirmation sends none.
  const sent = [];
  const watch = (r) => { if (r.method() !== "GET") sent.push(r.method() + " " + r.url()); };
  page.on("request", watch);
  dialogs = "dismiss";
  const dismissed = new Promise((resolve) => (onDismissed = resolve));
  await page.locator(`${target} form.danger button`).click();
  await dismissed;
  // The dismissal is done and the page's handler has returned: a submission it let through
  // would be on its way before this round trip to the page comes back.
  await page.evaluate(() => document.readyState);
  page.off("request", watch);
  check(sent.length === 0, "a dismissed confirmation sends nothing: " + sent);
  check(await page.locator(target).count() === 1, "a dismissed confirmation deletes nothing");
  const kept = await api(setup.keyA, "GET", `/api/v1/journal/sessions/${setup.kestrelSession}`);
  check(kept.status === 200, "the session is still there after a dismissed confirmation");
  dialogs = "accept";
  await Promise.all([page.waitForURL(/deleted=1/), page.locator(`${target} form.danger button`).click()]);
  check(await page.locator(target).count() === 0, "the confirmed deletion removed the entry");
  const gone = await api(setup.keyA, "GET", `/api/v1/journal/sessions/${setup.kestrelSession}`);
  check(gone.status === 404, "the deleted session is gone from the API too");
  await shot(page, "deleted");
  step("delete with confirmation");

  // 8. A narrow screen still works.
  const narrow = await newPage(380);
  await narrow.context().addCookies([cookie]);
  await narrow.goto(base + "/journal");
  await narrow.waitForSelector(".journal");
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 1, "no sideways scrolling on a narrow screen: " + overflow);
  const narrowIntrusions = await labelsInColumn(narrow);
  check(narrowIntrusions.length === 0, "narrow: the timeline's labels overlap the cards: " + narrowIntrusions);
  await shot(narrow, "journal-narrow");
  step("narrow screen");

  // 9. Sign out; B signs in and finds the journal off.
  await page.click("header button:has-text('Sign out')");
  await page.waitForSelector("#key");
  await page.goto(base + "/journal");
  check(page.url().endsWith("/journal/sign-in"), "signed out");
  step("sign out");
  await page.fill("#key", setup.keyB);
  await page.click("main button[type=submit]");
  await page.waitForSelector("text=The assistant journal is off");
  await shot(page, "journal-off");
  step("the other account's journal is off");

  console.log("journey: all steps passed");
} finally {
  await browser.close();
}
