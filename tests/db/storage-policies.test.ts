import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, runAs, type DbIdentity, type Tx } from "@/server/db/as-caller";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";

/**
 * The storage policies of the migrations, role by role, as the Storage API and the local file
 * route meet them (docs/architecture.md#files, #supabase-is-not-a-superuser): on PGlite, on PostgreSQL (DATABASE_URL) and on the
 * Supabase-privileged cluster (SUPABASE_ADMIN_URL). Public buckets are public by exact name and
 * listable by nobody; private proofs reach their owner and admins; each writes only their own.
 */

type Role = "visitor" | "customerA" | "customerB" | "admin";
const ROLES: Role[] = ["visitor", "customerA", "customerB", "admin"];

let db: TestDatabase;
let users: Record<Exclude<Role, "visitor">, TestUser>;
const names = { product: "", avatarA: "", proofA: "" };

function identity(role: Role): DbIdentity {
  return role === "visitor" ? ANON : users[role].identity;
}

/** Runs `work` as `role` and rolls back, so a write that succeeds changes nothing for the next cell. */
async function asRole<T>(role: Role, work: (trx: Tx) => Promise<T>): Promise<T | "refused"> {
  const rollback = new Error("roll back");
  let result: T | undefined;
  try {
    await runAs(db.kysely, identity(role), async (trx) => {
      result = await work(trx);
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) return "refused";
  }
  return result as T;
}

async function byRole<T>(work: (trx: Tx, role: Role) => Promise<T>): Promise<Record<Role, T | "refused">> {
  const seen = {} as Record<Role, T | "refused">;
  for (const role of ROLES) seen[role] = await asRole(role, (trx) => work(trx, role));
  return seen;
}

const listed = (bucket: string) => (trx: Tx) =>
  trx.selectFrom("storage.objects").select("name").where("bucket_id", "=", bucket).execute().then((rows) => rows.length);

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
  users = {
    customerA: await createUser(db, { fullName: "Customer A" }),
    customerB: await createUser(db, { fullName: "Customer B" }),
    admin: await createUser(db, { role: "admin", fullName: "Admin" }),
  };
  const a = users.customerA.id;
  names.product = `products/${Date.now()}_pie.webp`;
  names.avatarA = `${a}/${Date.now()}_me.webp`;
  names.proofA = `${a}/${Date.now()}_slip.png`;
  const meta = (mimetype: string) => JSON.stringify({ mimetype, size: 100 });
  await db.kysely
    .insertInto("storage.objects")
    .values([
      { bucket_id: "products-services", name: names.product, owner_id: users.admin.id, metadata: meta("image/webp") },
      { bucket_id: "avatars", name: names.avatarA, owner_id: a, metadata: meta("image/webp") },
      { bucket_id: "payments", name: names.proofA, owner_id: a, metadata: meta("image/png") },
    ])
    .execute();
});

afterAll(async () => {
  await db?.close();
});

