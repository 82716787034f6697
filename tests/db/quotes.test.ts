import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAs } from "@/server/db/as-caller";
import { attempt, errorMessage } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";

/**
 * Quotes in SQL (supabase/schemas/105_quotes.sql, docs/quotes.md), on PGlite and, with
 * DATABASE_URL, on a PostgreSQL server where the concurrent calls below really run at once:
 * accept_quote() makes one order however many transactions race for it, send_quote() numbers
 * gap-free under concurrent sends, a sent version is frozen, and expiry is checked at acceptance.
 */

let db: TestDatabase;
let admin: TestUser;
let variant: string;
let product: string;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  admin = await createUser(db, { role: "admin" });
  const category = (await db.kysely.insertInto("categories").values({ name: "Embroidery & Branding" }).returning("id").executeTakeFirstOrThrow()).id;
  product = (await db.kysely.insertInto("products").values({ name: "Golf shirt", price: "189.00", category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
  variant = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", product).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

/** A request of `customer`'s, priced (120 shirts at R150 and a R450 set-up) and sent by the admin: its version's id. */
async function sentQuote(customer: TestUser): Promise<string> {
  const requestId = await runAs(db.kysely, customer.identity, async (trx) => {
    const { rows } = await sql<{ id: string }>`
      select public.request_quote('120 shirts', ${JSON.stringify([{ variantId: variant, quantity: 120 }])}::jsonb, null, '', '', '[]'::jsonb) as id`.execute(trx);
    return rows[0]!.id;
  });
  return runAs(db.kysely, admin.identity, async (trx) => {
    const lines = [
      { variantId: variant, quantity: 120, unitPrice: "150.00" },
      { description: "Set-up", quantity: 1, unitPrice: "450.00" },
    ];
    const { rows } = await sql<{ id: string }>`
      select public.save_quote_draft(${requestId}::uuid, (now() at time zone 'Africa/Johannesburg')::date + 30, '', '', ${JSON.stringify(lines)}::jsonb) as id`.execute(trx);
    await sql`select public.send_quote(${rows[0]!.id}::uuid)`.execute(trx);
    return rows[0]!.id;
  });
}

function accept(customer: TestUser, quoteId: string) {
  return runAs(db.kysely, customer.identity, async (trx) => {
    const { rows } = await sql<{ id: string; total: string }>`select id, total from public.accept_quote(${quoteId}::uuid, 'PO-1')`.execute(trx);
    return rows[0]!;
  });
}

describe("accept_quote", () => {
  it("makes exactly one order from 20 acceptances at once, at the quoted prices", async () => {
    const customer = await createUser(db);
    const quoteId = await sentQuote(customer);
    const orders = await Promise.all(Array.from({ length: 20 }, () => accept(customer, quoteId)));
    expect(new Set(orders.map((order) => order.id)).size).toBe(1);
    expect(orders[0]!.total).toBe("18450.00");
    const rows = await db.kysely.selectFrom("orders").select(["id", "purchase_order", "status"]).where("quote_id", "=", quoteId).execute();
    expect(rows).toEqual([{ id: orders[0]!.id, purchase_order: "PO-1", status: "pending_payment" }]);
    const lines = await db.kysely.selectFrom("order_items").select(["product_name", "unit_price", "quantity"]).where("order_id", "=", orders[0]!.id).orderBy("unit_price").execute();
    expect(lines).toEqual([
      { product_name: "Golf shirt", unit_price: "150.00", quantity: 120 },
      { product_name: "Set-up", unit_price: "450.00", quantity: 1 },
    ]);
  });

  it("refuses a version past its validity date, at the moment of acceptance, and changes nothing", async () => {
    const customer = await createUser(db);
    const quoteId = await sentQuote(customer);
    await sql`alter table public.quotes disable trigger quotes_frozen`.execute(db.kysely);
    await sql`update public.quotes set valid_until = (now() at time zone 'Africa/Johannesburg')::date - 1 where id = ${quoteId}::uuid`.execute(db.kysely);
    await sql`alter table public.quotes enable trigger quotes_frozen`.execute(db.kysely);
    const result = await attempt(db, customer.identity, (trx) => sql`select public.accept_quote(${quoteId}::uuid, null)`.execute(trx));
    expect(errorMessage(result.error)).toBe("quote_expired");
    expect(await db.kysely.selectFrom("orders").select("id").where("quote_id", "=", quoteId).execute()).toEqual([]);
    expect((await db.kysely.selectFrom("quotes").select("status").where("id", "=", quoteId).executeTakeFirstOrThrow()).status).toBe("sent");
  });

  it("refuses another customer's version as unknown", async () => {
    const quoteId = await sentQuote(await createUser(db));
    const result = await attempt(db, (await createUser(db)).identity, (trx) => sql`select public.accept_quote(${quoteId}::uuid, null)`.execute(trx));
    expect(errorMessage(result.error)).toBe("quote_unknown");
  });

  it("sells a line whose product was deleted after sending as quoted, without a product", async () => {
    const customer = await createUser(db);
    const category = (await db.kysely.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
    const spare = (await db.kysely.insertInto("products").values({ name: "Cap", price: "90.00", category_id: category, image_path: null }).returning("id").executeTakeFirstOrThrow()).id;
    const spareVariant = (await db.kysely.selectFrom("product_variants").select("id").where("product_id", "=", spare).executeTakeFirstOrThrow()).id;
    const requestId = await runAs(db.kysely, customer.identity, async (trx) => {
      const { rows } = await sql<{ id: string }>`select public.request_quote('Caps', '[]'::jsonb, null, '', '', '[]'::jsonb) as id`.execute(trx);
      return rows[0]!.id;
    });
    const quoteId = await runAs(db.kysely, admin.identity, async (trx) => {
      const { rows } = await sql<{ id: string }>`
        select public.save_quote_draft(${requestId}::uuid, (now() at time zone 'Africa/Johannesburg')::date + 7, '', '',
                                       ${JSON.stringify([{ variantId: spareVariant, quantity: 50, unitPrice: "80" }])}::jsonb) as id`.execute(trx);
      await sql`select public.send_quote(${rows[0]!.id}::uuid)`.execute(trx);
      return rows[0]!.id;
    });
    await db.kysely.deleteFrom("products").where("id", "=", spare).execute();
    const order = await accept(customer, quoteId);
    expect(order.total).toBe("4000.00");
    expect(await db.kysely.selectFrom("order_items").select(["product_id", "product_name"]).where("order_id", "=", order.id).execute()).toEqual([{ product_id: null, product_name: "Cap" }]);
  });
});

describe("send_quote", () => {
  it("numbers concurrent sends gap-free, one number each", async () => {
    const before = Number((await db.kysely.selectFrom("quote_counters").select("last_number").executeTakeFirstOrThrow()).last_number);
    const customer = await createUser(db);
    await Promise.all(Array.from({ length: 8 }, () => sentQuote(customer)));
    const numbers = (await db.kysely.selectFrom("quote_requests").select("serial").where("user_id", "=", customer.id).execute()).map((row) => Number(row.serial)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, index) => before + index + 1));
  });

  it("freezes a sent version: its lines and prices change for nobody, not even the table's owner", async () => {
    const quoteId = await sentQuote(await createUser(db));
    await expect(sql`update public.quote_lines set unit_price = 1 where quote_id = ${quoteId}::uuid`.execute(db.kysely)).rejects.toThrow(/quote_frozen/);
    await expect(sql`delete from public.quote_lines where quote_id = ${quoteId}::uuid`.execute(db.kysely)).rejects.toThrow(/quote_frozen/);
    await expect(sql`update public.quotes set total = 1 where id = ${quoteId}::uuid`.execute(db.kysely)).rejects.toThrow(/quote_frozen/);
    // A catalogue price change leaves it as it was.
    await db.kysely.updateTable("products").set({ price: "999.00" }).where("id", "=", product).execute();
    const line = await db.kysely.selectFrom("quote_lines").select("unit_price").where("quote_id", "=", quoteId).where("variant_id", "=", variant).executeTakeFirstOrThrow();
    expect(line.unit_price).toBe("150.00");
    await db.kysely.updateTable("products").set({ price: "189.00" }).where("id", "=", product).execute();
  });

  it("is for admins only, and a customer writes none of the quote tables directly", async () => {
    const customer = await createUser(db);
    const quoteId = await sentQuote(customer);
    const send = await attempt(db, customer.identity, (trx) => sql`select public.send_quote(${quoteId}::uuid)`.execute(trx));
    expect(errorMessage(send.error)).toBe("admins_only");
    const write = await attempt(db, customer.identity, (trx) => sql`update public.quotes set status = 'accepted' where id = ${quoteId}::uuid`.execute(trx));
    expect(write.ok).toBe(false);
  });
});
