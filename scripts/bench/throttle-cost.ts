/**
 * `npx tsx scripts/bench/throttle-cost.ts` (after `npm run build`): what the real-device measure's
 * "CPU 4× slower" costs this machine. Chromium's CDP CPU throttling slows the page's main thread
 * by keeping it busy for the throttled share of the time, whether the page has work or not, so a
 * throttled tab holds most of a core the whole time it is open. This loads the bare Next.js page
 * (scripts/bench/baseline) unthrottled and throttled (./real-device.ts' settings), lets it go
 * idle, and reports the CPU the renderer's main thread used over IDLE_MS of an idle page.
 *
 * On a two-core machine the rest of the browser (script compiling, picture decoding, the
 * network), the shop's server and the bench itself share what is left, which no phone and no
 * shop server do: read the real-device ratios with that in mind (BENCHMARKS.md, 2026-11-29,
 * fourth session).
 */
import fs from "node:fs";
import { BASELINE_DIR, buildBaseline, launchChromium, phoneContext, throttle, THROTTLING } from "./real-device";
import { startServer, statCpuMs } from "./server";

const PORT = Number(process.env.BENCH_PORT ?? 3460);
const IDLE_MS = 4_000;

/** CPU ms used so far by the main thread (the thread whose id is the process id) of every Chromium renderer. */
function rendererMainThreadsMs(): number {
  let ms = 0;
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) ms += statCpuMs(fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8"));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ms;
}

async function main() {
  await buildBaseline();
  const baseline = await startServer(PORT, {}, { dir: BASELINE_DIR, readyPath: "/" });
  const browser = await launchChromium();
  try {
    for (const throttled of [false, true]) {
      const context = await phoneContext(browser, baseline.baseUrl);
      const tab = await context.newPage();
      if (throttled) await throttle(await context.newCDPSession(tab));
      await tab.goto(`${baseline.baseUrl}/`, { waitUntil: "load" });
      await tab.waitForTimeout(2_000);
      const before = rendererMainThreadsMs();
      await tab.waitForTimeout(IDLE_MS);
      const used = rendererMainThreadsMs() - before;
      console.log(`${throttled ? `throttled (CPU ${THROTTLING.cpuSlowdown}×)` : "unthrottled"}: the renderer's main thread used ${used.toFixed(0)} ms of CPU in ${IDLE_MS} ms of an idle page (${((used / IDLE_MS) * 100).toFixed(0)} % of a core)`);
      await context.close();
    }
  } finally {
    await browser.close();
    await baseline.stop();
  }
}

void main();
