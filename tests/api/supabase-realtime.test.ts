import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createBrowserClient } from "@supabase/ssr";
import { RealtimeClient } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { followLiveStatus, type LiveStatus } from "@/components/live/live-status";
import { realtimeOptions, reconnectDelayMs, watchRealtime } from "@/components/live/supabase-realtime";
import { LIVE_POLL_MS } from "@/lib/constants";
import type { LiveChange, LiveViewer } from "@/server/ports/live";
import { BrowserLikeWebSocket, startFakeRealtime, type FakeRealtime, type RealtimeJoin } from "../helpers/fake-realtime";

/**
 * The browser's Supabase-mode live subscription (components/live/supabase-realtime.ts) with the
 * real client libraries (@supabase/ssr's browser client, realtime-js, Node 22's WebSocket) against
 * a fake Realtime server that speaks the Phoenix channel protocol: what it joins with, what
 * reaches the app, and how it behaves while Realtime is down.
 */

const ANON_KEY = "anon-key-for-tests";
const CUSTOMER: LiveViewer = { id: "6f1c2a10-3b4d-4e5f-8a01-00000000c001", role: "user" };
const ADMIN: LiveViewer = { id: "6f1c2a10-3b4d-4e5f-8a01-00000000a001", role: "admin" };

const base64url = (value: string) => Buffer.from(value).toString("base64url");

/** A user's access token as Supabase Auth issues it (the fake checks no signature; nor does the browser). */
function accessTokenFor(viewer: LiveViewer): string {
  const claims = { sub: viewer.id, role: "authenticated", aud: "authenticated", exp: Math.floor(Date.now() / 1000) + 3600 };
  return `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}.signature`;
}

/**
 * The browser client as subscribeToRealtime makes it, signed in through @supabase/ssr's session
 * cookie, with a back-off scaled down if asked, and a WebSocket that closes on a failed handshake
 * as browsers' do (Node 22's does not): the things a browser would supply by itself.
 */
function browserClient(project: { url: string }, viewer: LiveViewer, reconnectAfterMs?: (tries: number) => number) {
  const token = accessTokenFor(viewer);
  const session = {
    access_token: token,
    refresh_token: "refresh-token",
    token_type: "bearer",
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    user: { id: viewer.id, aud: "authenticated", role: "authenticated", email: "viewer@example.test", app_metadata: {}, user_metadata: {}, created_at: "2026-11-24T00:00:00Z" },
  };
  const cookieName = `sb-${new URL(project.url).hostname.split(".")[0]}-auth-token`;
  const client = createBrowserClient(project.url, ANON_KEY, {
    isSingleton: false,
    cookies: { getAll: () => [{ name: cookieName, value: `base64-${base64url(JSON.stringify(session))}` }], setAll: () => {} },
    realtime: { ...realtimeOptions(reconnectAfterMs), transport: BrowserLikeWebSocket },
  });
  return { client: client.realtime, token };
}

interface Watch {
  changes: LiveChange[];
  statuses: LiveStatus[];
  stop: () => void;
}

type Client = RealtimeClient;
const started: { stop: () => void; host: Client }[] = [];

function watch(host: Client, viewer: LiveViewer, timing?: Parameters<typeof watchRealtime>[3]): Watch {
  const changes: LiveChange[] = [];
  const statuses: LiveStatus[] = [];
  const stop = watchRealtime(host, viewer, { onChange: (change) => changes.push(change), onStatus: (status) => statuses.push(status) }, timing);
  started.push({ stop, host });
  return { changes, statuses, stop };
}

