import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type ShopDatabase } from "@/server/db/database";
import { createSupabaseDatabase, supabasePlatformUrl, type SupabaseDatabase } from "../helpers/supabase-platform";

/**
 * The migrations and seeds as `supabase start` / `supabase db push` apply them (docs/architecture.md#supabase-is-not-a-superuser):
 * on the cluster scripts/supabase-postgres.sh prepares, as `postgres`, which is no superuser, with
 * auth and storage owned by the platform's services. CI runs the whole database suite there too
 * (SUPABASE_ADMIN_URL); this file checks that stand-in is as strict as Supabase.
 */
describe.runIf(supabasePlatformUrl())("migrations applied as Supabase applies them", () => {
  let platform: SupabaseDatabase;
  let db: ShopDatabase;

  beforeAll(async () => {
    platform = await createSupabaseDatabase({ seeds: true });
    db = await openDatabase({ engine: "postgres", connectionString: platform.postgresUrl, maxConnections: 2 });
  });

  afterAll(async () => {
    await db?.close();
    await platform?.close();
  });

  const refusal = (statement: string) =>
    db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql.raw(statement).execute(trx);
        return "applied";
      })
      .catch((error: Error) => error.message);

  it("run as postgres, which is no superuser, with the platform's schemas owned by its services", async () => {
    const { rows } = await sql<{ user: string; superuser: boolean; auth: string; storage: string }>`
      select current_user as user, (select rolsuper from pg_roles where rolname = current_user) as superuser,
             (select nspowner::regrole::text from pg_namespace where nspname = 'auth') as auth,
             (select nspowner::regrole::text from pg_namespace where nspname = 'storage') as storage`.execute(db.kysely);
    expect(rows[0]).toEqual({ user: "postgres", superuser: false, auth: "supabase_auth_admin", storage: "supabase_storage_admin" });
  });

  it("refuse what Supabase refuses: a custom parameter in a SET clause, objects in auth or storage", async () => {
    expect(await refusal(`create function public.probe() returns int language sql set shop.probe = '' as 'select 1'`)).toMatch(
      /permission denied to set parameter "shop.probe"/,
    );
    expect(await refusal(`alter role postgres set shop.probe = 'x'`)).toMatch(/permission denied/);
    expect(await refusal(`create table storage.probe (id int)`)).toMatch(/permission denied/);
    expect(await refusal(`create function auth.probe() returns int language sql as 'select 1'`)).toMatch(/permission denied/);
    expect(await refusal(`alter table storage.objects add column probe int`)).toMatch(/permission denied/);
    // What Supabase allows postgres there: policies on storage.objects, triggers on auth.users.
    expect(await refusal(`create policy "probe" on storage.objects for select to authenticated using (false)`)).toBe("applied");
  });

  it("seed the demo catalogue and accounts as supabase start does: the admin is an admin", async () => {
    const { rows } = await sql<{ products: number; admin: string | null }>`
      select (select count(*)::int from public.products) as products,
             (select role::text from public.profiles where id = 'a0000000-0000-4000-8000-00000000ad01') as admin`.execute(db.kysely);
    expect(rows[0]?.products).toBeGreaterThan(0);
    expect(rows[0]?.admin).toBe("admin");
  });
});
