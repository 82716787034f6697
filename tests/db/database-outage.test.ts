/**
 * The database server going away and coming back (PostgreSQL mode; skipped on PGlite, which
 * runs inside the shop's own process): callers are told to try again, and the shop recovers on
 * its own, without a restart, once the server is reachable again.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { createCaller } from "@/server/api/root";
import { openDatabase } from "@/server/db/database";
import { contextAs } from "../helpers/browser";
import { freshDatabase, type TestDatabase } from "../helpers/database";
import { trpcRefusal } from "../helpers/attempt";

/** A TCP hop between the shop and PostgreSQL that the test can cut and restore. */
async function cuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    /** The database "goes away": open connections drop, new ones are refused. */
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: open,
    /** Stops the hop once the shop has closed its connections. */
    close: () => new Promise((resolve) => server!.close(resolve)),
  };
}

describe.runIf(process.env.DATABASE_URL)("the database going away (PostgreSQL mode)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it("answers 'try again' while it is away, and recovers by itself when it is back", async () => {
    const url = new URL(db.connectionString!);
    const proxy = await cuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    // The shop's own database, reached through the hop.
    const shop = await openDatabase({ engine: "postgres", connectionString: viaProxy.toString(), maxConnections: 2 });
    try {
      const visitor = async () => createCaller(await contextAs(shop, null));
      expect((await (await visitor()).catalogue.categories()).length).toBeGreaterThan(0);

      await proxy.cut();
      // A search: never answered from the catalogue cache, so it needs the database.
      const refused = await trpcRefusal((await visitor()).catalogue.list({ search: "pie" }));
      expect(refused.code).toBe("SERVICE_UNAVAILABLE");
      expect(refused.message).toBe(messages.unavailable);

      await proxy.restore();
      expect((await (await visitor()).catalogue.list({ search: "pie" })).length).toBeGreaterThan(0);
    } finally {
      await shop.close();
      await proxy.close();
    }
  }, 30_000);
});

