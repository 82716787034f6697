/**
 * LCP, CLS and TBT of a page as a phone on a slow CPU sees it: Debian's Chromium through
 * Playwright, mobile emulation (Moto G4), 4x CPU slowdown, a cold cache each run, the web-vitals
 * library for LCP and CLS, long tasks after first paint for TBT. Median of `runs`.
 */
import fs from "node:fs";
import { chromium, devices } from "@playwright/test";

export interface Vitals {
  route: string;
  lcp: number;
  cls: number;
  tbt: number;
}

const WEB_VITALS = "node_modules/web-vitals/dist/web-vitals.iife.js";

const collector = `
  window.__vitals = { lcp: 0, cls: 0, longTasks: [], fcp: 0 };
  addEventListener("DOMContentLoaded", () => {
    webVitals.onLCP((m) => { window.__vitals.lcp = m.value; }, { reportAllChanges: true });
    webVitals.onCLS((m) => { window.__vitals.cls = m.value; }, { reportAllChanges: true });
    webVitals.onFCP((m) => { window.__vitals.fcp = m.value; });
  });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__vitals.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A route to measure, signed in when `cookie` is given; `label` names it in the results (the route by default). */
export interface VitalsRoute {
  route: string;
  cookie?: string;
  label?: string;
}

export async function measureVitals(baseUrl: string, routes: VitalsRoute[], runs = 5): Promise<Vitals[]> {
  const browser = await chromium.launch({
    executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const results: Vitals[] = [];
  try {
    for (const { route, cookie, label } of routes) {
      const samples: Omit<Vitals, "route">[] = [];
      for (let run = 0; run < runs; run++) {
        const context = await browser.newContext({ ...devices["Moto G4"] });
        if (cookie) {
          const [name, ...value] = cookie.split("=");
          await context.addCookies([{ name: name!, value: value.join("="), url: baseUrl }]);
        }
        // One init script: Playwright scopes each, so the library's global is passed on explicitly.
        await context.addInitScript(`${fs.readFileSync(WEB_VITALS, "utf8")};\nwindow.webVitals = webVitals;\n${collector}`);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await page.goto(new URL(route, baseUrl).toString(), { waitUntil: "load" });
        await page.waitForTimeout(3_000);
        const vitals = await page.evaluate(() => {
          const v = (window as unknown as { __vitals: { lcp: number; cls: number; fcp: number; longTasks: [number, number][] } }).__vitals;
          const tbt = v.longTasks
            .filter(([start]) => start >= v.fcp)
            .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
          return { lcp: v.lcp, cls: v.cls, tbt };
        });
        samples.push(vitals);
        await context.close();
      }
      results.push({
        route: label ?? route,
        lcp: median(samples.map((s) => s.lcp)),
        cls: median(samples.map((s) => s.cls)),
        tbt: median(samples.map((s) => s.tbt)),
      });
    }
  } finally {
    await browser.close();
  }
  return results;
}
