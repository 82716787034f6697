/**
 * Live-update latency: an admin subscribed to live changes (the same SSE subscription the orders
 * page uses) and, one after another, order status changes; the time from sending each change to
 * its event arriving.
 */
import { mutationBody } from "./load";

export interface LiveLatency {
  changes: number;
  received: number;
  p50: number;
  p95: number;
  max: number;
}

export async function measureLiveLatency(baseUrl: string, adminCookie: string, orderIds: string[], changes = 200): Promise<LiveLatency> {
  const abort = new AbortController();
  const response = await fetch(new URL("/api/trpc/live.changes", baseUrl), {
    headers: { cookie: adminCookie, accept: "text/event-stream" },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`live subscription refused: ${response.status}`);

  const waiting = new Map<string, (at: number) => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let ready!: () => void;
  const connected = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (message.includes("event: connected")) ready();
          const data = message.split("\n").find((line) => line.startsWith("data: "));
          if (!data) continue;
          const id = /"id":"([0-9a-f-]{36})"/.exec(data)?.[1];
          if (id) waiting.get(id)?.(performance.now());
        }
      }
    } catch {
      // Aborted at the end.
    }
  })();
  await Promise.race([connected, new Promise((resolve) => setTimeout(resolve, 2_000))]);

  const latencies: number[] = [];
  const statuses = ["pending_delivery", "pending_payment"] as const;
  for (let i = 0; i < changes; i++) {
    const id = orderIds[i % orderIds.length]!;
    const arrived = new Promise<number | null>((resolve) => {
      waiting.set(id, resolve);
      setTimeout(() => resolve(null), 5_000);
    });
    const sent = performance.now();
    const answer = await fetch(new URL("/api/trpc/adminOrders.updateStatus", baseUrl), {
      method: "POST",
      headers: { cookie: adminCookie, "content-type": "application/json", origin: baseUrl },
      body: mutationBody({ id, status: statuses[Math.floor(i / orderIds.length) % 2] }),
    });
    await answer.arrayBuffer();
    const at = await arrived;
    waiting.delete(id);
    if (at !== null) latencies.push(at - sent);
  }
  abort.abort();
  latencies.sort((a, b) => a - b);
  const pick = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
  return { changes, received: latencies.length, p50: pick(50), p95: pick(95), max: latencies.at(-1) ?? Number.NaN };
}
