/**
 * A kept page's own chunks wait for the first contentful paint (src/server/kept-pages/
 * scripts-after-first-paint.ts): what the HTML loses and keeps, and what its loader does in a
 * browser-shaped sandbox (the page's scripts added only after the first paint and the pictures
 * in view are reported, at once where no report can come, after the fallback otherwise). The browser test in tests/e2e/phone.spec.ts
 * checks the same in Chromium.
 */
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { FALLBACK_MS, LOADER_ID, scriptsAfterFirstPaint, SETTLE_MS } from "@/server/kept-pages/scripts-after-first-paint";

const NONCE = "bm9uY2UtZm9yLXRlc3Q=";

/** The shape Next.js 16 renders a page in (trimmed): chunks in the head, the bootstrap in the body. */
const page = [
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><style data-precedence="next">body{color:red}</style>`,
  `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/boot.js"/>`,
  `<script src="/_next/static/chunks/a.js" async="" nonce="${NONCE}"></script>`,
  `<script src="/_next/static/chunks/turbopack-b.js" async="" nonce="${NONCE}"></script>`,
  `<link rel="manifest" href="/manifest.webmanifest"/><link rel="preload" as="image" href="/catalogue/a.svg"/>`,
  `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>`,
  `<script src="https://example.com/widget.js" async=""></script>`,
  `</head><body><main><h1>Our World</h1><p>Hello</p></main>`,
  `<script src="/_next/static/chunks/boot.js" nonce="${NONCE}" async=""></script>`,
  `<script nonce="${NONCE}">self.__next_f.push([1,"\\u003cscript src=\\"/_next/static/chunks/x.js\\" async\\u003e"])</script>`,
  `</body></html>`,
].join("");

function loaderCode(html: string): string {
  const match = new RegExp(`<script id="${LOADER_ID}" nonce="${NONCE}">(.*?)</script>`).exec(html);
  if (!match) throw new Error("no loader in the page");
  return match[1]!;
}

interface Picture {
  complete: boolean;
  box: { top: number; left: number; width: number; height: number };
  listeners: Map<string, () => void>;
}

interface Sandbox {
  added: { src: string; async: boolean; asyncAttribute: boolean; nonce: string }[];
  /** Reports a paint entry (`first-paint`, `first-contentful-paint`) to the page's observers. */
  reportPaint: (name: string) => void;
  /** Reports a largest-contentful-paint entry at the sandbox's current time. */
  reportLargestPaint: () => void;
  /** Fires a picture's `load` (or `error`) event. */
  finish: (picture: Picture, event?: "load" | "error") => void;
  hide: () => void;
  runTimers: (ms: number) => void;
}

/** A picture on the page, in view unless placed elsewhere, not yet loaded unless said. */
function picture(options: { top?: number; complete?: boolean; width?: number } = {}): Picture {
  return { complete: options.complete ?? false, box: { top: options.top ?? 100, left: 0, width: options.width ?? 180, height: 135 }, listeners: new Map() };
}

/** Runs the loader as a browser would, with a document, Paint Timing, pictures and timers the test drives. */
function runLoader(html: string, options: { visibility?: "visible" | "hidden"; paintTiming?: boolean; pictures?: Picture[] } = {}): Sandbox {
  const added: Sandbox["added"] = [];
  const observers: { type: string; callback: (list: { getEntries: () => unknown[] }) => void }[] = [];
  const listeners: (() => void)[] = [];
  const timers: { at: number; run: () => void }[] = [];
  let clock = 0;
  const images = (options.pictures ?? []).map((p) => ({
    get complete() {
      return p.complete;
    },
    getBoundingClientRect: () => ({ ...p.box, bottom: p.box.top + p.box.height, right: p.box.left + p.box.width }),
    addEventListener: (type: string, listener: () => void) => p.listeners.set(type, listener),
  }));
  const document = {
    visibilityState: options.visibility ?? "visible",
    currentScript: { nonce: NONCE },
    images,
    createElement: () => {
      const attributes = new Set<string>();
      return { src: "", async: false, nonce: "", setAttribute: (name: string) => attributes.add(name), attributes };
    },
    head: {
      appendChild: (script: { src: string; async: boolean; nonce: string; attributes: Set<string> }) =>
        added.push({ src: script.src, async: script.async, asyncAttribute: script.attributes.has("async"), nonce: script.nonce }),
    },
    addEventListener: (type: string, listener: () => void) => type === "visibilitychange" && listeners.push(listener),
  };
  class PerformanceObserver {
    static supportedEntryTypes = options.paintTiming === false ? ["navigation"] : ["navigation", "paint", "largest-contentful-paint"];
    constructor(private readonly callback: (list: { getEntries: () => unknown[] }) => void) {}
    observe(init: { type: string; buffered: boolean }) {
      expect(init.buffered).toBe(true);
      observers.push({ type: init.type, callback: this.callback });
    }
  }
  const report = (type: string, entry: object) => observers.filter((o) => o.type === type).forEach((o) => o.callback({ getEntries: () => [entry] }));
  const window = { PerformanceObserver };
  const setTimeout = (run: () => void, ms: number) => timers.push({ at: clock + ms, run });
  const performance = { now: () => clock };
  vm.runInNewContext(loaderCode(html), { window, document, PerformanceObserver, setTimeout, performance, innerWidth: 390, innerHeight: 844 });
  return {
    added,
    reportPaint: (name) => report("paint", { name, startTime: clock }),
    reportLargestPaint: () => report("largest-contentful-paint", { startTime: clock }),
    finish: (p, event = "load") => {
      p.complete = true;
      p.listeners.get(event)?.();
    },
    hide: () => {
      document.visibilityState = "hidden";
      listeners.forEach((listener) => listener());
    },
    runTimers: (ms) => {
      clock += ms;
      for (const timer of timers.filter((t) => t.at <= clock)) timer.run();
    },
  };
}

