/**
 * What a person on a phone gets, measured in a real browser rather than estimated: Debian's
 * Chromium through Playwright with the network and CPU throttled through CDP (150 ms round trip,
 * 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower), 390 × 844, touch, a cold cache every load.
 * Per page: first contentful paint, largest contentful paint (PerformanceObserver), and "first
 * tap handled": from navigation start, when a tap on a control first takes effect (the header's
 * menu opens; a product card's Add to Cart answers). Taps go in every TAP_EVERY_MS from the
 * moment the control is in the HTML, as an impatient person's would. Then, once the page is
 * ready, the delay from a tap to the next paint (the Event Timing API's duration, what INP is
 * made of). Rounds are interleaved over the pages, so the machine's load falls on all alike.
 *
 * Every load starts, as a visitor's does, from another site's page (a one-line page on
 * 127.0.0.1, a different site from the pages' `localhost`): Chromium gives the page a renderer of
 * its own, whichever headers it sends. From a blank tab (`REAL_DEVICE_START=blank`, the measure
 * before 2026-11-28) a page without `Cross-Origin-Opener-Policy` reuses the blank tab's renderer
 * and a page with it (the shop) does not, which no visitor's tab sees: it cost the shop about
 * 140 ms of first paint against the bare page in this lab (BENCHMARKS.md, 2026-11-27).
 *
 * The browser and the servers share this machine's two cores, which a phone and a shop's server
 * never do: CDP's CPU throttling keeps the page's main thread busy three quarters of the time,
 * work or none (./throttle-cost.ts), and the rest of the browser (compiling, decoding, raster in
 * software: no GPU here), the servers and the bench share what is left. Each untapped load
 * therefore reports how long the machine held a process up ("held up"): a one-line HTTP server
 * in a process of its own is asked for a byte every PROBE_EVERY_MS through the load, and every
 * answer's time beyond PROBE_SLACK_MS is summed. It
 * reads the same for any page's server, so a round where it is large is one where the machine,
 * not the page, set the figures (BENCHMARKS.md, 2026-11-29, fourth session).
 *
 * Standalone: `npx tsx scripts/bench/real-device.ts` (after `npm run build`) starts a fresh
 * embedded shop and the bare Next.js page (scripts/bench/baseline), measures them side by side
 * and prints the table; `REAL_DEVICE_ROUNDS` (default 5). `npm run bench` runs it too.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from "@playwright/test";

/**
 * The phone's network and CPU. `REAL_DEVICE_CPU_SLOWDOWN=1` leaves the CPU alone (the network
 * stays throttled): without CDP's CPU throttling the page's main thread holds no core while idle
 * (./throttle-cost.ts), so it shows how much of a ratio this machine's two cores made.
 */
export const THROTTLING = { latencyMs: 150, downloadKbps: 1600, uploadKbps: 750, cpuSlowdown: Number(process.env.REAL_DEVICE_CPU_SLOWDOWN ?? 4) } as const;
const TAP_EVERY_MS = 50;
/**
 * Each load starts this long after the one before it ended, so that what the last load left the
 * servers to do (a page it asked for as it closed, the sign-in page a tap went to) is done: a
 * visitor arrives at a shop that is not busy with the bench's previous visitor. Without it the
 * shop's HTML waited 600–1,900 ms behind the previous load's prefetches, and in a before/after
 * pair one build's leftovers landed on the other's load.
 */
export const SETTLE_MS = 1_500;
/** The hold-up probe: how often it asks, and the answer time that counts as not held up. */
const PROBE_EVERY_MS = 25;
const PROBE_SLACK_MS = 20;
/** A load whose tap never takes effect within this is reported as not handled. */
const GIVE_UP_MS = 20_000;

/** A control to tap, and how the page shows that the tap took effect (evaluated in the page). */
export interface TapTarget {
  name: string;
  selector: string;
  /**
   * How the page shows it: the menu the control names (`aria-controls`) is shown, or a message
   * appears beside it. What a person sees, whether React or the browser itself (an HTML popover)
   * opened the menu. Whatever the effect, a tap that sends the page elsewhere (a form to the
   * sign-in page) took effect when the browser set off.
   */
  effect: "menu shown" | "message";
}

export const MENU: TapTarget = {
  name: "menu",
  selector: 'button[aria-controls="site-menu"]',
  effect: "menu shown",
};

/** A card's Add to Cart: a visitor is taken to the sign-in page, a customer told that it was added. */
export const ADD_TO_CART: TapTarget = {
  name: "add to cart",
  selector: "main button:has-text('Add to Cart')",
  effect: "message",
};

