/**
 * `npm run test:instances`: two production servers on one PostgreSQL database, as a shop runs
 * behind a load balancer (docs/architecture.md#caches-and-several-processes). Checks what must agree across processes:
 * - an admin's availability change made through server A reaches a visitor's page load on
 *   server B (its catalogue cache and kept visitor pages are dropped by the NOTIFY) within 3 s;
 * - failed sign-ins are counted in the database: 5 wrong passwords on A, the 6th on B is refused;
 * - what each server keeps of a signed-in user follows changes made through the other within a
 *   second: a cart change on A shows in the header of B's page (served from its kept template),
 *   and a session signed out through A is refused by B, page and API alike.
 * Needs a production build and TEST_DATABASE_URL (a PostgreSQL server; a fresh database is made).
 */
import { prepareShop } from "./bench/prepare";
import { post, startServer, withFreshPostgresShop, type RunningServer } from "./bench/server";

const PORT_A = Number(process.env.INSTANCES_PORT ?? 3600);
const PORT_B = PORT_A + 1;
const PROPAGATION_LIMIT_MS = 3000;

const results: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: string) {
  results.push({ name, ok, detail });
  console.log(`${ok ? "✓" : "✗"} ${name}: ${detail}`);
}

/** A page load, as a browser sends it (so the kept pages answer it when they can): a visitor's, or signed in with `cookie`. */
async function pageLoad(server: RunningServer, path: string, cookie?: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { accept: "text/html", "sec-fetch-dest": "document", ...(cookie ? { cookie } : {}) } });
  return response.text();
}

/** How many ms until `seen` holds, polling; -1 if it does not within `limit` ms. */
async function within(limit: number, seen: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limit) {
    if (await seen()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return -1;
}

async function signInStatus(server: RunningServer, email: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/trpc/auth.signIn`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ json: { email, password: "not-the-password-1" } }),
  });
  return response.status;
}

async function main(): Promise<number> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    console.log("[instances] TEST_DATABASE_URL is not set: nothing to run (needs a PostgreSQL server).");
    return 1;
  }
  await withFreshPostgresShop(serverUrl, "instances", async (shop) => {
    const prepared = await prepareShop({ database: shop.database, dataDir: shop.dataDir, products: 5, customers: 2 });
    const [a, b] = await Promise.all([startServer(PORT_A, shop.serverEnv), startServer(PORT_B, shop.serverEnv)]);
    try {
      // Both servers have the listing kept before the change.
      const productId = prepared.productIds[0]!;
      const link = `/products/${productId}`;
      for (const server of [a, b]) await pageLoad(server, "/products");
      const before = await pageLoad(b, "/products");
      check("server B lists the product before the change", before.includes(link), link);

      await post(a.baseUrl, "adminProducts.setAvailability", prepared.admin.cookie, { id: productId, available: false });
      const changedAt = Date.now();
      let seenAfter = -1;
      while (Date.now() - changedAt < PROPAGATION_LIMIT_MS + 2000) {
        if (!(await pageLoad(b, "/products")).includes(link)) {
          seenAfter = Date.now() - changedAt;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      check(
        "an availability change through A reaches a visitor's page on B within 3 s",
        seenAfter >= 0 && seenAfter <= PROPAGATION_LIMIT_MS,
        seenAfter >= 0 ? `after ${seenAfter} ms` : "never seen",
      );
      const details = await pageLoad(b, link);
      check("B's product page says it is unavailable", /unavailable/i.test(details), "details page");

      const email = prepared.customers[0]!.email;
      const onA: number[] = [];
      for (let i = 0; i < 5; i++) onA.push(await signInStatus(a, email));
      const sixthOnB = await signInStatus(b, email);
      check("5 wrong passwords on A are refused as wrong", onA.every((status) => status === 401), onA.join(" "));
      check("the 6th, on B, is rate-limited (429)", sixthOnB === 429, String(sixthOnB));

      // A signed-in customer: both servers keep their session and cart count in memory.
      const customer = prepared.customers[1]!;
      const badge = async (server: RunningServer) =>
        /data-testid="cart-count"><span class="sr-only">\(<\/span>(\d+)</.exec(await pageLoad(server, "/products", customer.cookie))?.[1];
      for (const server of [a, b]) await badge(server);
      const countBefore = await badge(b);
      const available = prepared.productIds[1]!;
      await post(a.baseUrl, "cart.add", customer.cookie, { productId: available });
      const counted = await within(PROPAGATION_LIMIT_MS, async () => (await badge(b)) === String(Number(countBefore) + 1));
      check("a cart change through A shows in the header of B's page within 3 s", counted >= 0, counted >= 0 ? `after ${counted} ms (${countBefore} → ${Number(countBefore) + 1})` : `still ${await badge(b)}`);

      await post(a.baseUrl, "auth.signOut", customer.cookie, {});
      const refused = await within(PROPAGATION_LIMIT_MS, async () => !(await pageLoad(b, "/products", customer.cookie)).includes("data-testid=\"greeting\""));
      check("a session signed out through A is refused by B's pages within 3 s", refused >= 0, refused >= 0 ? `after ${refused} ms` : "still greeted");
      const session = (await fetch(`${b.baseUrl}/api/trpc/auth.session`, { headers: { cookie: customer.cookie } }).then((response) => response.json())) as { result?: { data?: { json?: unknown } } };
      check("and by B's API", session.result?.data?.json === null, JSON.stringify(session.result?.data));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
  const failed = results.filter((result) => !result.ok).length;
  console.log(`\n${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
