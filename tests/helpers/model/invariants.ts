/**
 * What must hold after every command of tests/api/model.test.ts, read with SQL on the privileged
 * handle (so RLS hides nothing) and through the API where the brief names a count the shop shows.
 */
import path from "node:path";
import { sql } from "kysely";
import { expect } from "vitest";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { testStorageRoot } from "../browser";
import { answer, expectOk } from "./answers";
import type { RealShop } from "./real-shop";
import { cartCount, orderCounts, type ShopModel } from "./shop-model";

export async function checkInvariants(model: ShopModel, real: RealShop): Promise<void> {
  const { db } = real;

  // Order Management's tabs (a read: the unpaid-order policy runs only on the shop's timer, ShopTimerRuns).
  const counts = expectOk(await answer(real.admin.adminOrders.counts({}), "adminOrders.counts"), "adminOrders.counts");
  const { rows: statusRows } = await sql<{ status: string; n: number }>`
    select status::text, count(*)::int as n from public.orders group by status`.execute(db.kysely);
  const fromRows: Record<string, number> = { all: 0, pending_payment: 0, pending_delivery: 0, complete: 0, cancelled: 0 };
  for (const row of statusRows) {
    fromRows[row.status] = row.n;
    fromRows.all! += row.n;
  }
  expect(counts, "Order Management's tab counts against the rows").toEqual(fromRows);
  expect(counts, "Order Management's tab counts against the model").toEqual(orderCounts(model));
  const { rows: statuses } = await sql<{ id: string; status: string }>`select id, status::text from public.orders`.execute(db.kysely);
  expect(new Map(statuses.map((row) => [row.id, row.status])), "each order's status").toEqual(new Map(model.orders.map((order) => [order.id, order.status])));

  // An order's total is the sum of its lines, and it has lines.
  const { rows: badTotals } = await sql<{ reference: string; total: string; lines: string | null }>`
    select o.reference, o.total::text, sum(i.unit_price * i.quantity)::text as lines
    from public.orders o left join public.order_items i on i.order_id = o.id
    group by o.id
    having count(i.id) = 0 or o.total <> sum(i.unit_price * i.quantity)`.execute(db.kysely);
  expect(badTotals, "orders whose total is not the sum of their lines").toEqual([]);

  // Every checkout's (bank-transfer) order keeps its proof, as a row and as bytes; no proof without
  // its order. An accepted quote's order is placed before it is paid (docs/quotes.md).
  const { rows: withoutProof } = await sql<{ reference: string }>`
    select o.reference from public.orders o
    where (o.proof_path is null and o.quote_id is null)
       or (o.proof_path is not null
           and not exists (select 1 from storage.objects s where s.bucket_id = 'payments' and s.name = o.proof_path))`.execute(db.kysely);
  expect(withoutProof, "orders without their proof in storage.objects").toEqual([]);
  const { rows: proofRows } = await sql<{ name: string }>`select name from storage.objects where bucket_id = 'payments'`.execute(db.kysely);
  const proofFiles = (await listObjectFiles(testStorageRoot(db)))
    .filter((file) => file.startsWith(`payments${path.sep}`))
    .map((file) => file.slice("payments".length + 1).split(path.sep).join("/"));
  expect(new Set(proofFiles), "proof files on disk against storage.objects").toEqual(new Set(proofRows.map((row) => row.name)));
  const { rows: orphanProofs } = await sql<{ name: string }>`
    select s.name from storage.objects s
    where s.bucket_id = 'payments' and not exists (select 1 from public.orders o where o.proof_path = s.name)`.execute(db.kysely);
  expect(orphanProofs, "proofs no order claims").toEqual([]);

  // No order line for a product ordered while it was unavailable.
  const { rows: lines } = await sql<{ product_id: string; reference: string; created_at: Date }>`
    select i.product_id, o.reference, o.created_at
    from public.order_items i join public.orders o on o.id = i.order_id
    where i.product_id is not null`.execute(db.kysely);
  for (const line of lines) {
    const placed = new Date(line.created_at);
    const during = real.unavailable.get(line.product_id)?.find((span) => placed >= span.from && (span.to === null || placed < span.to));
    expect(during, `order ${line.reference} has a line for a product that was unavailable when it was placed`).toBeUndefined();
  }

  // Counted stock (issue 37): as the model says, never below zero.
  for (const [index, product] of model.products.entries()) {
    if (product.deleted) continue;
    for (const variant of product.variants) {
      const row = await db.kysely.selectFrom("product_variants").select("stock").where("id", "=", variant.id).executeTakeFirstOrThrow();
      expect(row.stock, `product ${index}'s ${variant.size ?? "only"} variant's stock against the model`).toBe(variant.stock);
    }
  }
  const { rows: negative } = await sql<{ id: string }>`select id from public.product_variants where stock < 0`.execute(db.kysely);
  expect(negative, "variants below zero").toEqual([]);

  // Carts: the rows, the model, and the count each signed-in customer's badge shows.
  for (const [index, customer] of model.customers.entries()) {
    const { rows } = await sql<{ n: number }>`
      select coalesce(sum(quantity), 0)::int as n from public.cart_items where user_id = ${customer.id}::uuid`.execute(db.kysely);
    expect(rows[0]!.n, `customer ${index}'s cart rows against the model`).toBe(cartCount(customer));
    if (customer.signedIn && !customer.deleted) {
      const badge = await answer(
        real.browsers[index]!.call((caller) => caller.cart.count()),
        `cart.count of customer ${index}`,
      );
      expect(expectOk(badge, `cart.count of customer ${index}`), `customer ${index}'s cart.count against the rows`).toBe(rows[0]!.n);
    }
  }
}
