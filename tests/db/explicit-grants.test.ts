import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "@/server/platform/adapters/local/local-storage";
import { ANON, runAs, scopedDb, type DbIdentity } from "@/server/db/as-caller";
import type { DB } from "@/server/db/schema";
import { SessionUsers } from "@/server/auth/session-user";
import { addToCart } from "@/server/cart/add-to-cart";
import { readCart } from "@/server/cart/cart-queries";
import { decreaseLine, increaseLine, removeLine } from "@/server/cart/manage-cart";
import { localFileUrl } from "@/server/ports/storage";
import { findProduct, listCategoryNames, listProducts } from "@/server/catalogue/catalogue-queries";
import { listOrders } from "@/server/orders/order-queries";
import { cancelUnpaidOrders } from "@/server/orders/order-queries";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { callPlaceOrder, openReference, storeProof } from "../helpers/orders";
import { configuredShopSettings } from "../helpers/shop-settings";
import { readAdminSettings, readPublicSettings, saveSettings } from "@/server/settings/settings-queries";

/**
 * The schema must not lean on Supabase's default privileges: a project can switch them off
 * (`[api].auto_expose_new_tables = false`, the coming default), and then a table the migrations
 * never granted is unreachable for anon and authenticated whatever its policies say. This file
 * builds the database with those defaults revoked before the first migration, then runs the
 * shop's flows as the real roles through the app's own queries, and checks that the grants
 * cover everything the row-level-security policies reference (so a future table or policy
 * without its grants fails here) and nothing beyond it.
 */

/**
 * A Supabase project with "Default privileges for new entities" off, for the role that runs the
 * migrations: nothing in public is granted to the API roles unless a migration grants it. The
 * last line goes one step further than Supabase (the EXECUTE every new function gives PUBLIC),
 * so a function the app calls only works here if a migration granted it by name.
 */
const WITHOUT_DEFAULT_PRIVILEGES = `
  alter default privileges in schema public revoke all on tables from anon, authenticated, service_role;
  alter default privileges in schema public revoke all on sequences from anon, authenticated, service_role;
  alter default privileges in schema public revoke all on functions from anon, authenticated, service_role;
  alter default privileges revoke execute on functions from public;
`;

interface Requirement {
  role: string;
  what: string;
  because: string;
  granted: boolean;
}

/**
 * What every policy in public and storage needs granted to each of its roles (a policy `to
 * public` counts for anon and authenticated):
 * - its command on its table; UPDATE and DELETE also SELECT, since every update and delete
 *   carries a WHERE (Supabase refuses them without one) and a WHERE reads columns;
 * - SELECT on the columns of other tables its expressions read (policy expressions run with the
 *   caller's privileges);
 * - EXECUTE on the functions its expressions call.
 * Tables and functions a policy uses come from pg_depend, where Postgres records them.
 */
