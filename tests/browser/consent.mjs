// The consent page in Debian's headless Chromium, driven by playwright-core, at a desktop's and
// a phone's width (tests/api/browser_consent.rs runs it against a live app; the setup and the
// reporting are harness.mjs's). Every check reads the DOM as laid out: bounding boxes, scroll
// widths, computed styles and where Tab goes.
import { setup, step, check, launch, shot } from "./harness.mjs";

const base = setup.base;
const browser = await launch();
async function newPage(width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.log("page error: " + e.message));
  page.setDefaultTimeout(10000);
  return page;
}

// Nothing scrolls sideways, and every element of the card stays inside the card (which stays
// inside the window): the boxes that stick out, if any.
const overflows = (page) => page.evaluate(() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) out.push(`page scrolls: ${doc.scrollWidth} > ${window.innerWidth}`);
  const card = document.querySelector(".consent").getBoundingClientRect();
  if (card.left < 0 || card.right > window.innerWidth + 0.5) out.push(`card ${card.left}-${card.right}`);
  for (const e of document.querySelectorAll(".consent *")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < card.left - 0.5 || r.right > card.right + 0.5) {
      out.push(`${e.tagName}.${e.className} ${r.left}-${r.right} outside ${card.left}-${card.right}`);
    }
  }
  return out;
});

// Signs in through the authorization request: the consent page, laid out at `width`.
async function consentAt(width) {
  const page = await newPage(width);
  await page.goto(base + setup.authorize);
  await page.waitForSelector("#key");
  await page.fill("#key", setup.key);
  await page.click("main button[type=submit]");
  await page.waitForSelector("form.decision");
  return page;
}

async function checkConsent(page, width) {
  const sticking = await overflows(page);
  check(sticking.length === 0, `${width}: boxes outside the card or the window: ${sticking.join("; ")}`);
  const idInCard = await page.evaluate(() => {
    const id = document.querySelector("code.client-id").getBoundingClientRect();
    const card = document.querySelector(".consent").getBoundingClientRect();
    return { id: [id.left, id.right, id.width], card: [card.left, card.right], fits:
      id.left >= card.left && id.right <= card.right && id.width > 0 };
  });
  check(idInCard.fits, `${width}: the client id's box is inside its card: ${JSON.stringify(idInCard)}`);
  const h1 = await page.locator("h1").innerText();
  check(h1.includes(setup.clientHost), `${width}: the heading names the document's host: ${h1}`);
  check((await page.locator(".claimed-name").innerText()).includes("Claude Code"), "its own name, as its claim");
  check((await page.locator("dd.account").innerText()).includes(setup.accountName), "the account signed in as");
  check((await page.locator("dd.destination").innerText()).includes("an app on this computer"), "a loopback redirect");
  const granted = await page.locator("ul.scopes.granted li").allInnerTexts();
  check(granted.length === setup.meanings.length, `${width}: every scope: ${granted}`);
  for (const meaning of setup.meanings) {
    check(granted.some((g) => g.includes(meaning)), `${width}: in words: ${meaning}`);
  }
  // Allow is the emphasised action: filled with the accent colour, Deny is not.
  const styles = await page.evaluate(() => {
    const [allow, deny] = document.querySelectorAll("form.decision button");
    const bg = (e) => getComputedStyle(e).backgroundColor;
    const box = (e) => e.getBoundingClientRect();
    return { first: allow.value, allow: bg(allow), deny: bg(deny), allowBox: box(allow).width,
      inView: box(allow).right <= window.innerWidth && box(deny).right <= window.innerWidth };
  });
  check(styles.first === "approve", "Allow comes first in the form");
  check(styles.allow !== styles.deny && styles.allow !== "rgb(255, 255, 255)",
    `${width}: Allow is filled, Deny is not: ${JSON.stringify(styles)}`);
  check(styles.inView && styles.allowBox > 0, `${width}: both buttons are in view`);
  // Tab reaches Allow before Deny.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  let reached = null;
  for (let i = 0; i < 30 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => {
      const e = document.activeElement;
      return e && e.closest("form.decision") && e.tagName === "BUTTON" ? e.value : null;
    });
  }
  check(reached === "approve", `${width}: Tab reaches Allow first (reached ${reached})`);
}

try {
  const desktop = await consentAt(1280);
  await checkConsent(desktop, 1280);
  await shot(desktop, "consent-1280");
  step("consent at 1280");

  const phone = await consentAt(375);
  await checkConsent(phone, 375);
  await shot(phone, "consent-375");
  step("consent at 375");

  await Promise.all([desktop.waitForURL((u) => u.href.startsWith(setup.callback)), desktop.click("button.primary")]);
  const back = new URL(desktop.url());
  check(back.searchParams.get("code") && back.searchParams.get("state") === "st-123",
    "Allow sends the browser back with a code: " + desktop.url());
  step("allow sends the code back");

  await phone.goto(base + setup.wrongRedirect);
  await phone.waitForSelector(".problem");
  const sticking = await overflows(phone);
  check(sticking.length === 0, "the error page on a phone: " + sticking.join("; "));
  const sent = await phone.locator("code.sent-redirect").innerText();
  check(sent === "http://127.0.0.1:9/not-listed", "the error page shows the redirect URI sent: " + sent);
  check((await phone.locator("h1").innerText()).includes(setup.clientHost), "the error page names the client");
  await shot(phone, "consent-error-375");
  step("error page at 375");

  const signIn = await newPage(375);
  await signIn.goto(base + "/journal/sign-in");
  await signIn.waitForSelector("#key");
  const wide = await signIn.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(wide <= 0, "the sign-in page scrolls sideways on a phone: " + wide);
  check((await signIn.locator(".where-keys-come-from").innerText()).includes("admin create-key"),
    "the sign-in page says where a key comes from");
  await shot(signIn, "sign-in-375");
  step("sign-in at 375");

  console.log("consent: all steps passed");
} finally {
  await browser.close();
}