const chunks = ["/_next/static/chunks/a.js", "/_next/static/chunks/turbopack-b.js", "/_next/static/chunks/boot.js"];

describe("a kept page's scripts after its first paint", () => {
  const html = scriptsAfterFirstPaint(page, NONCE);

  it("takes the build's async chunks and their preload out of the HTML, and nothing else", () => {
    for (const chunk of chunks) {
      expect(html).not.toContain(`<script src="${chunk}"`);
      expect(html).not.toContain(`href="${chunk}"`);
    }
    // Kept: the polyfills modern browsers skip, a script from elsewhere, the flight data, the page.
    expect(html).toContain(`<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>`);
    expect(html).toContain(`<script src="https://example.com/widget.js" async=""></script>`);
    expect(html).toContain(`self.__next_f.push([1,"\\u003cscript src=\\"/_next/static/chunks/x.js\\" async\\u003e"])`);
    expect(html).toContain(`<link rel="manifest" href="/manifest.webmanifest"/><link rel="preload" as="image" href="/catalogue/a.svg"/>`);
    expect(html).toContain("<main><h1>Our World</h1><p>Hello</p></main>");
    // The loader is the head's last element and carries the page's nonce.
    expect(html).toMatch(new RegExp(`<script id="${LOADER_ID}" nonce="${NONCE}">[^<]*</script></head>`));
  });

  it("adds nothing before the first contentful paint, then (no picture in view waiting) every chunk once, async, with the nonce", () => {
    const browser = runLoader(html, { pictures: [picture({ top: 900 }), picture({ complete: true })] });
    expect(browser.added).toEqual([]);
    browser.reportPaint("first-paint");
    expect(browser.added).toEqual([]);
    browser.reportPaint("first-contentful-paint");
    expect(browser.added).toEqual(chunks.map((src) => ({ src, async: true, asyncAttribute: true, nonce: NONCE })));
    browser.reportPaint("first-contentful-paint");
    browser.runTimers(FALLBACK_MS);
    browser.hide();
    expect(browser.added).toHaveLength(chunks.length);
  });

  it("adds them at once where no paint will be reported: a page loaded hidden, a browser without Paint Timing", () => {
    expect(runLoader(html, { visibility: "hidden" }).added.map((script) => script.src)).toEqual(chunks);
    expect(runLoader(html, { paintTiming: false }).added.map((script) => script.src)).toEqual(chunks);
  });

  it("adds them when the page is hidden before it paints, or after the fallback", () => {
    const hidden = runLoader(html);
    hidden.hide();
    expect(hidden.added).toHaveLength(chunks.length);
    const unpainted = runLoader(html);
    unpainted.runTimers(FALLBACK_MS - 1);
    expect(unpainted.added).toEqual([]);
    unpainted.runTimers(1);
    expect(unpainted.added).toHaveLength(chunks.length);
  });

  it("waits for the pictures in view to load and be reported as the largest paint", () => {
    const product = picture();
    const browser = runLoader(html, { pictures: [product, picture({ top: 2000 }), picture({ complete: true }), picture({ width: 0 })] });
    browser.reportPaint("first-contentful-paint");
    browser.runTimers(50);
    // A largest paint before the picture has loaded is the text's: not yet.
    browser.reportLargestPaint();
    expect(browser.added).toEqual([]);
    browser.runTimers(200);
    browser.finish(product);
    expect(browser.added).toEqual([]);
    browser.runTimers(16);
    browser.reportLargestPaint();
    expect(browser.added.map((script) => script.src)).toEqual(chunks);
  });

  it("adds the chunks SETTLE_MS after the pictures loaded when none is reported (smaller than the text), and counts a broken picture as loaded", () => {
    const [first, second] = [picture(), picture({ top: 300 })];
    const browser = runLoader(html, { pictures: [first!, second!] });
    browser.reportPaint("first-contentful-paint");
    browser.finish(first!);
    browser.finish(second!, "error");
    browser.runTimers(SETTLE_MS - 1);
    expect(browser.added).toEqual([]);
    browser.runTimers(1);
    expect(browser.added).toHaveLength(chunks.length);
  });

  it("leaves a page without the build's async chunks, or without a head, as it was", () => {
    const plain = `<html><head><script src="/_next/static/chunks/sync.js"></script></head><body>Hi</body></html>`;
    expect(scriptsAfterFirstPaint(plain, NONCE)).toBe(plain);
    const headless = `<p>Not a page</p><script src="/_next/static/chunks/a.js" async=""></script>`;
    expect(scriptsAfterFirstPaint(headless, NONCE)).toBe(headless);
  });

  it("writes no `<` into its own script, whatever a chunk is called", () => {
    const odd = page.replace("/_next/static/chunks/a.js", "/_next/static/chunks/a<!--b.js");
    const code = loaderCode(scriptsAfterFirstPaint(odd, NONCE));
    expect(code).not.toContain("<");
    expect(runLoader(scriptsAfterFirstPaint(odd, NONCE), { visibility: "hidden" }).added[0]?.src).toBe("/_next/static/chunks/a<!--b.js");
  });
});