async function policyRequirements(db: Kysely<DB>): Promise<Requirement[]> {
  const { rows } = await sql<Requirement>`
    with policy_roles as (
      select pol.oid as policy_oid, pol.polrelid as relid, pol.polcmd as cmd, r.rolname as role,
             format('policy %L on %I.%I', pol.polname, n.nspname, c.relname) as because
      from pg_policy pol
      join pg_class c on c.oid = pol.polrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_roles r on r.oid = any (pol.polroles)
        or (0::oid = any (pol.polroles) and r.rolname in ('anon', 'authenticated'))
      where n.nspname in ('public', 'storage')
    )
    -- The policy's own command on its table.
    select pr.role, format('%s on %s', k.privilege, pr.relid::regclass) as what, pr.because,
           case k.privilege
             when 'DELETE' then has_table_privilege(pr.role, pr.relid, k.privilege)
             else has_any_column_privilege(pr.role, pr.relid, k.privilege)
           end as granted
    from policy_roles pr
    cross join lateral unnest(case pr.cmd
      when 'r' then array['SELECT']
      when 'a' then array['INSERT']
      when 'w' then array['UPDATE', 'SELECT']
      when 'd' then array['DELETE', 'SELECT']
      else array['SELECT', 'INSERT', 'UPDATE', 'DELETE']
    end) as k(privilege)
    union all
    -- Columns of other tables that its expressions read.
    select pr.role, format('SELECT (%I) on %s', a.attname, d.refobjid::regclass), pr.because,
           has_column_privilege(pr.role, d.refobjid, d.refobjsubid::smallint, 'SELECT')
    from policy_roles pr
    join pg_depend d on d.classid = 'pg_policy'::regclass and d.objid = pr.policy_oid
      and d.refclassid = 'pg_class'::regclass and d.refobjid <> pr.relid
    join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
    union all
    -- Whole tables its expressions read (a dependency on no particular column).
    select pr.role, format('SELECT on %s', d.refobjid::regclass), pr.because,
           has_any_column_privilege(pr.role, d.refobjid, 'SELECT')
    from policy_roles pr
    join pg_depend d on d.classid = 'pg_policy'::regclass and d.objid = pr.policy_oid
      and d.refclassid = 'pg_class'::regclass and d.refobjid <> pr.relid and d.refobjsubid = 0
    union all
    -- Functions its expressions call.
    select pr.role, format('EXECUTE on %s', d.refobjid::regprocedure), pr.because,
           has_function_privilege(pr.role, d.refobjid, 'EXECUTE')
    from policy_roles pr
    join pg_depend d on d.classid = 'pg_policy'::regclass and d.objid = pr.policy_oid
      and d.refclassid = 'pg_proc'::regclass`.execute(db);
  return rows;
}

/** The requirements not granted, one line each. */
async function missingGrants(db: Kysely<DB>): Promise<string[]> {
  const lines = (await policyRequirements(db)).filter((r) => !r.granted).map((r) => `${r.role} lacks ${r.what} (${r.because})`);
  return [...new Set(lines)].sort();
}

class Rollback extends Error {}

/** Runs DDL in a transaction that is always rolled back, returning what `work` returned. */
async function rolledBack<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  let value: T | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      value = await work(trx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return value as T;
}

let db: TestDatabase;
let customer: TestUser;
let admin: TestUser;
// Never written to: the flows here store rows, and proofs are stored as rows only (storeProof).
const storage = () => createLocalStorage(path.join(os.tmpdir(), "shop-explicit-grants-unused"), db.kysely);

function asCaller<T>(identity: DbIdentity, work: Parameters<typeof runAs<T>>[2]): Promise<T> {
  return runAs(db.kysely, identity, work);
}

beforeAll(async () => {
  db = await freshDatabase({ seed: false, afterCompat: WITHOUT_DEFAULT_PRIVILEGES });
  customer = await createUser(db, { fullName: "Thandi Nkosi" });
  admin = await createUser(db, { role: "admin", fullName: "Shop Owner" });
});

afterAll(async () => {
  await db?.close();
});

