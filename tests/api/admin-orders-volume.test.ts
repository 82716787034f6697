import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import type { OrderStatus } from "@/server/db/schema";
import { exportOrders } from "@/server/orders/export-orders";
import { ORDER_STATUSES } from "@/lib/statuses";
import { ORDERS_PAGE_SIZE } from "@/server/orders/schemas";
import { callerAs, contextAs, type Caller } from "../helpers/browser";
import { parseCsv } from "../helpers/csv";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * Order Management at any volume (issue 16 item 4): every order reachable page by page, counts
 * per tab, search by reference, e-mail or name, and the bookkeeper's CSV export.
 */

const BULK = 250;
/** A customer's own name, with everything a CSV writer can get wrong. */
const AWKWARD_NAME = '=HYPERLINK("http://evil.example"), "Zoë" Naidoo';

let db: TestDatabase;
let admin: Caller;
let adminUser: TestUser;
let awkward: TestUser;
let percent: TestUser;
let awkwardOrder: { id: string; reference: string };
let productNames: [string, string];

beforeAll(async () => {
  db = await freshDatabase();
  adminUser = await createUser(db, { role: "admin", fullName: "Shop Owner" });
  admin = await callerAs(db, adminUser);
  const products = await db.kysely.selectFrom("products").select(["id", "name"]).where("available", "=", true).orderBy("name").limit(2).execute();
  productNames = [products[0]!.name, products[1]!.name];

  // 250 orders in one statement, the way a busy year looks to the list. now() is the same for every
  // row, so up to five share a timestamp exactly; every seventh is one microsecond later, inside the
  // same millisecond (what a JavaScript Date cannot tell apart). All placed within the last hours:
  // the 7-day unpaid-order policy leaves them alone.
  const bulkCustomer = await createUser(db, { fullName: "Bulk Buyer" });
  await sql`
    insert into public.orders (reference, user_id, customer_name, customer_email, total, status, idempotency_key, created_at)
    select 'ORD-' || (700000 + g), ${bulkCustomer.id}::uuid, 'Bulk Customer ' || g, 'bulk' || g || '@example.test', 10 + g,
           (array['pending_payment', 'pending_delivery', 'complete', 'cancelled'])[1 + g % 4]::public.order_status,
           gen_random_uuid(),
           now() - (g / 5) * interval '1 minute' + case when g % 7 = 0 then interval '1 microsecond' else interval '0' end
    from generate_series(1, ${BULK}::int) g`.execute(db.kysely);
  await sql`
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity)
    select id, null, 'Bulk pie', total, 1 from public.orders where customer_email like 'bulk%'`.execute(db.kysely);

  awkward = await createUser(db, { fullName: AWKWARD_NAME, email: "zoe.naidoo@example.test" });
  awkwardOrder = await placeTestOrder(db, awkward, [products[0]!.id, products[0]!.id, products[1]!.id]);
  percent = await createUser(db, { fullName: "The 50% Club", email: "club@example.test" });
  await placeTestOrder(db, percent, [products[0]!.id]);
});

afterAll(async () => {
  await db?.close();
});

/** Every order's id in the list's order (newest first, ties by id), as the database sorts them. */
async function idsInOrder(where: { status?: OrderStatus } = {}): Promise<string[]> {
  let query = db.kysely.selectFrom("orders").select("id").orderBy("created_at", "desc").orderBy("id", "desc");
  if (where.status) query = query.where("status", "=", where.status);
  return (await query.execute()).map((row) => row.id);
}

/** Follows nextCursor from the first page to the last, as "Load more" does. */
async function everyPage(caller: Caller, input: { status?: OrderStatus; search?: string } = {}) {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const page: { orders: { id: string }[]; nextCursor: string | null } = await caller.adminOrders.list({ ...input, cursor });
    pages.push(page.orders.map((order) => order.id));
    cursor = page.nextCursor;
    if (pages.length > 100) throw new Error("the pages never end");
  } while (cursor);
  return pages;
}

