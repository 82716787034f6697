import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import type { DB } from "./schema";
import { Mutex, PGliteDialect } from "./pglite-dialect";

/** What a change notification listener receives: the raw payload text of pg_notify. */
export type NotificationListener = (payload: string) => void;

export interface ListenOptions {
  /**
   * Called when notifications may have been missed: the connection that listens was lost and is
   * back (PostgreSQL). A cache drops everything then, as it would on a change.
   */
  onGap?: () => void;
}

/**
 * One database handle per server process, whichever engine is behind it.
 * `kysely` connects with full privileges: every request goes through `runAs` (as-caller.ts),
 * which drops to the caller's role first.
 */
export interface ShopDatabase {
  readonly engine: "pglite" | "postgres";
  readonly kysely: Kysely<DB>;
  /** LISTEN on a channel; resolves with the function that stops listening. */
  listen(channel: string, listener: NotificationListener, options?: ListenOptions): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseConfig =
  | {
      engine: "pglite";
      dataDir?: string;
      /** Start an in-memory database from a copy of another's data directory (PGlite's dumpDataDir); the tests' migrated template. */
      loadDataDir?: Blob;
    }
  | { engine: "postgres"; connectionString: string; maxConnections?: number };

export async function openDatabase(config: DatabaseConfig): Promise<ShopDatabase> {
  return config.engine === "pglite" ? openPglite(config.dataDir, config.loadDataDir) : openPostgres(config);
}

// PGlite ----------------------------------------------------------------------------------------

/** The file that names the process holding a data directory. */
export const LOCK_FILE = "shop.lock";

/** The PID holding `dataDir`, if a live process other than this one holds it. */
export function dataDirHolder(dataDir: string): number | undefined {
  const file = path.join(dataDir, LOCK_FILE);
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined; // stale lock: that process is gone
  }
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${pid}). ` +
        "PGlite allows one process per data directory: stop the running shop first.",
    );
  }
}

/**
 * PGlite's Postgres lives in this process's memory, and it touches all of its shared buffers
 * when it starts: at Postgres's default of 128 MB a reopened shop sat at 340 MB resident before
 * serving anything, at 32 MB it sits at 190 MB (measured; see BENCHMARKS.md). A small shop's
 * whole database fits in 32 MB many times over, and the files below it are in the OS's cache.
 */
export const PGLITE_SETTINGS = ["shared_buffers = 32MB"];

async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<ShopDatabase> {
  const { PGlite } = await import("@electric-sql/pglite");
  let lockFile: string | undefined;
  if (dataDir) {
    const holder = dataDirHolder(dataDir);
    if (holder !== undefined) throw new DataDirInUseError(dataDir, holder);
    fs.mkdirSync(dataDir, { recursive: true });
    lockFile = path.join(dataDir, LOCK_FILE);
    fs.writeFileSync(lockFile, String(process.pid));
  }
  const pg = await PGlite.create(dataDir ? path.join(dataDir, "pgdata") : undefined, { postgresqlconf: PGLITE_SETTINGS, loadDataDir });
  const mutex = new Mutex();
  const kysely = new Kysely<DB>({ dialect: new PGliteDialect(pg, mutex) });

  return {
    engine: "pglite",
    kysely,
    async listen(channel, listener) {
      // LISTEN must not land inside someone else's transaction: take the same lock Kysely uses.
      const release = await mutex.lock();
      try {
        const unlisten = await pg.listen(channel, listener);
        return async () => {
          const releaseAgain = await mutex.lock();
          try {
            await unlisten();
          } finally {
            releaseAgain();
          }
        };
      } finally {
        release();
      }
    },
    async close() {
      const release = await mutex.lock();
      try {
        await pg.close();
      } finally {
        release();
        if (lockFile) fs.rmSync(lockFile, { force: true });
      }
    },
  };
}

// PostgreSQL server --------------------------------------------------------------------------

async function openPostgres(config: {
  connectionString: string;
  maxConnections?: number;
}): Promise<ShopDatabase> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: config.connectionString,
    max: config.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error("[db] idle client error:", error.message));
  // Nor may one that is checked out: pg emits the drop as an 'error' event, which would be an
  // uncaught exception without a listener. The query in flight fails by itself (and its caller
  // is told to try again); the pool discards the broken client.
  pool.on("connect", (client) => client.on("error", (error) => console.error("[db] connection lost:", error.message)));
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const notifications = new PostgresNotifications(pg, config.connectionString);

  return {
    engine: "postgres",
    kysely,
    listen: (channel, listener, options) => notifications.listen(channel, listener, options),
    async close() {
      await notifications.close();
      await kysely.destroy();
    },
  };
}

/**
 * One dedicated connection for LISTEN, shared by all listeners, reconnecting with backoff when
 * the server goes away (notifications sent while it was down are lost; listeners refetch).
 */
class PostgresNotifications {
  readonly #listeners = new Map<string, Set<NotificationListener>>();
  readonly #gapListeners = new Set<() => void>();
  #client: import("pg").Client | undefined;
  #connecting: Promise<import("pg").Client> | undefined;
  /** Whether a connection was lost since the last one was made: listeners may have missed something. */
  #lost = false;
  #closed = false;

  constructor(
    private readonly pg: typeof import("pg").default,
    private readonly connectionString: string,
  ) {}

  async listen(channel: string, listener: NotificationListener, options: ListenOptions = {}) {
    const onGap = options.onGap;
    if (onGap) this.#gapListeners.add(onGap);
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      const client = await this.#connect();
      await client.query(`listen ${quoteIdent(channel)}`);
    }
    set.add(listener);
    return async () => {
      set.delete(listener);
      if (onGap) this.#gapListeners.delete(onGap);
    };
  }

  #connect(): Promise<import("pg").Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new this.pg.Client({ connectionString: this.connectionString });
      client.on("notification", (message) => {
        for (const listener of this.#listeners.get(message.channel) ?? []) listener(message.payload ?? "");
      });
      client.on("error", () => this.#reconnect());
      client.on("end", () => this.#reconnect());
      await client.connect();
      for (const channel of this.#listeners.keys()) await client.query(`listen ${quoteIdent(channel)}`);
      this.#client = client;
      if (this.#lost) {
        this.#lost = false;
        for (const onGap of this.#gapListeners) onGap();
      }
      return client;
    })().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  #reconnect(delay = 500) {
    if (this.#closed) return;
    this.#lost = true;
    const old = this.#client;
    this.#client = undefined;
    old?.removeAllListeners();
    old?.end().catch(() => {});
    setTimeout(() => {
      if (this.#closed || this.#client || this.#connecting) return;
      this.#connect().catch(() => this.#reconnect(Math.min(delay * 2, 10_000)));
    }, delay).unref();
  }

  async close() {
    this.#closed = true;
    await this.#client?.end().catch(() => {});
  }
}

function quoteIdent(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs a multi-statement SQL script on a connection or transaction with full privileges. */
export async function execScript(db: Kysely<DB>, script: string): Promise<void> {
  await sql.raw(script).execute(db);
}
