/**
 * The browser suites' `test`: Playwright's, with every page waiting, after each navigation it
 * makes, for React to have taken the document and hydrated its controls (reactStarted()). A
 * person sees the page settle before tapping; a test would tap at once, and on a loaded CI
 * machine the `load` event can come before React has started. Documents without Next's scripts (a file, a PDF preview) are not waited for.
 */
import { test as base, type Browser, type BrowserContext, type Page } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Resolves once React has taken this page's document and hydrated its controls (each button,
 * select, input and text area carries React's props: a tap or a change reaches its handler), or
 * at once on a document Next.js did not render. A `change` made before its control hydrated is
 * not replayed by React (a browser test lost a select's change that way).
 */
export async function reactStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if (!document.querySelector('script[src*="/_next/static/"]')) return true;
    if (!Object.keys(document).some((key) => key.startsWith("__reactContainer$"))) return false;
    return [...document.querySelectorAll("button, select, input, textarea")].every((control) => Object.keys(control).some((key) => key.startsWith("__reactProps$")));
  });
}

const patched = new WeakSet<Page>();

function waitAfterNavigations(page: Page): void {
  if (patched.has(page)) return;
  patched.add(page);
  for (const method of ["goto", "reload", "goBack", "goForward"] as const) {
    const navigate = page[method].bind(page) as (...args: unknown[]) => ReturnType<Page["reload"]>;
    Object.assign(page, {
      [method]: async (...args: unknown[]) => {
        const response = await navigate(...args);
        // A navigation that ended on no page of ours (a download, about:blank) has nothing to wait for.
        if (response && (response.headers()["content-type"] ?? "").startsWith("text/html")) await reactStarted(page);
        return response;
      },
    });
  }
}

function watch(context: BrowserContext): BrowserContext {
  context.pages().forEach(waitAfterNavigations);
  context.on("page", waitAfterNavigations);
  return context;
}

export const test = base.extend<object, { browser: Browser }>({
  browser: [
    async ({ browser }, provide) => {
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      Object.assign(browser, {
        // A context that runs no script has no React to wait for.
        newContext: async (...args: Parameters<Browser["newContext"]>) => {
          const context = await newContext(...args);
          return args[0]?.javaScriptEnabled === false ? context : watch(context);
        },
        newPage: async (...args: Parameters<Browser["newPage"]>) => {
          const page = await newPage(...args);
          waitAfterNavigations(page);
          return page;
        },
      });
      await provide(browser);
    },
    { scope: "worker" },
  ],
  context: async ({ context }, provide) => {
    await provide(watch(context));
  },
});