describe("storage policies × visitor, customer A, customer B, admin", () => {
  it("nobody lists a public bucket; writers see only what they may change", async () => {
    expect(await byRole(listed("products-services"))).toEqual({ visitor: 0, customerA: 0, customerB: 0, admin: 1 });
    expect(await byRole(listed("avatars"))).toEqual({ visitor: 0, customerA: 1, customerB: 0, admin: 0 });
  });

  it("a proof of payment is read by its owner and admins only", async () => {
    expect(await byRole(listed("payments"))).toEqual({ visitor: 0, customerA: 1, customerB: 0, admin: 1 });
  });

  it("a public file is found by its exact name by anyone, a private one by nobody that way", async () => {
    const found = (bucket: string, name: string) => (trx: Tx) =>
      sql<{ metadata: unknown }>`select private.public_object(${bucket}, ${name}) as metadata`.execute(trx).then((r) => r.rows[0]?.metadata != null);
    const everyone = { visitor: true, customerA: true, customerB: true, admin: true };
    const nobody = { visitor: false, customerA: false, customerB: false, admin: false };
    expect(await byRole(found("products-services", names.product))).toEqual(everyone);
    expect(await byRole(found("avatars", names.avatarA))).toEqual(everyone);
    expect(await byRole(found("payments", names.proofA))).toEqual(nobody);
    expect(await byRole(found("avatars", `${users.customerA.id}/no-such.webp`))).toEqual(nobody);
  });

  it("each writes only into their own folder; product images only admins", async () => {
    const insert = (bucket: string, folder: (role: Role) => string) => (trx: Tx, role: Role) =>
      trx
        .insertInto("storage.objects")
        .values({ bucket_id: bucket, name: `${folder(role)}/${Date.now()}_new.png`, owner_id: role === "visitor" ? null : users[role].id })
        .execute()
        .then(() => "stored" as const);
    const own = (role: Role) => (role === "visitor" ? "anon" : users[role].id);
    const refused = "refused" as const;
    expect(await byRole(insert("avatars", own))).toEqual({ visitor: refused, customerA: "stored", customerB: "stored", admin: "stored" });
    expect(await byRole(insert("payments", own))).toEqual({ visitor: refused, customerA: "stored", customerB: "stored", admin: "stored" });
    expect(await byRole(insert("avatars", () => users.customerA.id))).toEqual({ visitor: refused, customerA: "stored", customerB: refused, admin: refused });
    expect(await byRole(insert("payments", () => users.customerA.id))).toEqual({ visitor: refused, customerA: "stored", customerB: refused, admin: refused });
    expect(await byRole(insert("products-services", () => "products"))).toEqual({ visitor: refused, customerA: refused, customerB: refused, admin: "stored" });
  });

  it("each removes and replaces only their own: a profile picture by its owner, a product image by admins", async () => {
    const removed = (bucket: string, name: string) => (trx: Tx) =>
      trx.deleteFrom("storage.objects").where("bucket_id", "=", bucket).where("name", "=", name).executeTakeFirst().then((r) => Number(r.numDeletedRows));
    const updated = (bucket: string, name: string) => (trx: Tx) =>
      trx
        .updateTable("storage.objects")
        .set({ metadata: JSON.stringify({ mimetype: "image/webp", size: 1 }) })
        .where("bucket_id", "=", bucket)
        .where("name", "=", name)
        .executeTakeFirst()
        .then((r) => Number(r.numUpdatedRows));
    expect(await byRole(removed("avatars", names.avatarA))).toEqual({ visitor: 0, customerA: 1, customerB: 0, admin: 0 });
    expect(await byRole(updated("avatars", names.avatarA))).toEqual({ visitor: 0, customerA: 1, customerB: 0, admin: 0 });
    expect(await byRole(removed("products-services", names.product))).toEqual({ visitor: 0, customerA: 0, customerB: 0, admin: 1 });
    expect(await byRole(updated("products-services", names.product))).toEqual({ visitor: 0, customerA: 0, customerB: 0, admin: 1 });
    // A proof an order does not hold may go (a failed checkout's rollback); nobody else's.
    expect(await byRole(removed("payments", names.proofA))).toEqual({ visitor: 0, customerA: 1, customerB: 0, admin: 0 });
  });
});

describe("Supabase's advisor: public_bucket_allows_listing", () => {
  // The lint's rule (supabase/splinter, lint 0025), restated: a permissive SELECT (or ALL) policy on
  // storage.objects for public, anon or authenticated whose condition is empty, true, or only
  // `bucket_id = '<a public bucket>'` lets clients list that bucket.
  it("flags no public bucket", async () => {
    const { rows } = await sql<{ bucket: string; policy: string }>`
      select b.id as bucket, p.policyname as policy
      from storage.buckets b
      join pg_policies p
        on p.schemaname = 'storage' and p.tablename = 'objects'
       and p.cmd in ('SELECT', 'ALL') and p.permissive = 'PERMISSIVE'
       and p.roles && array['public', 'anon', 'authenticated']::name[]
      where b.public
        and (
          p.qual is null
          or regexp_replace(lower(p.qual), '\\s', '', 'g') in ('true', '(true)', '1=1', '(1=1)')
          or (regexp_match(p.qual, '\\A\\s*\\(*\\s*bucket_id\\s*=\\s*''([^'']*)''(\\s*::\\s*[[:alnum:]_.]+)?\\s*\\)*\\s*\\Z', 'i'))[1] = b.id
        )`.execute(db.kysely);
    expect(rows).toEqual([]);
  });

  it("would flag the policy it replaced (the check can fail)", async () => {
    const flagged = await db.kysely
      .transaction()
      .execute(async (trx) => {
        await sql`create policy "probe: read all" on storage.objects for select to anon, authenticated using (bucket_id = 'avatars')`.execute(trx);
        const { rows } = await sql<{ qual: string }>`select qual from pg_policies where policyname = 'probe: read all'`.execute(trx);
        const { rows: matches } = await sql<{ bucket: string | null }>`
          select (regexp_match(${rows[0]?.qual ?? ""}, '\\A\\s*\\(*\\s*bucket_id\\s*=\\s*''([^'']*)''(\\s*::\\s*[[:alnum:]_.]+)?\\s*\\)*\\s*\\Z', 'i'))[1] as bucket`.execute(trx);
        throw Object.assign(new Error("roll back"), { bucket: matches[0]?.bucket });
      })
      .catch((error: { bucket?: string | null }) => error.bucket);
    expect(flagged).toBe("avatars");
  });
});
