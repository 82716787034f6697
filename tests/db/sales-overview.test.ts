import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, runAs, scopedDb } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import type { SessionUser } from "@/server/auth/session-user";
import { exportOverviewCsv, OVERVIEW_CSV_COLUMNS } from "@/server/overview/export-csv";
import { readSalesRange, readSalesSummary, type SalesRange } from "@/server/overview/overview-queries";
import { parseCsv } from "../helpers/csv";
import { errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/**
 * The sales overview's figures (issue 26, 20261129000200_sales_overview.sql) against totals worked
 * out by hand on a fixed data set: orders at 23:30 and 00:30 South African time either side of
 * midnight, a week boundary, cancelled and unpaid orders. On PGlite and, with DATABASE_URL,
 * PostgreSQL, whose session time zone is UTC here: the days must still be South African ones.
 *
 * "Now" is Wednesday 25 November 2026, 10:00 SAST; the week started on Monday the 23rd.
 */
const NOW = new Date("2026-11-25T10:00:00+02:00");

let db: TestDatabase;
let admin: TestUser;
let customer: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  const k = db.kysely;
  const cleaning = (await k.insertInto("categories").values({ name: "Cleaning & Laundry" }).returning("id").executeTakeFirstOrThrow()).id;
  const consulting = (await k.insertInto("categories").values({ name: "Risk Consulting & Recruitment" }).returning("id").executeTakeFirstOrThrow()).id;
  const product = async (name: string, price: string, category: string) =>
    (await k.insertInto("products").values({ name, price, category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  const x = await product("Carpet clean", "100.00", cleaning);
  const y = await product("Laundry bag", "50.00", cleaning);
  const z = await product("Risk audit", "300.00", consulting);
  admin = await createUser(db, { role: "admin", fullName: "Owner" });
  customer = await createUser(db, { fullName: "Nomsa Khumalo" });

  /** An order of `lines` placed at `at` (SAST wall time) with `status`. */
  const order = async (key: string, at: string, status: OrderStatus, lines: string[]) => {
    const placed = await placeTestOrder(db, customer, lines);
    await k.updateTable("orders").set({ created_at: new Date(`${at}+02:00`) }).where("id", "=", placed.id).execute();
    if (status !== "pending_payment") await k.updateTable("orders").set({ status }).where("id", "=", placed.id).execute();
    ids[key] = placed.id;
  };
  await order("A", "2026-11-24T23:30:00", "pending_delivery", [x, x]); // yesterday, R200
  await order("B", "2026-11-25T00:30:00", "complete", [y]); // today, R50
  await order("C", "2026-11-25T09:00:00", "cancelled", [x]); // cancelled: not revenue
  await order("D", "2026-11-25T08:00:00", "pending_payment", [y, y, y]); // outstanding R150
  await order("E", "2026-11-20T12:00:00", "complete", [x, z]); // last week, R400
  await order("F", "2026-11-16T00:30:00", "complete", [z]); // last week's Monday, R300
  await order("G", "2026-11-15T23:30:00", "complete", [x]); // the Sunday before: not last week, R100
  await order("H", "2026-11-10T10:00:00", "pending_payment", [x]); // outstanding R100, the oldest
  // A paid order that was then cancelled (credited) is not revenue either.
  await order("I", "2026-11-24T12:00:00", "pending_delivery", [z]);
  await k.updateTable("orders").set({ status: "cancelled" }).where("id", "=", ids.I!).execute();
});

afterAll(async () => {
  await db?.close();
});

describe(`sales overview (${process.env.DATABASE_URL ? "postgres" : "pglite"})`, () => {
  it("today against yesterday and this week against last, in South African days, and the money outstanding", async () => {
    const summary = await runAs(db.kysely, admin.identity, (trx) => readSalesSummary(trx, NOW));
    expect(summary).toEqual({
      today: "2026-11-25",
      weekStart: "2026-11-23",
      periods: {
        today: { revenue: "50.00", orders: 1, deliveryFees: "0" }, // B at 00:30
        yesterday: { revenue: "200.00", orders: 1, deliveryFees: "0" }, // A at 23:30
        thisWeek: { revenue: "250.00", orders: 2, deliveryFees: "0" },
        lastWeek: { revenue: "700.00", orders: 2, deliveryFees: "0" }, // E and F; G is the Sunday before
      },
      outstanding: { orders: 2, value: "250.00", oldest: expect.any(String), balances: 0, balancesValue: "0" },
    });
    expect(new Date(summary.outstanding.oldest!).toISOString()).toBe(new Date("2026-11-10T10:00:00+02:00").toISOString());
  });

  it("a range: revenue and orders per day (every day), totals, top products and business lines", async () => {
    const range: SalesRange = await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2026-11-15", to: "2026-11-25" }));
    expect(range.revenue).toBe("1050.00");
    expect(range.orders).toBe(5);
    expect(range.days).toHaveLength(11);
    const nonZero = range.days.filter((d) => d.orders > 0).map((d) => [d.day, d.revenue, d.orders]);
    expect(nonZero).toEqual([
      ["2026-11-15", "100.00", 1],
      ["2026-11-16", "300.00", 1],
      ["2026-11-20", "400.00", 1],
      ["2026-11-24", "200.00", 1],
      ["2026-11-25", "50.00", 1],
    ]);
    expect(range.days.find((d) => d.day === "2026-11-17")).toEqual({ day: "2026-11-17", revenue: "0", orders: 0 });
    expect(range.topProducts).toEqual([
      { name: "Risk audit", revenue: "600.00", units: 2 },
      { name: "Carpet clean", revenue: "400.00", units: 4 },
      { name: "Laundry bag", revenue: "50.00", units: 1 },
    ]);
    expect(range.categories).toEqual([
      { name: "Risk Consulting & Recruitment", revenue: "600.00" },
      { name: "Cleaning & Laundry", revenue: "450.00" },
    ]);
    // One day: the 23:30 order is the 24th's, the 00:30 one the 25th's.
    const day24 = await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2026-11-24", to: "2026-11-24" }));
    expect([day24.revenue, day24.orders]).toEqual(["200.00", 1]);
  });

  it("only admins read it; a range backwards or longer than a year is refused", async () => {
    expect(await runAs(db.kysely, customer.identity, (trx) => readSalesSummary(trx, NOW)).catch(errorMessage)).toBe("admins_only");
    expect(await runAs(db.kysely, customer.identity, (trx) => readSalesRange(trx, { from: "2026-11-01", to: "2026-11-02" })).catch(errorMessage)).toBe("admins_only");
    expect(await runAs(db.kysely, ANON, (trx) => readSalesSummary(trx, NOW)).catch(errorMessage)).toMatch(/permission denied/);
    expect(await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2026-11-02", to: "2026-11-01" })).catch(errorMessage)).toBe("invalid_range");
    expect(await runAs(db.kysely, admin.identity, (trx) => readSalesRange(trx, { from: "2025-01-01", to: "2026-11-01" })).catch(errorMessage)).toBe("invalid_range");
  });

  it("the paid-order and unpaid-order indexes serve the overview's reads (the plans name them)", async () => {
    const plan = (query: string) =>
      db.kysely.transaction().execute(async (trx) => {
        // A table this small would be read whole; without sequential scans the planner shows which index fits.
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql.raw<Record<string, string>>(`explain ${query}`).execute(trx);
        return rows.map((row) => Object.values(row)[0]).join("\n");
      });
    expect(await plan("select sum(total) from public.orders where status in ('pending_delivery', 'complete') and created_at >= now() - interval '30 days'")).toContain("orders_paid_created_idx");
    expect(await plan("select count(*), sum(total), min(created_at) from public.orders where status = 'pending_payment'")).toContain("orders_unpaid_created_idx");
  });

  it("the CSV of a range: every order placed in it, oldest first, in SAST, streamed in pages, admins only", async () => {
    const admins = { db: scopedDb(db.kysely, admin.identity), user: { role: "admin" } as SessionUser };
    // Pages of 2 orders: the keyset cursor carries each page on from the last.
    const response = exportOverviewCsv(admins, new URLSearchParams({ from: "2026-11-24", to: "2026-11-25" }), 2);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await response.text();
    const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ""));
    expect(header).toEqual([...OVERVIEW_CSV_COLUMNS]);
    expect(rows.map((r) => [r[0], r[5], r[6]])).toEqual([
      ["2026-11-24 12:00", "Cancelled", "300.00"],
      ["2026-11-24 23:30", "Pending Delivery", "200.00"],
      ["2026-11-25 00:30", "Complete", "50.00"],
      ["2026-11-25 08:00", "Pending Payment", "150.00"],
      ["2026-11-25 09:00", "Cancelled", "100.00"],
    ]);
    expect(rows[1]![4]).toBe("2 × Carpet clean");
    expect(rows[1]![7]).toMatch(/^INV-\d{6}$/);
    const customers = { db: scopedDb(db.kysely, customer.identity), user: { role: "user" } as SessionUser };
    expect(exportOverviewCsv(customers, new URLSearchParams({ from: "2026-11-24", to: "2026-11-25" })).status).toBe(403);
    expect(exportOverviewCsv(admins, new URLSearchParams({ from: "2026-11-25", to: "2026-11-24" })).status).toBe(400);
  });
});
