import fs from "node:fs";

/** Debian's Chromium on these machines; elsewhere set CHROMIUM_PATH or leave it to Playwright. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
}

/** How both browser suites launch Chromium (headless, as these machines need it). */
export const chromiumLaunch = {
  executablePath: chromiumPath(),
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
};
