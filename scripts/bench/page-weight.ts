/**
 * First-load JavaScript per route, as a browser fetches it: every `/_next/static/chunks/*.js`
 * the server-rendered HTML references (script tags and the inlined RSC payload's client
 * references), each gzipped at level 9 and summed; `nomodule` polyfills are left out. Usable alone against a running server:
 *
 *   npx tsx scripts/bench/page-weight.ts http://localhost:3000 / /products /products/<id>
 */
import { gzipSync } from "node:zlib";

export interface PageWeight {
  route: string;
  status: number;
  chunks: number;
  jsBytes: number;
  jsGzipBytes: number;
  htmlGzipBytes: number;
}

const chunkPattern = /\/_next\/static\/chunks\/[\w.\-~/]+?\.js/g;
/** Legacy-browser polyfills: modern browsers skip `<script nomodule>`, so they are not counted. */
const noModulePattern = /<script[^>]*src="([^"]+)"[^>]*noModule[^>]*>/gi;

/** The chunks a modern browser loads for this HTML, each once. */
function chunksOf(html: string): string[] {
  const skipped = new Set([...html.matchAll(noModulePattern)].map((match) => match[1]));
  return [...new Set(html.match(chunkPattern) ?? [])].filter((chunk) => !skipped.has(chunk));
}

export async function measurePageWeight(baseUrl: string, route: string, cookie?: string): Promise<PageWeight> {
  const response = await fetch(new URL(route, baseUrl), { headers: cookie ? { cookie } : {} });
  const html = await response.text();
  const chunkPaths = chunksOf(html);
  let jsBytes = 0;
  let jsGzipBytes = 0;
  for (const chunk of chunkPaths) {
    const body = Buffer.from(await (await fetch(new URL(chunk, baseUrl))).arrayBuffer());
    jsBytes += body.length;
    jsGzipBytes += gzipSync(body, { level: 9 }).length;
  }
  return {
    route,
    status: response.status,
    chunks: chunkPaths.length,
    jsBytes,
    jsGzipBytes,
    htmlGzipBytes: gzipSync(Buffer.from(html), { level: 9 }).length,
  };
}

/** Each chunk's gzip size for one route, largest first: where the weight comes from. */
export async function chunkBreakdown(baseUrl: string, route: string): Promise<{ chunk: string; gzipBytes: number }[]> {
  const html = await (await fetch(new URL(route, baseUrl))).text();
  const chunkPaths = chunksOf(html);
  const sizes = await Promise.all(
    chunkPaths.map(async (chunk) => {
      const body = Buffer.from(await (await fetch(new URL(chunk, baseUrl))).arrayBuffer());
      return { chunk, gzipBytes: gzipSync(body, { level: 9 }).length };
    }),
  );
  return sizes.sort((a, b) => b.gzipBytes - a.gzipBytes);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = "http://localhost:3000", ...routes] = process.argv.slice(2);
  const verbose = process.env.VERBOSE === "1";
  for (const route of routes.length ? routes : ["/"]) {
    const weight = await measurePageWeight(baseUrl, route);
    console.log(
      `${route.padEnd(48)} ${weight.status} ${String(weight.chunks).padStart(3)} chunks ` +
        `${(weight.jsGzipBytes / 1000).toFixed(1).padStart(7)} kB gzip (${(weight.jsBytes / 1000).toFixed(0)} kB raw)`,
    );
    if (verbose) {
      for (const { chunk, gzipBytes } of await chunkBreakdown(baseUrl, route)) {
        console.log(`    ${(gzipBytes / 1000).toFixed(1).padStart(6)} kB  ${chunk}`);
      }
    }
  }
}