describe("without Supabase's default privileges", () => {
  it("the database really starts without them: a new table in public is granted to nobody", async () => {
    const privileges = await rolledBack(db.kysely, async (trx) => {
      await sql`create table public.grants_probe (id int primary key)`.execute(trx);
      await sql`create function public.grants_probe_fn() returns int language sql as 'select 1'`.execute(trx);
      const { rows } = await sql<{ role: string; table: boolean; fn: boolean }>`
        select r as role,
               has_table_privilege(r, 'public.grants_probe', 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') as table,
               has_function_privilege(r, 'public.grants_probe_fn()', 'EXECUTE') as fn
        from unnest(array['anon', 'authenticated', 'service_role']) as r
        order by 1`.execute(trx);
      return rows;
    });
    expect(privileges).toEqual([
      { role: "anon", table: false, fn: false },
      { role: "authenticated", table: false, fn: false },
      { role: "service_role", table: false, fn: false },
    ]);
  });

  // One story, in order: each step uses what the step before it made, so they are one test
  // (no test reads another's state).
  it("the shop's flows as the real roles: catalogue, cart, order, messages, status, unpaid policy, and RLS still deciding", async () => {
    const state = { pie: "", noodles: "", orderId: "", reference: "" };
    // an admin (authenticated) adds a category and products, and edits and removes one
    {
      const session = await new SessionUsers(db, { keep: false }).sessionUser({ id: admin.id, email: admin.email, userMetadata: {} });
      expect(session?.role).toBe("admin");
      await asCaller(admin.identity, async (trx) => {
        const category = await trx.insertInto("categories").values({ name: "Food Products" }).returning(["id", "name"]).executeTakeFirstOrThrow();
        const insert = (name: string, price: string) =>
          trx.insertInto("products").values({ name, price, category_id: category.id, image_path: null }).returning(["id", "name"]).executeTakeFirstOrThrow();
        state.pie = (await insert("Chicken pie", "35.00")).id;
        state.noodles = (await insert("Noodles", "49.50")).id;
        const spare = await insert("Spare", "1.00");
        const edited = await trx.updateTable("products").set({ price: "36.00" }).where("id", "=", state.pie).returning("name").executeTakeFirst();
        expect(edited?.name).toBe("Chicken pie");
        const removed = await trx.deleteFrom("products").where("id", "=", spare.id).returning(["name", "image_path"]).executeTakeFirst();
        expect(removed?.name).toBe("Spare");
      });
    }

    // a visitor (anon) reads the catalogue
    {
      const { products, categories, pie } = await asCaller(ANON, async (trx) => ({
        products: await listProducts(trx, localFileUrl, { sort: "price-asc" }),
        categories: await listCategoryNames(trx),
        pie: await findProduct(trx, localFileUrl, state.pie),
      }));
      expect(products.map((p) => [p.name, p.price, p.category])).toEqual([
        ["Chicken pie", 36, "Food Products"],
        ["Noodles", 49.5, "Food Products"],
      ]);
      expect(categories).toEqual(["Food Products"]);
      expect(pie?.available).toBe(true);
    }

    // a customer (authenticated) reads their profile, fills and edits their cart, and reads it
    {
      const session = await new SessionUsers(db, { keep: false }).sessionUser({ id: customer.id, email: customer.email, userMetadata: {} });
      expect(session).toMatchObject({ role: "user", fullName: "Thandi Nkosi" });
      await asCaller(customer.identity, (trx) => trx.updateTable("profiles").set({ full_name: "Thandi M. Nkosi" }).where("id", "=", customer.id).execute());

    // The cart's handlers as its procedures call them, with only the caller's database.
      const ctx = { db: scopedDb(db.kysely, customer.identity) };
      const pie = { ctx, input: { productId: state.pie } };
      const noodles = { ctx, input: { productId: state.noodles } };
      expect((await addToCart(pie)).quantity).toBe(1);
      expect((await addToCart(pie)).quantity).toBe(2);
      await addToCart(noodles);
      const noodlesLine = async () => {
        const lines = await asCaller(customer.identity, (trx) => readCart(trx, localFileUrl));
        return { ctx, input: { lineId: lines.lines.find((line) => line.productId === state.noodles)!.id } };
      };
      await increaseLine(await noodlesLine());
      await decreaseLine(await noodlesLine());
      await addToCart(noodles);
      await removeLine(await noodlesLine());
      await addToCart(noodles);

      const cart = await asCaller(customer.identity, (trx) => readCart(trx, localFileUrl));
      expect(cart.lines.map((line) => [line.name, line.quantity, line.lineTotal])).toEqual([
        ["Chicken pie", 2, 72],
        ["Noodles", 1, 49.5],
      ]);
      expect(cart.total).toBe(121.5);
    }

    // the customer reserves a reference, reads it, and places the order with it through place_order()
    {
      const reference = await asCaller(customer.identity, openReference);
      const reserved = await asCaller(customer.identity, (trx) => trx.selectFrom("checkout_references").select(["reference"]).execute());
      expect(reserved).toEqual([{ reference }]);
      const order = await asCaller(customer.identity, async (trx) => {
        const proofPath = await storeProof(trx, customer);
        return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference: reference!, proofPath });
      });
      expect(order).toMatchObject({ reference, total: "121.50", status: "pending_payment", customer_name: "Thandi M. Nkosi" });
      state.orderId = order.id;
      state.reference = order.reference;

      const mine = await asCaller(customer.identity, (trx) => listOrders(trx, storage(), { userId: customer.id }));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ id: order.id, total: 121.5, status: "pending_payment" });
    // Lines come in id order (random uuids): compare them sorted.
      expect(mine[0]!.items.map((item) => [item.name, item.quantity]).sort()).toEqual([
        ["Chicken pie", 2],
        ["Noodles", 1],
      ]);
      expect((await asCaller(customer.identity, (trx) => readCart(trx, localFileUrl))).lines).toEqual([]);
    }

    // a visitor and a customer send contact messages
    {
      const send = (identity: DbIdentity, name: string) =>
        asCaller(identity, (trx) =>
          trx.insertInto("contact_messages").values({ name, email: "sender@example.test", phone: null, message: "Do you deliver?", read_at: null }).execute(),
        );
      await send(ANON, "Visitor");
      await send(customer.identity, "Customer");
    }

    // an admin changes the order's status, sees its history, and reads and marks the messages
    {
      const changed = await asCaller(admin.identity, (trx) =>
        trx.updateTable("orders").set({ status: "pending_delivery" }).where("id", "=", state.orderId).returning(["reference", "status"]).executeTakeFirst(),
      );
      expect(changed).toEqual({ reference: state.reference, status: "pending_delivery" });

      const orders = await asCaller(admin.identity, (trx) => listOrders(trx, storage(), { search: state.reference }));
      expect(orders.map((o) => o.history.map((h) => [h.from, h.to, h.by]))).toEqual([
        [
          [null, "pending_payment", "Thandi M. Nkosi"],
          ["pending_payment", "pending_delivery", "Shop Owner"],
        ],
      ]);

      const messages = await asCaller(admin.identity, (trx) =>
        trx.selectFrom("contact_messages").select(["id", "name", "email", "phone", "message", "read_at", "created_at"]).orderBy("created_at", "desc").limit(500).execute(),
      );
      expect(messages.map((m) => m.name).sort()).toEqual(["Customer", "Visitor"]);
      const marked = await asCaller(admin.identity, (trx) =>
        trx.updateTable("contact_messages").set({ read_at: new Date() }).where("id", "=", messages[0]!.id).executeTakeFirst(),
      );
      expect(marked.numUpdatedRows).toBe(1n);
    }

    // an admin runs the unpaid-order policy, which cancels an old unpaid order as the shop
    {
      const order = await asCaller(customer.identity, async (trx) => {
        await sql`select public.add_to_cart(${state.pie}::uuid)`.execute(trx);
        const { rows } = await sql<{ reference: string }>`select public.open_checkout_reference() as reference`.execute(trx);
        return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference: rows[0]!.reference, proofPath: await storeProof(trx, customer) });
      });
      await db.kysely.updateTable("orders").set({ created_at: new Date(Date.now() - 30 * 86_400_000) }).where("id", "=", order.id).execute();
      expect(await asCaller(admin.identity, (trx) => cancelUnpaidOrders(trx, 7))).toBe(1);
      const [view] = await asCaller(admin.identity, (trx) => listOrders(trx, storage(), { search: order.reference }));
      expect(view?.history.at(-1)).toMatchObject({ to: "cancelled", by: null, reason: "not paid within 7 days" });
    }

    // row-level security still decides: the grants open no row a policy refuses
    {
      const stranger = await createUser(db);
      const seen = await asCaller(stranger.identity, async (trx) => ({
        orders: await trx.selectFrom("orders").select("id").execute(),
        messages: await trx.selectFrom("contact_messages").select("id").execute(),
      }));
      expect(seen).toEqual({ orders: [], messages: [] });
      await expect(asCaller(ANON, (trx) => trx.selectFrom("orders").select("id").execute())).rejects.toThrow(/permission denied/);
      await expect(asCaller(customer.identity, (trx) => trx.deleteFrom("orders").where("id", "=", state.orderId).execute())).rejects.toThrow(/permission denied/);
    }
  }, 120_000);

  it("an admin saves the shop settings (creating them, then changing them) and a visitor reads the published ones", async () => {
    const settings = configuredShopSettings();
    expect(await asCaller(ANON, (trx) => readPublicSettings(trx))).toBeUndefined();
    await asCaller(admin.identity, (trx) => saveSettings(trx, settings));
    await asCaller(admin.identity, (trx) => saveSettings(trx, { ...settings, bankAccountNumber: "9876543210", ordersEmail: "orders@example.test" }));
    const seen = await asCaller(ANON, (trx) => readPublicSettings(trx));
    expect(seen?.bank.accountNumber).toBe("9876543210");
    const all = await asCaller(admin.identity, (trx) => readAdminSettings(trx, settings));
    expect(all).toMatchObject({ values: { ordersEmail: "orders@example.test" }, updatedBy: "Shop Owner" });
  });

});

