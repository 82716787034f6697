/**
 * Which of a page's functions a throttled phone spends its main thread in, from the first byte
 * until the page has settled: `npx tsx scripts/bench/script-profile.ts <origin> <path>…` against
 * a server that is already running (as scripts/bench/lighthouse.ts takes them). The real-device
 * phone and throttling (./real-device.ts), cold, PROFILE_ROUNDS loads per page (default 3); V8's
 * sampling CPU profiler at 200 µs; each function's self time, as the mean per load in ms at the
 * 4× slower CPU, beside the time V8 spent outside JavaScript ("(program)": parsing, style,
 * layout, paint), in garbage collection and idle.
 *
 * `npm run bench:main-thread` says which kind of work stands before the largest paint; this says
 * which function, anywhere in the load. It found that a storefront page's scripts spent 160–230 ms
 * building ICU's number formatter for one message (BENCHMARKS.md, History 2026-11-29).
 */
import { launchChromium, phoneContext, SETTLE_MS, throttle } from "./real-device";

const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 3);
const TOP = Number(process.env.PROFILE_TOP ?? 12);
/** Long enough after `load` for hydration and what runs on mount. */
const AFTER_LOAD_MS = SETTLE_MS + 2_500;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** A frame's name: the function and where it is, the script's path without the origin. */
function frameName({ functionName, url, lineNumber, columnNumber }: ProfileNode["callFrame"], origin: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : `(${functionName || "native"})`;
  const where = url.startsWith(origin) ? url.slice(origin.length) : url;
  return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}:${columnNumber + 1}`;
}

async function profile(origin: string, pathname: string): Promise<Map<string, number>> {
  const browser = await launchChromium();
  const totals = new Map<string, number>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const context = await phoneContext(browser, origin);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await throttle(cdp);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      await page.goto(origin + pathname, { waitUntil: "load" });
      await page.waitForTimeout(AFTER_LOAD_MS);
      const { profile } = await cdp.send("Profiler.stop");
      const nodes = new Map((profile.nodes as ProfileNode[]).map((node) => [node.id, node]));
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      for (let i = 0; i < samples.length; i++) {
        const name = frameName(nodes.get(samples[i]!)!.callFrame, origin);
        totals.set(name, (totals.get(name) ?? 0) + deltas[i]! / 1000 / ROUNDS);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return totals;
}

async function main() {
  const [origin, ...paths] = process.argv.slice(2);
  if (!origin || paths.length === 0) throw new Error("usage: npx tsx scripts/bench/script-profile.ts <origin> <path>…");
  const base = origin.replace(/\/$/, "");
  for (const pathname of paths) {
    const totals = await profile(base, pathname);
    const outside = ["(idle)", "(program)", "(garbage collector)"].map((name) => `${name.slice(1, -1)} ${Math.round(totals.get(name) ?? 0)} ms`);
    const script = [...totals].filter(([name]) => !name.startsWith("(")).reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`\n${pathname}: JavaScript ${Math.round(script)} ms, ${outside.join(", ")} (mean per load of ${ROUNDS}, 4× CPU)`);
    console.log("| self time | function |\n|---:|---|");
    for (const [name, ms] of [...totals].filter(([name]) => !["(idle)", "(program)"].includes(name)).sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`| ${Math.round(ms)} ms | ${name.replaceAll("|", "\\|")} |`);
    }
  }
}

await main();
