/**
 * Lighthouse's mobile profile on a page, as the issue measured it: the `lighthouse` npm package
 * driving Debian's Chromium (headless, through chrome-launcher), Lighthouse's default config
 * (a Moto G Power-sized screen, simulated slow 4G, 4× CPU slow-down), the performance and best
 * practices categories. Each page `runs` times (each run a fresh profile and a cold cache); the
 * median of each figure is reported, and the runs themselves are kept for the JSON.
 *
 * Standalone: `npx tsx scripts/bench/lighthouse.ts http://localhost:3500/ /products …` measures a
 * server that is already running (the first argument is the origin, the others are paths).
 */
import fs from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { Audit, type Artifacts, type Config } from "lighthouse";
import { LanternLargestContentfulPaint } from "lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js";

export interface LighthouseRun {
  performance: number;
  bestPractices: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  /** Whether Chrome's back/forward cache audit passed (null: not applicable). */
  bfcache: boolean | null;
  /** The LCP element's selector and what Lighthouse said kept the page from the bfcache, if anything. */
  lcpElement: string | null;
  bfcacheFailures: string[];
  /** The best-practices audits that failed, by id. */
  failedBestPractices: string[];
  /**
   * The requests Lighthouse's LCP estimate counted (its optimistic graph's, by path): what the
   * simulated largest paint waited for. Scripts here mean they arrived or ran before the paint
   * in the recorded load (BENCHMARKS.md, issue 28).
   */
  lcpRequests: string[];
}

export interface LighthouseResult extends Omit<LighthouseRun, "lcpElement" | "bfcacheFailures" | "failedBestPractices" | "bfcache" | "lcpRequests"> {
  route: string;
  /** How many of the runs passed the bfcache audit. */
  bfcachePassed: number;
  runs: LighthouseRun[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
}

interface AuditDetails {
  items?: { type?: string; selector?: string; reason?: string; failureType?: string }[];
}

async function runOnce(url: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "best-practices"] });
    if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
    const { lhr, artifacts } = result;
    if (lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id];
    const value = (id: string) => audit(id)?.numericValue ?? Number.NaN;
    // The LCP element is the node item of the LCP breakdown insight (Lighthouse 13).
    const lcpDetails = audit("lcp-breakdown-insight")?.details as AuditDetails | undefined;
    const lcpElement = lcpDetails?.items?.find((item) => item.type === "node")?.selector ?? null;
    const bf = audit("bf-cache");
    const bfItems = ((bf?.details as AuditDetails | undefined)?.items ?? []).map((item) => `${item.reason ?? "?"} (${item.failureType ?? "?"})`);
    const practices = lhr.categories["best-practices"];
    const failedBestPractices = (practices?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
    return {
      performance: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
      bestPractices: Math.round((practices?.score ?? Number.NaN) * 100),
      lcp: value("largest-contentful-paint"),
      fcp: value("first-contentful-paint"),
      tbt: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      bfcache: bf?.score === null || bf?.score === undefined ? null : bf.score === 1,
      lcpElement,
      bfcacheFailures: bfItems,
      failedBestPractices,
      lcpRequests: await lcpRequests(artifacts, lhr.configSettings),
    };
  } finally {
    chrome.kill();
  }
}

/** The network requests of Lighthouse's own LCP estimate (computed again from the run's trace, as its audit does). */
async function lcpRequests(artifacts: Artifacts, settings: Config.Settings): Promise<string[]> {
  // The computed-artifact context Lighthouse's audits get: a cache and the run's settings.
  const context = { computedCache: new Map(), settings } as unknown as Parameters<typeof LanternLargestContentfulPaint.request>[1];
  const estimate = await LanternLargestContentfulPaint.request(Audit.makeMetricComputationDataInput(artifacts, context), context);
  const paths: string[] = [];
  estimate.optimisticGraph.traverse((node) => {
    if (node.type === "network") paths.push(new URL(node.request.url).pathname);
  });
  return paths;
}

/**
 * One run, tried again (up to twice) when Lighthouse reports that it could not record the page
 * load itself (a runtime error such as NO_NAVSTART, which its message says to run again): that
 * is the tool's failure, not the page's, and a run that recorded nothing has no figures to keep.
 */
async function recordedRun(url: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(error.message)) throw error;
      console.warn(`[bench] ${error.message}: running it again`);
    }
  }
}

/** Lighthouse's mobile run, `runs` times per route, in turn (one Chromium at a time). */
export async function measureLighthouse(baseUrl: string, routes: { route: string; label?: string }[], runs = 3): Promise<LighthouseResult[]> {
  const results: LighthouseResult[] = [];
  for (const { route, label } of routes) {
    const samples: LighthouseRun[] = [];
    for (let run = 0; run < runs; run++) samples.push(await recordedRun(new URL(route, baseUrl).toString()));
    const of = (key: "performance" | "bestPractices" | "lcp" | "fcp" | "tbt" | "cls") => median(samples.map((sample) => sample[key]));
    results.push({
      route: label ?? route,
      performance: of("performance"),
      bestPractices: of("bestPractices"),
      lcp: of("lcp"),
      fcp: of("fcp"),
      tbt: of("tbt"),
      cls: of("cls"),
      bfcachePassed: samples.filter((sample) => sample.bfcache === true).length,
      runs: samples,
    });
  }
  return results;
}

/** The results as a Markdown table (figures are medians; bfcache is passes of runs). */
export function lighthouseTable(results: LighthouseResult[]): string[] {
  const lines = ["| Page | perf | LCP | FCP | TBT | CLS | best practices | bfcache audit |", "|---|---:|---:|---:|---:|---:|---:|---|"];
  for (const r of results) {
    lines.push(
      `| ${r.route} | ${r.performance} | ${(r.lcp / 1000).toFixed(2)} s | ${(r.fcp / 1000).toFixed(2)} s | ${r.tbt.toFixed(0)} ms | ${r.cls.toFixed(3)} | ${r.bestPractices} | ${r.bfcachePassed}/${r.runs.length} passed |`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [origin, ...paths] = process.argv.slice(2);
  if (!origin) {
    console.error("usage: npx tsx scripts/bench/lighthouse.ts <origin> [path …]");
    process.exit(2);
  }
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const results = await measureLighthouse(origin, (paths.length ? paths : ["/"]).map((route) => ({ route })), runs);
  console.log(lighthouseTable(results).join("\n"));
  for (const r of results) {
    for (const run of r.runs) {
      console.log(`${r.route}: LCP ${run.lcp.toFixed(0)} ms on ${run.lcpElement}, waiting for ${run.lcpRequests.join(" ")}; bfcache ${run.bfcache} ${run.bfcacheFailures.join("; ")}; best practices failing: ${run.failedBestPractices.join(", ") || "none"}`);
    }
  }
}
