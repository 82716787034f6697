/**
 * `npm run bench:main-thread` (after `npm run build`): where a phone's main thread
 * spends the time before the largest paint, per page. The same pages, phone and throttling as
 * the real-device measure (./real-device.ts), each load traced by Chromium; for every load, the
 * main thread's busy time from navigation start to the last largest-contentful-paint candidate,
 * split by what it did (each piece counted once, in its innermost kind). Medians of
 * MAIN_THREAD_ROUNDS (default 3) interleaved rounds. The throttled CPU makes every figure about
 * four times what the machine took, as on a slow phone.
 *
 * It explains a real-device figure, it does not replace it: tracing itself slows the page a
 * little, so compare its rows with each other, not with `npm run bench:real-device`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareShop } from "./prepare";
import { BASELINE_DIR, buildBaseline, launchChromium, median, phoneContext, realDevicePages, SETTLE_MS, startAnotherSite, throttle, THROTTLING, type RealDevicePage } from "./real-device";
import { startServer, withFreshEmbeddedShop } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 3400);
const ROUNDS = Number(process.env.MAIN_THREAD_ROUNDS ?? 3);

/** What the main thread did, by the trace events' names; anything else inside a task is "other". */
const KINDS: Record<string, string> = {
  ParseHTML: "HTML parsing",
  EvaluateScript: "script",
  FunctionCall: "script",
  "v8.compile": "script",
  "v8.compileModule": "script",
  RunMicrotasks: "script",
  EventDispatch: "script",
  TimerFire: "script",
  FireAnimationFrame: "script",
  UpdateLayoutTree: "style",
  Layout: "layout",
  PrePaint: "paint",
  Paint: "paint",
  PaintImage: "paint",
  Layerize: "paint",
  Commit: "paint",
  "Decode Image": "image decoding",
  "DocumentLoader::CommitNavigation": "documents",
};
export const COLUMNS = ["documents", "HTML parsing", "script", "style", "layout", "paint", "image decoding", "other"] as const;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: Record<string, unknown>;
}

export interface MainThreadSample {
  lcp: number;
  busy: number;
  /** Per kind, ms of the main thread before the largest paint. */
  kinds: Record<string, number>;
  /** Documents other than the page (an SVG picture is one), committed before the largest paint. */
  otherDocuments: number;
}

/** The main thread's busy time before the last LCP candidate, each moment in its innermost kind. */
export function splitMainThread(events: TraceEvent[], url: string): MainThreadSample | null {
  const data = (e: TraceEvent) => (e.args?.data ?? {}) as { documentLoaderURL?: string; navigationId?: string };
  const navigation = events.find((e) => e.name === "navigationStart" && data(e).documentLoaderURL === url);
  if (!navigation) return null;
  const { pid, tid, ts: start } = navigation;
  const candidates = events.filter((e) => e.name === "largestContentfulPaint::Candidate" && data(e).navigationId === data(navigation).navigationId);
  const lcpAt = candidates.at(-1)?.ts;
  if (lcpAt === undefined) return null;
  const slices = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.ts >= start && e.ts < lcpAt && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const kinds: Record<string, number> = Object.fromEntries(COLUMNS.map((kind) => [kind, 0]));
  let busy = 0;
  // A stack of the open slices; each slice's own time (less its children's) goes to its kind, or to
  // the nearest enclosing slice that has one; the tasks themselves (RunTask) are the busy time, and
  // "other" is what of it no kind took.
  const stack: { end: number; kind: string | null; own: number }[] = [];
  const close = (until: number) => {
    while (stack.length && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      const kind = done.kind ?? stack.findLast((s) => s.kind)?.kind;
      if (kind && stack.length) kinds[kind] = (kinds[kind] ?? 0) + done.own;
    }
  };
  for (const slice of slices) {
    close(slice.ts);
    const end = Math.min(slice.ts + slice.dur!, lcpAt);
    const length = (end - slice.ts) / 1000;
    if (stack.length === 0) {
      if (slice.name !== "RunTask" && slice.name !== "ThreadControllerImpl::RunTask") continue;
      busy += length;
    } else {
      stack.at(-1)!.own -= length;
    }
    stack.push({ end, kind: KINDS[slice.name] ?? null, own: length });
  }
  close(Number.POSITIVE_INFINITY);
  kinds.other = Math.max(0, busy - COLUMNS.filter((kind) => kind !== "other").reduce((sum, kind) => sum + kinds[kind]!, 0));
  return { lcp: (lcpAt - start) / 1000, busy, kinds, otherDocuments: events.filter((e) => e.pid === pid && e.name === "navigationStart" && e !== navigation && e.ts > start && e.ts < lcpAt).length };
}

async function traceOnce(page: RealDevicePage, start: Awaited<ReturnType<typeof startAnotherSite>>["start"], file: string): Promise<MainThreadSample | null> {
  const browser = await launchChromium();
  try {
    const context = await phoneContext(browser, new URL(page.url).origin, page.cookie);
    const tab = await context.newPage();
    if (start.kind === "another site") await tab.goto(start.url);
    await throttle(await context.newCDPSession(tab));
    await browser.startTracing(undefined, { path: file, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "v8.execute", "toplevel"] });
    await tab.goto(page.url, { waitUntil: "load" });
    await tab.waitForTimeout(2_000);
    await browser.stopTracing();
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { traceEvents: TraceEvent[] } | TraceEvent[];
    return splitMainThread(Array.isArray(parsed) ? parsed : parsed.traceEvents, page.url);
  } finally {
    await browser.close();
  }
}

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("build the shop first: npm run build");
  await buildBaseline();
  const traces = fs.mkdtempSync(path.join(os.tmpdir(), "main-thread-"));
  await withFreshEmbeddedShop("main-thread", async (shop) => {
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 60, customers: 1 });
    const server = await startServer(PORT, shop.serverEnv);
    const baseline = await startServer(PORT + 1, {}, { dir: BASELINE_DIR, readyPath: "/" });
    const anotherSite = await startAnotherSite();
    try {
      const pages = realDevicePages(server.baseUrl, baseline.baseUrl, prepared.productIds[0]!);
      const samples = new Map<string, MainThreadSample[]>(pages.map((page) => [page.label, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, page] of pages.entries()) {
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const sample = await traceOnce(page, anotherSite.start, path.join(traces, `${round}-${index}.json`));
          if (sample) samples.get(page.label)!.push(sample);
          console.log(`[main-thread] round ${round + 1}/${ROUNDS} ${page.label}: LCP ${sample?.lcp.toFixed(0) ?? "?"} busy ${sample?.busy.toFixed(0) ?? "?"}`);
        }
      }
      console.log(`\nThe main thread before the largest paint (CPU ${THROTTLING.cpuSlowdown}× slower), ms, medians of ${ROUNDS} rounds:\n`);
      console.log(`| page | LCP | busy | ${COLUMNS.join(" | ")} | other documents |`);
      console.log(`|---|${"---:|".repeat(COLUMNS.length + 3)}`);
      for (const page of pages) {
        const list = samples.get(page.label)!;
        const cell = (values: number[]) => median(values).toFixed(0);
        console.log(`| ${page.label} | ${cell(list.map((s) => s.lcp))} | ${cell(list.map((s) => s.busy))} | ${COLUMNS.map((kind) => cell(list.map((s) => s.kinds[kind] ?? 0))).join(" | ")} | ${cell(list.map((s) => s.otherDocuments))} |`);
      }
    } finally {
      await anotherSite.close();
      await baseline.stop();
      await server.stop();
      fs.rmSync(traces, { recursive: true, force: true });
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
