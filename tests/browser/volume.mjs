// The journal pages at a real account's volume, in Debian's headless Chromium driven by
// playwright-core (tests/api/browser_volume.rs runs it against a live app whose lists are filled
// past their page sizes). It signs in, then on the journal, Settings › Journal and a long
// session's actions clicks each page's next link until a page has none: every page answers 200
// and shows rows, the walk ends, and together the pages show every session and action the
// setup names. Each step prints "ok <step>"; the script exits non-zero on the first failure.
import { setup, step, check, launch, shot } from "./harness.mjs";

const base = setup.base;
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
page.on("pageerror", (e) => console.log("page error: " + e.message));
page.setDefaultTimeout(20000);

// From `path`, each page in turn, by clicking the link named `next` until a page has none:
// every page answers 200 and shows rows (`rows` selects them, `ids` reads their ids in the page).
// The pages walked, and every id they showed.
async function walk(name, path, next, rows, ids) {
  let response = await page.goto(base + path);
  const seen = new Set();
  let pages = 0;
  for (;;) {
    pages += 1;
    const status = response ? response.status() : 0;
    check(status === 200, `${name}, page ${pages} (${page.url()}) answers ${status}`);
    const shown = await page.locator(rows).evaluateAll(ids);
    check(shown.length > 0, `${name}, page ${pages} (${page.url()}) shows rows`);
    for (const id of shown) seen.add(id);
    const link = page.locator("a", { hasText: next });
    if ((await link.count()) === 0) break;
    check(pages < 50, `${name}: the ${next} links never end`);
    [response] = await Promise.all([page.waitForNavigation(), link.first().click()]);
  }
  await shot(page, `volume-${name}`);
  return { pages, seen };
}

// What the walk showed against what the setup expects: its page count, and every id named.
function expect(name, walked, pages, ids) {
  check(walked.pages === pages, `${name}: ${walked.pages} pages, expected ${pages}`);
  const unseen = ids.filter((id) => !walked.seen.has(id));
  check(unseen.length === 0, `${name}: ${unseen.length} never shown, e.g. ${unseen.slice(0, 3)}`);
}

try {
  await page.goto(base + "/journal");
  check(page.url().endsWith("/journal/sign-in"), "signed out, the journal sends to sign-in");
  await page.fill("#key", setup.key);
  await page.click("main button[type=submit]");
  await page.waitForSelector(".journal");
  step("sign in");

  const journal = await walk("journal", "/journal", "Older entries", "article.card.entry", (all) => all.map((e) => e.id));
  expect("the journal", journal, setup.journalPages, setup.sessions);
  step("journal pages");

  const settings = await walk("settings", "/journal/settings", "Older sessions", "li.card.session", (all) => all.map((e) => e.id));
  expect("Settings › Journal", settings, setup.settingsPages, setup.sessions);
  step("settings pages");

  const actions = await walk("actions", `/journal/sessions/${setup.long}`, "More actions",
    "table.actions tbody tr", (all) => all.map((e) => e.querySelector("a").getAttribute("href").split("/").pop()));
  expect("the session's actions", actions, setup.actionPages, setup.calls);
  step("session actions pages");

  console.log("volume: all steps passed");
} finally {
  await browser.close();
}
