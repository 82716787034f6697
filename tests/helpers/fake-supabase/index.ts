import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startFakeRealtime, type FakeRealtime } from "../fake-realtime";
import { createFakeAuth, type AuthConfig, type FakeAuth } from "./auth";
import { CORS_HEADERS, fakeRequest, json, writeResponse, type FakeResponse } from "./http";
import { apiKeys, verifyJwt } from "./jwt";
import { bridgeDatabaseChanges } from "./realtime-bridge";
import { createFakeStorage } from "./storage";

/**
 * A stand-in for a Supabase project (`supabase start`'s API gateway on one port): Auth under
 * /auth/v1, Storage under /storage/v1, Realtime's WebSocket under /realtime/v1, each answering
 * with the real services' request and response shapes, on a database prepared as Supabase's
 * (tests/helpers/supabase-platform.ts). Test controls live under /__fake (see control.ts).
 */

export interface FakeSupabaseOptions {
  /** The database as the services' own roles, as createSupabaseDatabase() hands them out. */
  database: {
    /** supabase_auth_admin: writes auth.users and auth.identities. */
    authUrl: string;
    /** supabase_storage_admin: reads buckets, writes objects as the caller (set role). */
    storageUrl: string;
    /** A role that reads every published table, for turning changes into Realtime events (supabase_admin). */
    changesUrl?: string;
  };
  /** `[auth] site_url`: the shop's own origin. */
  siteUrl: string;
  /** `[auth] additional_redirect_urls`; default: everything on the site URL's origin. */
  additionalRedirectUrls?: string[];
  /** E-mail confirmation off (`enable_confirmations = false`, config.toml's value): default true. */
  mailerAutoconfirm?: boolean;
  /** Default 0: a free port. Loopback only. */
  port?: number;
  /** Default: a random secret per instance. */
  jwtSecret?: string;
  /** Serve Realtime's WebSocket (tests/helpers/fake-realtime.ts). Default true. */
  realtime?: boolean;
  /** Where object bytes go; default a new temporary directory, removed on close. */
  storageRoot?: string;
}

export interface FakeSupabase {
  /** The project URL: NEXT_PUBLIC_SUPABASE_URL. */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  auth: FakeAuth;
  realtime?: FakeRealtime;
  /** Realtime reachable or not: refused upgrades and dropped sockets while down. */
  setRealtimeUp(up: boolean): void;
  close(): Promise<void>;
}

/** Auth's routes that Supabase's gateway serves without an API key (links opened in a browser). */
const OPEN_AUTH_ROUTES = new Set(["/verify", "/callback", "/authorize", "/health", "/.well-known/jwks.json"]);