/** GET /admin/orders/export as `user` would make it (the route builds the same context from the request's cookies). */
async function download(user: TestUser | null, params: Record<string, string> = {}) {
  const response = await exportOrders(await contextAs(db, user), new URLSearchParams(params), new Date("2026-11-24T10:00:00Z"));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

describe("Order Management at any volume", () => {
  it("pages through every order, 50 a page, newest first, none twice and none missing, across equal timestamps", async () => {
    // The data really has ties, and ties within one millisecond.
    const { rows } = await sql<{ orders: number; instants: number; milliseconds: number }>`
      select count(*)::int as orders, count(distinct created_at)::int as instants,
             count(distinct date_trunc('milliseconds', created_at))::int as milliseconds
      from public.orders`.execute(db.kysely);
    expect(rows[0]!.orders).toBeGreaterThan(BULK);
    expect(rows[0]!.instants).toBeLessThan(rows[0]!.orders / 2);
    expect(rows[0]!.milliseconds).toBeLessThan(rows[0]!.instants);

    const pages = await everyPage(admin);
    const expected = await idsInOrder();
    expect(pages.length).toBe(Math.ceil(expected.length / ORDERS_PAGE_SIZE));
    expect(pages.slice(0, -1).every((page) => page.length === ORDERS_PAGE_SIZE)).toBe(true);
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
  });

  it("pages through one status the same way", async () => {
    for (const status of ["cancelled", "pending_payment"] as const) {
      const seen = (await everyPage(admin, { status })).flat();
      expect(seen).toEqual(await idsInOrder({ status }));
      expect(seen.length).toBeGreaterThan(ORDERS_PAGE_SIZE);
    }
  });

  it("an unknown cursor gives an empty page; a malformed one is refused with a clear message", async () => {
    expect(await admin.adminOrders.list({ cursor: "00000000-0000-4000-8000-000000000000" })).toEqual({ orders: [], nextCursor: null });
    await expect(admin.adminOrders.list({ cursor: "2026-11-24T10:00:00Z" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: messages.adminOrders.unknownPage });
  });

  it("counts every tab in one go, for all orders and for a search", async () => {
    const perStatus = async (search?: string) => {
      let query = db.kysely.selectFrom("orders").select(["status", (eb) => eb.fn.countAll<string>().as("n")]).groupBy("status");
      if (search) query = query.where((eb) => eb.or([eb("customer_email", "ilike", `%${search}%`), eb("customer_name", "ilike", `%${search}%`)]));
      const rows = await query.execute();
      const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, Number(rows.find((row) => row.status === status)?.n ?? 0)]));
      return { all: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
    };
    const all = await admin.adminOrders.counts();
    expect(all).toEqual(await perStatus());
    // Bulk order g has status g % 4 (0 pending payment … 3 cancelled); the two placed ones await payment.
    expect(all).toEqual({ all: BULK + 2, pending_payment: 62 + 2, pending_delivery: 63, complete: 63, cancelled: 62 });

    // "bulk1" is in bulk1, bulk10-19 and bulk100-199: 111 orders over all four statuses.
    const searched = await admin.adminOrders.counts({ search: "BULK1" });
    expect(searched).toEqual(await perStatus("bulk1"));
    expect(searched.all).toBe(111);
    expect(await admin.adminOrders.counts({ search: "nobody-at-all" })).toEqual({ all: 0, pending_payment: 0, pending_delivery: 0, complete: 0, cancelled: 0 });
  });

  it("finds a customer by part of their name or e-mail in any case, and an order by its reference in any case", async () => {
    const ids = async (search: string) => (await admin.adminOrders.list({ search })).orders.map((order) => order.id);
    expect(await ids("naidoo")).toEqual([awkwardOrder.id]);
    expect(await ids('"zoë" NAI')).toEqual([awkwardOrder.id]);
    expect(await ids("Zoe.Naidoo@")).toEqual([awkwardOrder.id]);
    expect(await ids(awkwardOrder.reference.toLowerCase())).toEqual([awkwardOrder.id]);
    // A name search respects the status tab.
    expect((await admin.adminOrders.list({ search: "naidoo", status: "complete" })).orders).toEqual([]);
    expect(await ids("Bulk Customer 250")).toHaveLength(1);
  });

  it("takes LIKE's wildcards in a search literally", async () => {
    const names = async (search: string) => (await admin.adminOrders.list({ search })).orders.map((order) => order.customerName);
    expect(await names("50%")).toEqual(["The 50% Club"]);
    expect(await names("%")).toEqual(["The 50% Club"]);
    expect(await names("Bulk_Customer")).toEqual([]);
    expect(await names("Bulk%Customer")).toEqual([]);
    expect(await names("\\")).toEqual([]);
  });
});

