// What the browser scripts share: the setup their Rust test passes as JSON in
// N8V_BROWSER_SETUP (with where playwright-core and chromium are, and the screenshots'
// directory), the step and check reporting ("ok <step>"; a failed check throws, and the script
// exits non-zero), Debian's headless Chromium, and full-page screenshots.
import { createRequire } from "node:module";
import { mkdirSync } from "node:fs";

export const setup = JSON.parse(process.env.N8V_BROWSER_SETUP);
const require = createRequire(setup.modules + "/");
const { chromium } = require("playwright-core");
mkdirSync(setup.shots, { recursive: true });

export const step = (name) => console.log("ok " + name);
export function check(condition, message) {
  if (!condition) throw new Error("check failed: " + message);
}

export const launch = () => chromium.launch({
  executablePath: setup.chromium,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});

export const shot = (page, name) => page.screenshot({ path: `${setup.shots}/${name}.png`, fullPage: true });
