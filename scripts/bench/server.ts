/**
 * The production server as the benchmark and the fault tests drive it: started on a port with
 * its own environment, watched (resident memory of the whole process tree), stopped gently or
 * killed outright, and called the way the shop's client calls tRPC.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseConfig } from "@/server/db/database";
import { mutationBody, queryPath } from "./load";

export interface RunningServer {
  server: ChildProcess;
  baseUrl: string;
  /** The highest resident memory seen so far, server and children, in bytes. */
  peakRss: () => number;
  /** SIGTERM, then wait for the exit. */
  stop: () => Promise<void>;
  /** SIGKILL to the server and every process under it, as a power cut would; waits for the exit. */
  kill: () => Promise<void>;
  /** Everything the server printed. */
  log: () => string;
}

/**
 * The CPU time in a /proc `stat` line (a process's or a thread's), ms: utime and stime, the 14th
 * and 15th fields, counted after the command's closing parenthesis (the command may hold spaces),
 * in clock ticks of 10 ms.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process and all its descendants (from /proc). */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The resident memory of a process and its descendants, in bytes. */
export function treeRss(rootPid: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** The Node options `npm start` gives the production server (package.json), so it runs here as it does there. */
function productionNodeOptions(): string {
  const { scripts } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  return /NODE_OPTIONS=(\S+)/.exec(scripts.start)?.[1] ?? "";
}

/** Starts the shop as `npm start` does, or `next start` for another app in `options.dir`, ready once `readyPath` answers. */
export async function startServer(port: number, env: Record<string, string>, options: { dir?: string; readyPath?: string } = {}): Promise<RunningServer> {
  const baseUrl = `http://localhost:${port}`;
  // A server left over from an earlier run would answer in this one's place (with its own data
  // and signing secret), and every number measured would be its.
  const leftover = await fetch(baseUrl).then(
    () => true,
    () => false,
  );
  if (leftover) throw new Error(`something already answers on port ${port}: stop it first (e.g. a server left by an interrupted run)`);
  // The shop runs through its own entry point (npm start); another app through Next's.
  const command = options.dir ? ["node_modules/next/dist/bin/next", "start", options.dir] : ["scripts/start.mjs"];
  const server = spawn(process.execPath, [...command, "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_OPTIONS: productionNodeOptions(), ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  let log = "";
  server.stdout!.on("data", (data: Buffer) => (log += data.toString()));
  server.stderr!.on("data", (data: Buffer) => (log += data.toString()));
  const exited = new Promise((resolve) => server.once("exit", resolve));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(server.pid!))), 100);
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}${options.readyPath ?? "/about"}`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (i > 300 || server.exitCode !== null) {
      clearInterval(sampler);
      throw new Error(`the server did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    server,
    baseUrl,
    peakRss: () => Math.max(peak, treeRss(server.pid!)),
    stop: async () => {
      clearInterval(sampler);
      server.kill("SIGTERM");
      await exited;
    },
    kill: async () => {
      clearInterval(sampler);
      for (const pid of processTree(server.pid!).reverse()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
    log: () => log,
  };
}

/** A tRPC mutation as the shop's client sends it; throws with the server's error otherwise. */
export async function post(baseUrl: string, procedure: string, cookie: string, input: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", origin: baseUrl },
    body: mutationBody(input),
  });
  const body = (await response.json()) as { result?: { data?: { json?: unknown } }; error?: unknown };
  if (!response.ok) throw new Error(`${procedure} failed: ${JSON.stringify(body.error)}`);
  return body.result?.data?.json;
}

/** A tRPC query as the shop's client sends it. */
export async function get(baseUrl: string, procedure: string, cookie: string, input?: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${queryPath(procedure, input)}`, { headers: { cookie } });
  const body = (await response.json()) as { result?: { data?: { json?: unknown } }; error?: unknown };
  if (!response.ok) throw new Error(`${procedure} failed: ${JSON.stringify(body.error)}`);
  return body.result?.data?.json;
}

/** A checkout's multipart body: the fields and the proof of payment. */
export function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = `----shop${randomUUID().replaceAll("-", "")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="proof"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await fn(items[index]!, index);
      }
    }),
  );
}

/** Where a script's shop keeps its data: the database to open and the server's environment. */
export interface FreshShop {
  mode: "embedded" | "postgres";
  database: DatabaseConfig;
  /** DATA_DIR: the embedded database, or in PostgreSQL mode only the uploaded files and secret. */
  dataDir: string;
  serverEnv: Record<string, string>;
}

/** Runs `work` on a fresh embedded data directory, removed afterwards. */
export async function withFreshEmbeddedShop<T>(prefix: string, work: (shop: FreshShop) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  try {
    return await work({ mode: "embedded", database: { engine: "pglite", dataDir }, dataDir, serverEnv: { DATA_DIR: dataDir, DATABASE_URL: "" } });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `work` on a fresh database on the PostgreSQL server at `serverUrl`, dropped afterwards. */
export async function withFreshPostgresShop<T>(serverUrl: string, prefix: string, work: (shop: FreshShop) => Promise<T>): Promise<T> {
  const name = `${prefix.replaceAll("-", "_")}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-pg-`));
  try {
    const connectionString = url.toString();
    return await work({ mode: "postgres", database: { engine: "postgres", connectionString }, dataDir, serverEnv: { DATA_DIR: dataDir, DATABASE_URL: connectionString } });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