describe("the CSV export", () => {
  it("downloads the search's orders as a file that reads back exactly, with a name's comma, quotes and leading = made harmless", async () => {
    const { response, bytes, text } = await download(adminUser, { q: "naidoo" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="orders-2026-11-24.csv"');
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    // UTF-8 with a byte-order mark, for Excel.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const order = await db.kysely.selectFrom("orders").select(["created_at", "total"]).where("id", "=", awkwardOrder.id).executeTakeFirstOrThrow();
    const date = new Intl.DateTimeFormat("sv-SE", { timeZone: "Africa/Johannesburg", dateStyle: "short", timeStyle: "short" }).format(order.created_at);
    expect(parseCsv(text.slice(1))).toEqual([
      ["Reference", "Date", "Customer", "E-mail", "Items", "Total", "Status"],
      [awkwardOrder.reference, date, `'${AWKWARD_NAME}`, "zoe.naidoo@example.test", `2 × ${productNames[0]}; 1 × ${productNames[1]}`, order.total, "Pending Payment"],
    ]);
    expect(order.total).toMatch(/^\d+\.\d\d$/);
  });

  it("holds every order of the filter, newest first, not just the first page", async () => {
    const all = parseCsv((await download(adminUser)).text.slice(1));
    const references = (await db.kysely.selectFrom("orders").select("reference").orderBy("created_at", "desc").orderBy("id", "desc").execute()).map((r) => r.reference);
    expect(all.slice(1).map((record) => record[0])).toEqual(references);
    expect(all.slice(1).every((record) => record.length === 7)).toBe(true);

    const cancelled = parseCsv((await download(adminUser, { status: "cancelled", q: "bulk" })).text.slice(1)).slice(1);
    expect(cancelled.length).toBe((await admin.adminOrders.counts({ search: "bulk" })).cancelled);
    expect(cancelled.every((record) => record[6] === "Cancelled" && record[4] === "1 × Bulk pie")).toBe(true);
  });

  it("refuses a filter it does not understand rather than export everything", async () => {
    const { response, text } = await download(adminUser, { status: "shipped" });
    expect(response.status).toBe(400);
    expect(text).toBe(messages.adminOrders.exportBadFilter);
  });
});

describe("non-admins get nothing", () => {
  it("from the API: customers FORBIDDEN, visitors UNAUTHORIZED, for the list and the counts", async () => {
    for (const [user, code] of [
      [awkward, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      const caller = await callerAs(db, user);
      await expect(caller.adminOrders.list({})).rejects.toMatchObject({ code });
      await expect(caller.adminOrders.counts({})).rejects.toMatchObject({ code });
    }
  });

  it("from the export: 403 and not a line of CSV, for customers and visitors", async () => {
    for (const user of [awkward, percent, null]) {
      const { response, text } = await download(user);
      expect(response.status).toBe(403);
      expect(response.headers.get("content-disposition")).toBeNull();
      expect(text).toBe(messages.adminOrders.exportAdminsOnly);
    }
  });
});