export interface RealDevicePage {
  label: string;
  url: string;
  targets: TapTarget[];
  /** `Cookie` header of a signed-in user, if the page is measured signed in. */
  cookie?: string;
}

export interface RealDeviceSample {
  /** The HTML's first byte (Navigation Timing responseStart), ms from navigation start. */
  ttfb: number;
  fcp: number;
  lcp: number;
  /** Per target name: ms from navigation start to the tap that took effect (NaN: never within GIVE_UP_MS). */
  firstTap: Record<string, number>;
  /** The longest tap-to-next-paint once the page was ready (Event Timing duration), ms. */
  tapToPaint: number;
  /** How long the machine held the probe's process up during the untapped load, ms (summed). */
  heldUp: number;
}

export interface RealDeviceResult {
  label: string;
  samples: RealDeviceSample[];
  ttfb: number;
  fcp: number;
  lcp: number;
  /** Largest paint less the HTML's first byte, per load: the browser's part, without the server's. */
  lcpAfterHtml: number;
  firstTap: Record<string, number>;
  tapToPaint: number;
  heldUp: number;
}

const OBSERVERS = `
  window.__rd = { lcp: 0, events: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__rd.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) window.__rd.events.push(e.duration);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
`;

/** The bare Next.js page's app (one static page, one menu button): the floor of every comparison. */
export const BASELINE_DIR = "scripts/bench/baseline";

/** Builds the bare page's app unless it is built already, or again if `force`. */
export async function buildBaseline(force = false): Promise<void> {
  if (!force && fs.existsSync(path.join(BASELINE_DIR, ".next", "BUILD_ID"))) return;
  console.log("[bench] building the Next.js baseline");
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build", BASELINE_DIR], { stdio: "inherit" });
  if ((await new Promise((resolve) => child.once("exit", resolve))) !== 0) throw new Error("the baseline build failed");
}

export function median(values: number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const middle = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[middle]! : (finite[middle - 1]! + finite[middle]!) / 2;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined),
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

export async function phoneContext(browser: Browser, baseUrl: string, cookie?: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
  });
  if (cookie) {
    for (const pair of cookie.split(/;\s*/)) {
      const [name, ...value] = pair.split("=");
      if (name) await context.addCookies([{ name, value: value.join("="), url: baseUrl }]);
    }
  }
  await context.addInitScript(OBSERVERS);
  return context;
}

export async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: (THROTTLING.downloadKbps * 1000) / 8,
    uploadThroughput: (THROTTLING.uploadKbps * 1000) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: THROTTLING.cpuSlowdown });
}

/** Taps the target's centre through CDP (as a finger would, no waiting for the page) until it takes effect. */
async function firstTapHandled(page: Page, cdp: CDPSession, target: TapTarget, navigationStarted: number): Promise<number> {
  const element = page.locator(target.selector).first();
  await element.waitFor({ state: "attached", timeout: GIVE_UP_MS });
  // A visitor's Add to Cart is a form to the sign-in page: it took effect when the browser set
  // off there (wall clock, turned into the page's own by its time origin).
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  const firstUrl = page.url();
  let navigatedAt: number | null = null;
  page.on("request", (request) => {
    if (navigatedAt === null && request.isNavigationRequest() && request.frame() === page.mainFrame() && request.url() !== firstUrl) navigatedAt = Date.now();
  });
  for (;;) {
    if (navigatedAt !== null) return navigatedAt - timeOrigin;
    const box = await element.boundingBox({ timeout: 1_000 }).catch(() => null);
    if (box) {
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    }
    // The page's own clock: when the effect is seen, relative to its navigation start.
    // (A fixed function, not code built from a string: the shop's CSP allows no eval.)
    const seen = await element.evaluate((node, effect) => {
      const took =
        effect === "menu shown"
          ? Boolean(document.getElementById(node.getAttribute("aria-controls") ?? "")?.checkVisibility())
          : Boolean(node.parentElement?.closest("div")?.querySelector("[role=status], [role=alert]")?.textContent?.trim());
      return took ? performance.now() : null;
    }, target.effect, { timeout: 1_000 }).catch(() => null); // the page left for the sign-in page meanwhile
    if (seen !== null) return seen;
    if (navigatedAt !== null) return navigatedAt - timeOrigin;
    if (Date.now() - navigationStarted > GIVE_UP_MS) return Number.NaN;
    await page.waitForTimeout(TAP_EVERY_MS);
  }
}

/**
 * Starts the hold-up probe's server: a process of its own that answers every request at once.
 * `during(work)` runs `work` while asking it every PROBE_EVERY_MS, and returns what `work` gave
 * with the ms the answers took beyond PROBE_SLACK_MS, summed.
 */