export async function startFakeSupabase(options: FakeSupabaseOptions): Promise<FakeSupabase> {
  const jwtSecret = options.jwtSecret ?? randomBytes(32).toString("hex");
  const keys = await apiKeys(new TextEncoder().encode(jwtSecret));
  const authPool = new pg.Pool({ connectionString: options.database.authUrl, max: 4 });
  const storagePool = new pg.Pool({ connectionString: options.database.storageUrl, max: 4 });
  // An idle connection the database drops is replaced on next use; unhandled, it would end the process.
  for (const pool of [authPool, storagePool]) pool.on("error", (error) => console.error("[fake-supabase] database connection lost:", error.message));
  const storageRoot = options.storageRoot ?? fs.mkdtempSync(path.join(os.tmpdir(), "fake-supabase-storage-"));
  const ownsStorageRoot = options.storageRoot === undefined;

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const config: AuthConfig = {
    siteUrl: options.siteUrl,
    additionalRedirectUrls: options.additionalRedirectUrls ?? [`${new URL(options.siteUrl).origin}/**`],
    mailerAutoconfirm: options.mailerAutoconfirm ?? true,
    jwtExpiry: 3600,
    minimumPasswordLength: 6,
  };
  const auth = createFakeAuth({ pool: authPool, keys, externalUrl: url, config });
  const storage = createFakeStorage({ pool: storagePool, keys, root: storageRoot });

  let realtime: FakeRealtime | undefined;
  let bridge: { close(): Promise<void> } | undefined;
  if (options.realtime !== false) {
    realtime = await startFakeRealtime();
    if (options.database.changesUrl) bridge = await bridgeDatabaseChanges(options.database.changesUrl, realtime);
  }
  let realtimeUp = true;
  const setRealtimeUp = (up: boolean) => {
    realtimeUp = up;
    realtime?.refuse(!up);
    // Realtime going away closes the sockets it had: browsers see their channels drop.
    if (!up) realtime?.disconnectAll();
  };

  /** The gateway's key check: an API key of this project (anon or service_role), or 401. */
  async function apiKeyRefusal(req: http.IncomingMessage, requestUrl: URL): Promise<FakeResponse | undefined> {
    const key = req.headers.apikey ?? requestUrl.searchParams.get("apikey");
    if (typeof key !== "string" || !key) return json(401, { message: "No API key found in request", hint: "No `apikey` request header or url param was found." });
    const claims = await verifyJwt(keys.secret, key);
    if (!claims || (claims.role !== "anon" && claims.role !== "service_role")) return json(401, { message: "Invalid API key", hint: "Double check your Supabase `anon` or `service_role` API key." });
    return undefined;
  }

  async function control(method: string, route: string, requestUrl: URL, body: () => Promise<Record<string, unknown>>): Promise<FakeResponse> {
    if (method === "GET" && route === "/project") {
      // What `supabase status` prints; the control routes are for tests on this machine only.
      return json(200, { url, anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey });
    }
    if (method === "GET" && route === "/mails") {
      const to = requestUrl.searchParams.get("to");
      return json(200, { mails: auth.mails.filter((mail) => !to || mail.to === to.toLowerCase()) });
    }
    if (method === "POST" && route === "/auth") {
      const input = await body();
      if (typeof input.mailerAutoconfirm === "boolean") config.mailerAutoconfirm = input.mailerAutoconfirm;
      return json(200, { mailerAutoconfirm: config.mailerAutoconfirm });
    }
    if (method === "POST" && route === "/realtime") {
      const input = await body();
      if (typeof input.up === "boolean") setRealtimeUp(input.up);
      return json(200, { up: realtimeUp });
    }
    if (method === "GET" && route === "/realtime") {
      const joined = (realtime?.joins ?? []).filter((join) => join.answer === "ok" && !join.left).map((join) => join.topic);
      return json(200, { up: realtimeUp, openSockets: realtime?.openSockets() ?? 0, joined, attempts: realtime?.attempts.length ?? 0 });
    }
    if (method === "GET" && route === "/storage/objects") {
      return json(200, { objects: await storage.objects(requestUrl.searchParams.get("bucket") ?? "") });
    }
    return json(404, { message: "no such control" });
  }

  server.on("upgrade", (req, socket, head) => {
    // A browser that goes away mid-handshake resets the socket: that must not take the fake down.
    socket.on("error", () => socket.destroy());
    if (!realtime?.handleUpgrade(req, socket, head)) socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });

  server.on("request", (req, res) => {
    void (async () => {
      const requestUrl = new URL(req.url ?? "/", url);
      const pathname = requestUrl.pathname;
      if (req.method === "OPTIONS") {
        res.writeHead(200, CORS_HEADERS).end();
        return;
      }
      let answer: FakeResponse;
      if (pathname.startsWith("/auth/v1/")) {
        const route = pathname.slice("/auth/v1".length);
        answer = (!OPEN_AUTH_ROUTES.has(route) && (await apiKeyRefusal(req, requestUrl))) || (await auth.handle(fakeRequest(req, requestUrl, route)));
      } else if (pathname.startsWith("/storage/v1/")) {
        answer = await storage.handle(fakeRequest(req, requestUrl, pathname.slice("/storage/v1".length)));
      } else if (pathname.startsWith("/__fake/")) {
        const request = fakeRequest(req, requestUrl, pathname.slice("/__fake".length));
        answer = await control(request.method, request.path, requestUrl, () => request.json());
      } else {
        // PostgREST, Edge Functions and the rest of the gateway: the shop uses none of them.
        answer = json(404, { message: "no Route matched with those values" });
      }
      writeResponse(res, answer);
    })().catch((error: unknown) => {
      console.error("[fake-supabase]", error);
      if (!res.headersSent) writeResponse(res, json(500, { message: "fake Supabase failed" }));
      else res.destroy();
    });
  });

  return {
    url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    jwtSecret,
    auth,
    realtime,
    setRealtimeUp,
    async close() {
      await bridge?.close();
      await realtime?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await authPool.end();
      await storagePool.end();
      if (ownsStorageRoot) fs.rmSync(storageRoot, { recursive: true, force: true });
    },
  };
}