/** Resolves once `check` holds (polling every 10 ms), or fails after `ms`. */
async function until(check: () => boolean, ms = 5_000, what = "the condition") {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const joinOf = (fake: FakeRealtime, viewer: LiveViewer): RealtimeJoin | undefined => fake.joins.findLast((join) => join.topic === `realtime:shop-live-${viewer.id}`);

let fake: FakeRealtime;
let consoleError: MockInstance<typeof console.error>;
let consoleWarn: MockInstance<typeof console.warn>;

beforeEach(async () => {
  fake = await startFakeRealtime();
  consoleError = vi.spyOn(console, "error");
  consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(async () => {
  for (const { stop, host } of started.splice(0)) {
    stop();
    await host.disconnect();
  }
  await fake.close();
  vi.restoreAllMocks();
});

describe("joining Realtime", () => {
  it("asks for the customer's own cart lines and every order they may read, with their session's token", async () => {
    const { client, token } = browserClient(fake, CUSTOMER);
    const live = watch(client, CUSTOMER);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    const join = joinOf(fake, CUSTOMER);
    expect(join?.config.postgres_changes).toEqual([
      { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${CUSTOMER.id}` },
      { event: "*", schema: "public", table: "orders" },
      { event: "*", schema: "public", table: "quote_requests" },
    ]);
    expect(join?.config).toMatchObject({ private: false, presence: { enabled: false } });
    expect(join?.params).toMatchObject({ apikey: ANON_KEY, vsn: "2.0.0" });
    // With the join itself: Realtime applies RLS as this user from the start, not as anon.
    expect(join?.accessToken).toBe(token);
    expect(join?.accessTokenUpdates).toEqual([]);
    expect(live.statuses).toEqual(["connecting", "live"]);
  });

  it("asks admins for new contact messages and low-stock notices too, and nothing more", async () => {
    const live = watch(browserClient(fake, ADMIN).client, ADMIN);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    expect(joinOf(fake, ADMIN)?.config.postgres_changes).toEqual([
      { event: "*", schema: "public", table: "cart_items", filter: `user_id=eq.${ADMIN.id}` },
      { event: "*", schema: "public", table: "orders" },
      { event: "*", schema: "public", table: "quote_requests" },
      { event: "INSERT", schema: "public", table: "contact_messages" },
      { event: "INSERT", schema: "public", table: "low_stock_notices" },
    ]);
  });
});

describe("the fake's protocol", () => {
  it("answers heartbeats, so a quiet channel stays live, in serializer 1.0.0 (JSON objects) as in 2.0.0", async () => {
    const client = new RealtimeClient(fake.realtimeUrl, { ...realtimeOptions(), params: { apikey: ANON_KEY }, vsn: "1.0.0", heartbeatIntervalMs: 100, transport: BrowserLikeWebSocket });
    const live = watch(client, ADMIN);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    await sleep(500);
    expect(fake.heartbeats).toBeGreaterThanOrEqual(3);
    expect(joinOf(fake, ADMIN)?.params.vsn).toBe("1.0.0");
    fake.emitChange({ table: "contact_messages", eventType: "INSERT", new: { id: "m1", name: "A visitor" } });
    await until(() => live.changes.length === 1, 2_000, "the change");
    expect(live.changes).toEqual([{ table: "contact_messages", op: "INSERT", id: "m1" }]);
    expect(live.statuses).toEqual(["connecting", "live"]);
  });

  it("can be mounted on another server's upgrade event, leaving its other paths alone", async () => {
    const host = http.createServer((_request, response) => response.writeHead(204).end());
    const detach = fake.attach(host);
    const otherUpgrades: string[] = [];
    host.on("upgrade", (request: http.IncomingMessage, socket: Duplex) => {
      if (!request.url?.startsWith("/realtime/v1/websocket")) {
        otherUpgrades.push(request.url ?? "");
        socket.destroy();
      }
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = host.address() as AddressInfo;
      const live = watch(browserClient({ url: `http://127.0.0.1:${port}` }, CUSTOMER).client, CUSTOMER);
      await until(() => live.statuses.includes("live"), 5_000, "live");
      const other = new BrowserLikeWebSocket(`ws://127.0.0.1:${port}/elsewhere`);
      await new Promise((resolve) => other.addEventListener("close", resolve));
      expect(otherUpgrades).toEqual(["/elsewhere"]);
    } finally {
      for (const { stop, host: client } of started.splice(0)) {
        stop();
        await client.disconnect();
      }
      detach();
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    }
  });
});

describe("changes from Realtime", () => {
  it("reach onChange as table, operation and row id, for what the viewer asked for only", async () => {
    const customer = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    const admin = watch(browserClient(fake, ADMIN).client, ADMIN);
    await until(() => customer.statuses.includes("live") && admin.statuses.includes("live"), 5_000, "both live");

    const line = { id: "c0000000-0000-4000-8000-000000000001", user_id: CUSTOMER.id, product_id: "p1", quantity: 2 };
    expect(fake.emitChange({ table: "cart_items", eventType: "INSERT", new: line })).toBe(1);
    expect(fake.emitChange({ table: "cart_items", eventType: "UPDATE", new: { ...line, quantity: 3 }, old: { id: line.id } })).toBe(1);
    // Another user's cart line: Realtime filters it out for both.
    expect(fake.emitChange({ table: "cart_items", eventType: "INSERT", new: { ...line, id: "c0000000-0000-4000-8000-000000000002", user_id: "someone-else" } })).toBe(0);
    const order = { id: "o0000000-0000-4000-8000-000000000001", user_id: CUSTOMER.id, status: "pending_payment", total_cents: 25_000 };
    expect(fake.emitChange({ table: "orders", eventType: "INSERT", new: order })).toBe(2);
    // New messages: admins asked, customers did not.
    expect(fake.emitChange({ table: "contact_messages", eventType: "INSERT", new: { id: "m0000000-0000-4000-8000-000000000001", name: "A visitor" } })).toBe(1);
    expect(fake.emitChange({ table: "contact_messages", eventType: "UPDATE", new: { id: "m0000000-0000-4000-8000-000000000001", read: true } })).toBe(0);

    await until(() => customer.changes.length === 3 && admin.changes.length === 2, 2_000, "the changes");
    expect(customer.changes).toEqual([
      { table: "cart_items", op: "INSERT", id: line.id },
      { table: "cart_items", op: "UPDATE", id: line.id },
      { table: "orders", op: "INSERT", id: order.id },
    ]);
    expect(admin.changes).toEqual([
      { table: "orders", op: "INSERT", id: order.id },
      { table: "contact_messages", op: "INSERT", id: "m0000000-0000-4000-8000-000000000001" },
    ]);
  });

  it("a delete carries only the row's id", async () => {
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    // Realtime cannot filter deletes (nor apply RLS to them): the old row holds the primary key only.
    fake.emitChange({ table: "cart_items", eventType: "DELETE", old: { id: "c0000000-0000-4000-8000-000000000009" } });
    await until(() => live.changes.length === 1, 2_000, "the delete");
    expect(live.changes).toEqual([{ table: "cart_items", op: "DELETE", id: "c0000000-0000-4000-8000-000000000009" }]);
  });
});

describe("when Realtime is unreachable", () => {
  it("an error reply to the join pauses live updates, and realtime-js's rejoin brings them back", async () => {
    fake.setJoinAnswer({ error: "Realtime was unable to connect to the project database" });
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("paused"), 3_000, "paused");
    fake.setJoinAnswer("ok");
    // realtime-js rejoins an errored channel 1 s later on the same socket.
    await until(() => live.statuses.at(-1) === "live", 5_000, "live again");
    expect(live.statuses).toEqual(["connecting", "paused", "live"]);
    expect(fake.joins.filter((join) => join.answer === "error").length).toBeGreaterThanOrEqual(1);
  });

  it("a server disconnect pauses live updates until the reconnected channel has joined again, one warning per outage", async () => {
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    for (const code of [undefined, 1011]) {
      fake.disconnectAll(code);
      await until(() => live.statuses.at(-1) === "paused", 3_000, "paused");
      await until(() => live.statuses.at(-1) === "live", 5_000, "live again");
    }
    expect(live.statuses).toEqual(["connecting", "live", "paused", "live", "paused", "live"]);
    expect(fake.joins.filter((join) => join.answer === "ok")).toHaveLength(3);
    // Changes flow on the new socket.
    fake.emitChange({ table: "orders", eventType: "UPDATE", new: { id: "o1", status: "complete" } });
    await until(() => live.changes.length === 1, 2_000, "the change");
    expect(consoleWarn).toHaveBeenCalledTimes(2);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("a refused socket pauses once, is retried further and further apart up to a cap, and logs no errors", async () => {
    const scale = 25; // 1 s, 2 s, 5 s, 10 s, 30 s become 40, 80, 200, 400, 1200 ms
    fake.refuse(true);
    const tries: number[] = [];
    const live = watch(
      browserClient(fake, CUSTOMER, (attempt) => {
        tries.push(attempt);
        return reconnectDelayMs(attempt) / scale;
      }).client,
      CUSTOMER,
    );
    await until(() => live.statuses.includes("paused"), 3_000, "paused");
    await sleep(3_300);
    const times = fake.attempts.map((attempt) => attempt.at);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    // Attempts at about 0, 40, 120, 320, 720, 1920 and 3120 ms; realtime-js's own schedule would make about 12.
    expect(times.length).toBeGreaterThanOrEqual(6);
    expect(times.length).toBeLessThanOrEqual(8);
    // Each retry waits the next, longer delay (1, 2, 3, … tries), up to the cap. Not asserted gap by
    // gap: realtime-js's own channel rejoin may add an attempt in between on a loaded machine.
    expect(tries.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(tries.map(reconnectDelayMs).every((delay, i, all) => i === 0 || delay >= all[i - 1]!)).toBe(true);
    for (const gap of gaps) expect(gap).toBeLessThan(30_000 / scale + 300);
    expect(gaps.at(-1)!).toBeGreaterThan((30_000 / scale) * 0.9);
    expect(fake.attempts.every((attempt) => attempt.refused)).toBe(true);
    expect(live.statuses).toEqual(["connecting", "paused"]);

    fake.refuse(false);
    await until(() => live.statuses.at(-1) === "live", 3_000, "live again");
    expect(consoleWarn).toHaveBeenCalledTimes(1);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("a dropped connection (no HTTP answer at all) pauses too", async () => {
    fake.refuse(true, "drop");
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("paused"), 3_000, "paused");
    fake.refuse(false);
    await until(() => live.statuses.at(-1) === "live", 5_000, "live again");
    expect(live.statuses).toEqual(["connecting", "paused", "live"]);
  });

  it("a join left unanswered is paused after the grace period", async () => {
    fake.setJoinAnswer("silent");
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER, { joinGraceMs: 300, reopenAfterMs: reconnectDelayMs });
    await sleep(150);
    expect(live.statuses).toEqual(["connecting"]);
    await until(() => live.statuses.includes("paused"), 2_000, "paused");
    expect(joinOf(fake, CUSTOMER)?.answer).toBe("none");
  });

  it("a channel the server closes (as on an expired token) is opened again", async () => {
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER, { joinGraceMs: 5_000, reopenAfterMs: (tries) => reconnectDelayMs(tries) / 20 });
    await until(() => live.statuses.includes("live"), 5_000, "live");
    fake.closeChannels();
    await until(() => live.statuses.at(-1) === "paused", 2_000, "paused");
    await until(() => live.statuses.at(-1) === "live", 3_000, "live again");
    expect(fake.joins.filter((join) => join.answer === "ok")).toHaveLength(2);
    fake.emitChange({ table: "cart_items", eventType: "INSERT", new: { id: "c1", user_id: CUSTOMER.id } });
    await until(() => live.changes.length === 1, 2_000, "the change");
  });

  it("a join answered with other bindings than asked for is paused, and opened again", async () => {
    fake.setJoinAnswer("mismatch");
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER, { joinGraceMs: 5_000, reopenAfterMs: (tries) => reconnectDelayMs(tries) / 20 });
    await until(() => live.statuses.includes("paused"), 2_000, "paused");
    fake.setJoinAnswer("ok");
    await until(() => live.statuses.at(-1) === "live", 3_000, "live again");
    expect(live.statuses).toEqual(["connecting", "paused", "live"]);
    expect(consoleWarn).toHaveBeenCalledTimes(1);
  });

  it("Realtime's own report that the database side failed pauses until it reports recovery", async () => {
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    fake.sendSystem({ status: "error", message: "Error 401: Unauthorized" });
    await until(() => live.statuses.at(-1) === "paused", 2_000, "paused");
    fake.sendSystem({ status: "ok", message: "Subscribed to PostgreSQL" });
    await until(() => live.statuses.at(-1) === "live", 2_000, "live again");
  });

  it("stopping leaves the channel and reports nothing more", async () => {
    const live = watch(browserClient(fake, CUSTOMER).client, CUSTOMER);
    await until(() => live.statuses.includes("live"), 5_000, "live");
    live.stop();
    await until(() => joinOf(fake, CUSTOMER)?.left === true, 2_000, "the leave");
    fake.disconnectAll();
    await sleep(100);
    expect(live.statuses).toEqual(["connecting", "live"]);
  });
});

describe("the reconnection schedule", () => {
  it("grows 1, 2, 5, 10 s and then stays at 30 s: fewer than half the attempts realtime-js's own would make", () => {
    expect([1, 2, 3, 4, 5, 6, 50].map(reconnectDelayMs)).toEqual([1_000, 2_000, 5_000, 10_000, 30_000, 30_000, 30_000]);
    const attemptsIn = (ms: number, delay: (tries: number) => number) => {
      let attempts = 1;
      for (let elapsed = delay(1), tries = 1; elapsed <= ms; elapsed += delay(++tries)) attempts++;
      return attempts;
    };
    const libraryDefault = new RealtimeClient("ws://127.0.0.1:9/realtime/v1", { params: { apikey: ANON_KEY } }).reconnectAfterMs;
    // A 5-minute outage: 1 + 4 + 9 attempts, against 1 + 4 + 28; each is a console error in a browser.
    expect(attemptsIn(5 * 60_000, reconnectDelayMs)).toBe(14);
    expect(attemptsIn(5 * 60_000, libraryDefault)).toBe(33);
  });
});

describe("catching up while paused", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refetches every LIVE_POLL_MS while paused, once more when live again, and never while live", () => {
    const catchUp = vi.fn();
    const follow = followLiveStatus(catchUp, LIVE_POLL_MS);
    follow.update("connecting");
    follow.update("live");
    vi.advanceTimersByTime(LIVE_POLL_MS * 3);
    expect(catchUp).not.toHaveBeenCalled();

    follow.update("paused");
    vi.advanceTimersByTime(LIVE_POLL_MS - 1);
    expect(catchUp).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(catchUp).toHaveBeenCalledTimes(1);
    follow.update("paused"); // a second report of the same outage does not restart or double the polling
    vi.advanceTimersByTime(LIVE_POLL_MS);
    expect(catchUp).toHaveBeenCalledTimes(2);

    follow.update("live");
    expect(catchUp).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(LIVE_POLL_MS * 3);
    expect(catchUp).toHaveBeenCalledTimes(3);
    follow.stop();
  });

  it("stops polling when the subscription is replaced or unmounted", () => {
    const catchUp = vi.fn();
    const follow = followLiveStatus(catchUp, LIVE_POLL_MS);
    follow.update("paused");
    follow.update("connecting");
    vi.advanceTimersByTime(LIVE_POLL_MS * 2);
    expect(catchUp).not.toHaveBeenCalled();
    follow.update("paused");
    follow.stop();
    vi.advanceTimersByTime(LIVE_POLL_MS * 2);
    expect(catchUp).not.toHaveBeenCalled();
  });
});