async function startHoldUpProbe(): Promise<{ during: <T>(work: () => Promise<T>) => Promise<[T, number]>; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ["-e", "const s=require('node:http').createServer((q,r)=>r.end('.')).listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(Number(String(data).trim())));
    child.once("exit", () => reject(new Error("the hold-up probe's server did not start")));
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = () =>
    new Promise<void>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/", agent }, (response) => response.resume().once("end", resolve)).once("error", reject);
    });
  return {
    during: async (work) => {
      let asking = true;
      let heldUp = 0;
      const asker = (async () => {
        while (asking) {
          const sent = performance.now();
          await ask();
          heldUp += Math.max(0, performance.now() - sent - PROBE_SLACK_MS);
          await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
        }
      })();
      try {
        return [await work(), heldUp];
      } finally {
        asking = false;
        await asker;
      }
    },
    close: async () => {
      agent.destroy();
      child.kill();
    },
  };
}

/** Where each load starts from: another site's page (the default) or a blank tab. */
export type StartFrom = { kind: "another site"; url: string } | { kind: "blank" };

/**
 * Serves the page a visitor comes from (a link to the shop, as a search result is) on 127.0.0.1,
 * another site than `localhost` to Chromium. Close it when done.
 */
export async function startAnotherSite(): Promise<{ start: StartFrom; close: () => Promise<void> }> {
  if (process.env.REAL_DEVICE_START === "blank") return { start: { kind: "blank" }, close: async () => {} };
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end("<!doctype html><title>Search</title><p>A search result page.</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    start: { kind: "another site", url: `http://127.0.0.1:${port}/` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Probe = Awaited<ReturnType<typeof startHoldUpProbe>>;

async function measureOnce(browser: Browser, page: RealDevicePage, baseUrl: string, target: TapTarget | null, start: StartFrom, probe: Probe): Promise<Partial<RealDeviceSample> & { tap?: [string, number] }> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const context = await phoneContext(browser, baseUrl, page.cookie);
  try {
    const tab = await context.newPage();
    if (start.kind === "another site") await tab.goto(start.url);
    const cdp = await context.newCDPSession(tab);
    await throttle(cdp);
    const started = Date.now();
    const result: Partial<RealDeviceSample> & { tap?: [string, number] } = {};
    if (target) {
      await tab.goto(page.url, { waitUntil: "commit" });
      result.tap = [target.name, await firstTapHandled(tab, cdp, target, started)];
      await tab.waitForLoadState("load");
    } else {
      // The untapped load, from navigation to the load event, with the hold-up probe asking.
      [, result.heldUp] = await probe.during(() => tab.goto(page.url, { waitUntil: "load" }));

      // Ready: loaded and the main thread quiet; then one tap on the menu, twice (open, close).
      await tab.waitForTimeout(2_000);
      const box = await tab.locator(MENU.selector).first().boundingBox();
      if (box) {
        for (let i = 0; i < 2; i++) {
          await tab.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
          await tab.waitForTimeout(500);
        }
      }
    }
    const vitals = await tab.evaluate(() => {
      const rd = (window as unknown as { __rd: { lcp: number; events: number[] } }).__rd;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      return { ttfb: navigation?.responseStart ?? Number.NaN, fcp, lcp: rd.lcp || fcp, tapToPaint: rd.events.length ? Math.max(...rd.events) : 0 };
    });
    result.fcp = vitals.fcp;
    result.ttfb = vitals.ttfb;
    // A tap ends LCP's observation, so the tap loads' LCP can be early: only the untapped load's counts.
    if (!target) {
      result.lcp = vitals.lcp;
      result.tapToPaint = vitals.tapToPaint;
    }
    return result;
  } finally {
    await context.close();
  }
}

/**
 * Each round loads every page once per tap target and once more untapped (FCP, LCP, tap to
 * paint), interleaving pages within the round. Medians over rounds.
 */
export async function measureRealDevice(pages: RealDevicePage[], rounds = 5, log: (line: string) => void = () => {}): Promise<RealDeviceResult[]> {
  const browser = await launchChromium();
  const anotherSite = await startAnotherSite();
  const probe = await startHoldUpProbe();
  const samples = new Map<string, RealDeviceSample[]>(pages.map((page) => [page.label, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const page of pages) {
        const baseUrl = new URL(page.url).origin;
        const sample: RealDeviceSample = { ttfb: Number.NaN, fcp: Number.NaN, lcp: Number.NaN, firstTap: {}, tapToPaint: Number.NaN, heldUp: Number.NaN };
        const plain = await measureOnce(browser, page, baseUrl, null, anotherSite.start, probe);
        Object.assign(sample, { ttfb: plain.ttfb, fcp: plain.fcp, lcp: plain.lcp, tapToPaint: plain.tapToPaint, heldUp: plain.heldUp });
        for (const target of page.targets) {
          const tapped = await measureOnce(browser, page, baseUrl, target, anotherSite.start, probe);
          if (tapped.tap) sample.firstTap[tapped.tap[0]] = tapped.tap[1];
        }
        samples.get(page.label)!.push(sample);
        log(`[real-device] round ${round + 1}/${rounds} ${page.label}: HTML ${sample.ttfb.toFixed(0)} FCP ${sample.fcp.toFixed(0)} LCP ${sample.lcp.toFixed(0)} ${Object.entries(sample.firstTap).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(" ")} tap→paint ${sample.tapToPaint.toFixed(0)} held up ${sample.heldUp.toFixed(0)}`);
      }
    }
  } finally {
    await browser.close();
    await anotherSite.close();
    await probe.close();
  }
  return pages.map((page) => {
    const list = samples.get(page.label)!;
    const names = [...new Set(list.flatMap((s) => Object.keys(s.firstTap)))];
    return {
      label: page.label,
      samples: list,
      ttfb: median(list.map((s) => s.ttfb)),
      fcp: median(list.map((s) => s.fcp)),
      lcp: median(list.map((s) => s.lcp)),
      lcpAfterHtml: median(list.map((s) => s.lcp - s.ttfb)),
      firstTap: Object.fromEntries(names.map((name) => [name, median(list.map((s) => s.firstTap[name] ?? Number.NaN))])),
      tapToPaint: median(list.map((s) => s.tapToPaint)),
      heldUp: median(list.map((s) => s.heldUp)),
    };
  });
}

/** A markdown table, each figure with its ratio to the first row's (the bare Next.js page). */
export function realDeviceTable(results: RealDeviceResult[]): string[] {
  const [floor] = results;
  const ratio = (value: number, base: number | undefined) => (base && Number.isFinite(value) && base > 0 && results[0] ? ` (${(value / base).toFixed(2)}×)` : "");
  const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : "not handled");
  const lines = [
    `Real Chromium, throttled through CDP (${THROTTLING.latencyMs} ms RTT, ${THROTTLING.downloadKbps / 1000} Mbit/s down, ${THROTTLING.uploadKbps} kbit/s up, CPU ${THROTTLING.cpuSlowdown}×), 390 × 844 touch, cold, each load from ${process.env.REAL_DEVICE_START === "blank" ? "a blank tab" : "another site's page"}, medians of ${floor?.samples.length ?? 0} interleaved rounds; ratios to the first row:`,
    "",
    "| page | HTML's first byte | FCP | LCP | LCP after the first byte | first tap handled: menu | first tap handled: Add to Cart | tap to next paint (ready) | machine held up during the load |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const result of results) {
    const menu = result.firstTap[MENU.name] ?? Number.NaN;
    const add = result.firstTap[ADD_TO_CART.name];
    // A figure, and for every page but the bare one its ratio to the bare page's.
    const vs = (value: number, base: number | undefined) => `${ms(value)}${result === floor ? "" : ratio(value, base)}`;
    lines.push(
      `| ${result.label} | ${ms(result.ttfb)} | ${vs(result.fcp, floor?.fcp)} | ${vs(result.lcp, floor?.lcp)} | ${vs(result.lcpAfterHtml, floor?.lcpAfterHtml)} | ${vs(menu, floor?.firstTap[MENU.name])} | ${add === undefined ? "–" : ms(add)} | ${ms(result.tapToPaint)} | ${ms(result.heldUp)} |`,
    );
  }
  return lines;
}

/** The pages of the comparison: the bare Next.js page first (the floor), then the shop's four. */
export function realDevicePages(shopUrl: string, baselineUrl: string, productId: string, cookie?: string, suffix = ""): RealDevicePage[] {
  return [
    { label: "Next.js alone (one menu button)", url: `${baselineUrl}/`, targets: [MENU] },
    { label: `/${suffix}`, url: `${shopUrl}/`, targets: [MENU], cookie },
    { label: `/products${suffix}`, url: `${shopUrl}/products`, targets: [MENU, ADD_TO_CART], cookie },
    { label: `/products/{id}${suffix}`, url: `${shopUrl}/products/${productId}`, targets: [MENU, ADD_TO_CART], cookie },
    { label: `/about${suffix}`, url: `${shopUrl}/about`, targets: [MENU], cookie },
  ];
}
