import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FULFILMENT_METHODS, INVOICE_KINDS, ORDER_STATUSES, PAYMENT_METHODS, PAYMENT_OUTCOMES, QUOTE_MODES, QUOTE_STATUSES, USER_ROLES } from "@/lib/statuses";
import { freshDatabase, type TestDatabase } from "../helpers/database";

/** src/lib/statuses.ts declares each status once; here each list is checked against the database's own. */
describe(`status values (${process.env.DATABASE_URL ? "postgres" : "pglite"})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase({ seed: false });
  });
  afterAll(() => db.close());

  async function enumValues(type: string) {
    const { rows } = await sql<{ value: string }>`
      select e.enumlabel as value from pg_enum e join pg_type t on t.oid = e.enumtypid
      where t.typname = ${type} and t.typnamespace = 'public'::regnamespace order by e.enumsortorder`.execute(db.kysely);
    return rows.map((row) => row.value);
  }

  /** The values a column's check constraint allows, read from its definition (`col in ('a', 'b')` or `= any (array[…])`). */
  async function checkedValues(table: string, column: string) {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_constraintdef(c.oid) as definition from pg_constraint c
      where c.conrelid = ${`public.${table}`}::regclass and c.contype = 'c'`.execute(db.kysely);
    const definition = rows.map((row) => row.definition).find((text) => new RegExp(`\\b${column}\\)? = ANY`).test(text));
    expect(definition, `a check on ${table}.${column}`).toBeDefined();
    return [...definition!.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]);
  }

  it("order_status and user_role are the enums' values, in the enums' order", async () => {
    expect(await enumValues("order_status")).toEqual([...ORDER_STATUSES]);
    expect(await enumValues("user_role")).toEqual([...USER_ROLES]);
  });

  it("quote_status is the enum's values in its order, and a product's quote modes its column's check", async () => {
    expect(await enumValues("quote_status")).toEqual([...QUOTE_STATUSES]);
    expect((await checkedValues("products", "quote_mode")).sort()).toEqual([...QUOTE_MODES].sort());
  });

  it("payment methods, payment outcomes, fulfilment methods and invoice kinds are their columns' checks", async () => {
    expect((await checkedValues("orders", "payment_method")).sort()).toEqual([...PAYMENT_METHODS].sort());
    expect((await checkedValues("payments", "outcome")).sort()).toEqual([...PAYMENT_OUTCOMES].sort());
    expect((await checkedValues("orders", "fulfilment_method")).sort()).toEqual([...FULFILMENT_METHODS].sort());
    expect((await checkedValues("invoices", "kind")).sort()).toEqual([...INVOICE_KINDS].sort());
  });
});
