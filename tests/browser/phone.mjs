// The pages a person lives in, on a phone and on a laptop (issue 55): tests/api/browser_phone.rs
// fills an account (20 entries, 7 open loops, a session of 60 actions) and the console
// (overrides, a log), then this script opens each page at 375 px and checks that none scrolls
// sideways (the document's scrollWidth within the viewport), that the journal's search
// placeholder is whole there, and, at 1280 × 800, that the journal's first screen shows the first
// entry and no count reads "1 calls". Screenshots of every page go to the setup's `shots`.
import { setup, step, check, launch, shot } from "./harness.mjs";

const base = setup.base;
const browser = await launch();

async function newPage(width, height) {
  const context = await browser.newContext({ viewport: { width, height: height || 800 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.log("page error: " + e.message));
  page.setDefaultTimeout(10000);
  return page;
}

/// How far the page reaches past the viewport's right edge, and what reaches it (a test failing
/// says which element to look at).
async function overflow(page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const over = document.documentElement.scrollWidth - width;
    const culprits = [];
    if (over > 0) {
      for (const e of document.querySelectorAll("body *")) {
        const r = e.getBoundingClientRect();
        if (r.right > width + 1 && culprits.length < 5) {
          culprits.push(`${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}.${e.className} (${Math.round(r.right)})`);
        }
      }
    }
    return { over, culprits };
  });
}

async function fits(page, name) {
  const { over, culprits } = await overflow(page);
  await shot(page, `phone-${name}`);
  check(over <= 0, `${name} scrolls sideways at ${await page.evaluate(() => window.innerWidth)} px by ${over} px: ${culprits.join(", ")}`);
}

async function signIn(page, path, key) {
  await page.goto(base + path);
  await page.fill("#key", key);
  await Promise.all([page.waitForNavigation(), page.click("main button[type=submit]")]);
}

try {
  // The sign-in page, then the journal pages of the filled account, at 375 px.
  const phone = await newPage(375);
  await phone.goto(base + "/journal/sign-in");
  await fits(phone, "sign-in");
  await signIn(phone, "/journal/sign-in", setup.key);
  await phone.waitForSelector(".journal");
  await fits(phone, "journal");
  const placeholder = await phone.evaluate(() => {
    const box = document.getElementById("q");
    const style = getComputedStyle(box);
    const canvas = document.createElement("canvas").getContext("2d");
    canvas.font = style.font;
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: canvas.measureText(box.placeholder).width, room };
  });
  check(placeholder.text <= placeholder.room, `the search placeholder is cut off: ${JSON.stringify(placeholder)}`);
  await phone.goto(base + "/journal/settings");
  await fits(phone, "settings");
  await phone.goto(base + `/journal/sessions/${setup.long}`);
  check((await phone.locator("table tbody tr").count()) >= 50, "the session shows its actions");
  await fits(phone, "session");
  await phone.goto(base + "/journal/sessions/ses_notoneofours");
  await fits(phone, "error");
  step("the journal pages fit 375 px");

  // The console, with overrides and log entries, at 375 px.
  const console375 = await newPage(375);
  await console375.goto(base + "/internal/admin/feature-flags");
  await fits(console375, "console-sign-in");
  await signIn(console375, "/internal/admin/feature-flags", setup.operatorKey);
  await console375.waitForSelector("h1:has-text('Feature flags')");
  check((await console375.locator("main table").count()) >= 1, "the console shows its tables");
  await fits(console375, "console");
  step("the console fits 375 px");

  // At 1280 × 800, the first screen shows the first entry, under the open loops.
  const laptop = await newPage(1280, 800);
  await signIn(laptop, "/journal/sign-in", setup.key);
  await laptop.waitForSelector("article.entry");
  const first = await laptop.evaluate(() => {
    const entry = document.querySelector("article.entry .title").getBoundingClientRect();
    return { top: entry.top, bottom: entry.bottom, height: window.innerHeight };
  });
  check(first.bottom <= first.height, `the first entry is below the first screen: ${JSON.stringify(first)}`);
  check((await laptop.locator("#loops li.loop").count()) === setup.openLoops, "every open loop is listed");
  await laptop.screenshot({ path: `${setup.shots}/laptop-journal.png` });
  const text = await laptop.locator("main").innerText();
  check(!/\b1 (calls|writes|sessions)\b/.test(text), "a count of one reads in the singular");
  // Folded or not, the open loops' texts are in the page once: in "Still open", not again in
  // the entry that handed them on.
  const all = await laptop.locator("main").textContent();
  for (const item of setup.nextSteps) {
    const times = all.split(item).length - 1;
    check(times === 1, `the next step “${item}” shows ${times} times`);
  }
  step("the first screen shows the first entry");

  console.log("phone: all steps passed");
} finally {
  await browser.close();
}
