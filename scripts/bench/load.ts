/**
 * HTTP load with autocannon, with each response's latency recorded here (autocannon's own
 * histogram has no p95).
 */
import autocannon from "autocannon";

export interface LoadResult {
  case: string;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Transport errors, timeouts and non-2xx answers. */
  errors: number;
}

export type RequestSetup = (request: autocannon.Request) => autocannon.Request;

export interface LoadCase {
  name: string;
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Changes each request (a different customer's cookie, a fresh body). */
  setupRequest?: RequestSetup;
  /** A fixed number of requests instead of a duration (cases that use up prepared data). */
  amount?: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runLoad(baseUrl: string, load: LoadCase, connections: number, durationSeconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  // Without a callback autocannon returns its instance, which is also a promise of the result
  // (the typings only describe the promise).
  const instance = autocannon({
    url: new URL(load.path, baseUrl).toString(),
    connections,
    ...(load.amount ? { amount: load.amount } : { duration: durationSeconds }),
    timeout: 30,
    requests: [
      {
        method: load.method ?? "GET",
        headers: { origin: baseUrl, ...load.headers },
        body: load.body,
        ...(load.setupRequest ? { setupRequest: load.setupRequest } : {}),
      },
    ],
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  // The last answer's time, not the run's end: a run of a fixed number of requests (checkout)
  // ends on autocannon's next one-second tick, which would count up to a second of nothing.
  let lastResponse = started;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    lastResponse = performance.now();
    latencies.push(responseTime);
    if (statusCode >= 400) failures++;
  });
  const result = await instance;
  if (latencies.length === 0) console.warn(`[bench] ${load.name}: no responses`, { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx });
  const seconds = (lastResponse - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    case: load.name,
    connections,
    requests: latencies.length,
    requestsPerSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: failures + result.errors + result.timeouts,
  };
}

/** tRPC's HTTP shape for a query: GET /api/trpc/<path>?input=<superjson>. */
export function queryPath(procedure: string, input?: unknown): string {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return `/api/trpc/${procedure}${query}`;
}

/** A tRPC mutation's JSON body (superjson-wrapped). */
export function mutationBody(input: unknown): string {
  return JSON.stringify({ json: input });
}