describe("grants against the policies", () => {
  it("every policy's command, and every table and function it uses, is granted to its roles", async () => {
    const requirements = await policyRequirements(db.kysely);
    // Sanity: the check sees policies of both schemas, and what they use through pg_depend.
    const whats = new Set(requirements.map((r) => `${r.role} ${r.what}`));
    expect(whats).toContain("anon SELECT on products");
    expect(whats).toContain("authenticated INSERT on storage.objects");
    expect(whats).toContain("authenticated EXECUTE on is_admin()");
    expect(whats).toContain("authenticated SELECT (available) on products");
    expect(whats).toContain("authenticated SELECT (proof_path) on orders");
    expect(whats).toContain("authenticated EXECUTE on storage.foldername(text)");

    expect(await missingGrants(db.kysely)).toEqual([]);
  });

  it("the check fails for a new table whose policies have no grants", async () => {
    const missing = await rolledBack(db.kysely, async (trx) => {
      await sql`create table public.grants_probe (id int primary key, owner uuid)`.execute(trx);
      await sql`alter table public.grants_probe enable row level security`.execute(trx);
      await sql`create policy "probe: read own" on public.grants_probe for select to authenticated using (owner = (select auth.uid()))`.execute(trx);
      await sql`create policy "probe: anyone adds" on public.grants_probe for insert with check (true)`.execute(trx);
      return (await missingGrants(trx)).filter((line) => line.includes("grants_probe"));
    });
    expect(missing).toEqual([
      `anon lacks INSERT on grants_probe (policy 'probe: anyone adds' on public.grants_probe)`,
      `authenticated lacks INSERT on grants_probe (policy 'probe: anyone adds' on public.grants_probe)`,
      `authenticated lacks SELECT on grants_probe (policy 'probe: read own' on public.grants_probe)`,
    ]);
  });

  it("anon and authenticated hold no table privilege in public that no policy makes usable", async () => {
    const { rows } = await sql<{ role: string; table: string; privilege: string }>`
      select r as role, c.relname as "table", k.privilege
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join unnest(array['anon', 'authenticated']) as r
      cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) as k(privilege)
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
        and case when k.privilege in ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES')
              then has_any_column_privilege(r, c.oid, k.privilege)
              else has_table_privilege(r, c.oid, k.privilege) end
        and not exists (
          select 1 from pg_policy pol
          where pol.polrelid = c.oid
            and (pol.polcmd::text = '*' or pol.polcmd::text = case k.privilege when 'SELECT' then 'r' when 'INSERT' then 'a' when 'UPDATE' then 'w' when 'DELETE' then 'd' end)
            and (0::oid = any (pol.polroles) or (select oid from pg_roles where rolname = r) = any (pol.polroles))
        )
      order by 1, 2, 3`.execute(db.kysely);
    expect(rows).toEqual([]);
  });

  it("service_role holds every privilege on every table and sequence, and EXECUTE on every function, in public", async () => {
    const { rows } = await sql<{ object: string; privilege: string }>`
      select c.oid::regclass::text as object, k.privilege
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) as k(privilege)
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') and not has_table_privilege('service_role', c.oid, k.privilege)
      union all
      select c.oid::regclass::text, k.privilege
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join unnest(array['USAGE', 'SELECT', 'UPDATE']) as k(privilege)
      where n.nspname = 'public' and c.relkind = 'S' and not has_sequence_privilege('service_role', c.oid, k.privilege)
      union all
      select p.oid::regprocedure::text, 'EXECUTE'
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and not has_function_privilege('service_role', p.oid, 'EXECUTE')
      order by 1, 2`.execute(db.kysely);
    expect(rows).toEqual([]);
  });
});
