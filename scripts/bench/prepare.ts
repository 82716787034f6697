/**
 * Prepares a fresh database for the benchmark before the server opens it: migrations, the demo
 * catalogue and users, shop settings that take orders, a larger catalogue (default 500 products) and many customers, each with a
 * signed-in session minted the way local auth mints them (so the load runs signed in without
 * hundreds of password checks first).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { SESSION_COOKIE, SESSION_MAX_SECONDS, loadSigningSecret, signSessionToken } from "@/server/platform/adapters/local/session-token";
import { openDatabase, type DatabaseConfig } from "@/server/db/database";
import { migrate } from "@/server/db/migrate";
import { seedOnce } from "@/server/db/seed";
import { configuredShopSettings } from "../../tests/helpers/shop-settings";

export interface BenchUser {
  id: string;
  email: string;
  /** The `Cookie` header that signs this user in. */
  cookie: string;
}

export interface PreparedShop {
  productIds: string[];
  /** Each product's first variant (what a cart line names when the product has options). */
  firstVariant: Map<string, string>;
  customers: BenchUser[];
  admin: BenchUser;
}

export async function prepareShop(options: {
  database: DatabaseConfig;
  dataDir: string;
  products: number;
  customers: number;
  /**
   * Variants per product (issue 37's benchmark: 6): every product without options gets a Size
   * option with this many choices, each a variant with counted stock (100,000) and the last
   * dearer. 1 (the default): products stay as seeded.
   */
  variants?: number;
}): Promise<PreparedShop> {
  const database = await openDatabase(options.database);
  try {
    const db = database.kysely;
    await migrate(db);
    // A real-looking bank account: the production server refuses orders to the demo one.
    await seedOnce(db, { demoUsers: true, settings: configuredShopSettings() });

    // More products: copies of the seeded ones with their pictures, spread over the categories.
    const { rows: existing } = await sql<{ count: number }>`select count(*)::int as count from public.products`.execute(db);
    const missing = Math.max(0, options.products - existing[0]!.count);
    if (missing > 0) {
      await sql`
        insert into public.products (name, description, price, image_path, category_id, created_at)
        select p.name || ' #' || n, p.description, p.price + (n % 50), p.image_path, p.category_id,
               now() - make_interval(mins => n)
        from generate_series(1, ${missing}::int) as n
        join lateral (
          select * from public.products order by id offset ((n - 1) % 20) limit 1
        ) p on true`.execute(db);
    }
    const variants = options.variants ?? 1;
    if (variants > 1) {
      const sizes = Array.from({ length: variants }, (_, i) => `Size ${i + 1}`);
      await sql`
        insert into public.product_options (product_id, position, name, choices)
        select p.id, 1, 'Size', ${sizes}::text[] from public.products p
        where not exists (select 1 from public.product_options o where o.product_id = p.id)`.execute(db);
      await sql`
        delete from public.product_variants v
        where v.option_values = '{}' and exists (select 1 from public.product_options o where o.product_id = v.product_id)`.execute(db);
      await sql`
        insert into public.product_variants (product_id, option_values, price, stock, position)
        select o.product_id, array[u.size], case when u.n = ${variants} then p.price + 20 end, 100000, u.n
        from public.product_options o
        join public.products p on p.id = o.product_id
        cross join lateral unnest(o.choices) with ordinality as u(size, n)
        where o.name = 'Size' and o.choices = ${sizes}::text[]`.execute(db);
    }
    const { rows: products } = await sql<{ id: string; variant_id: string }>`
      select p.id, (select v.id from public.product_variants v where v.product_id = p.id order by v.position, v.created_at limit 1) as variant_id
      from public.products p where p.available order by p.created_at desc`.execute(db);

    // Customers: the sign-up trigger makes each profile (role 'user').
    const secret = loadSigningSecret({ secret: process.env.AUTH_JWT_SECRET, dataDir: options.dataDir });
    const users: { id: string; email: string; fullName: string }[] = [];
    for (let i = 0; i < options.customers; i++) {
      users.push({ id: randomUUID(), email: `bench-${i}@example.test`, fullName: `Bench Customer ${i}` });
    }
    for (let i = 0; i < users.length; i += 200) {
      await db
        .insertInto("auth.users")
        .values(
          users.slice(i, i + 200).map((user) => ({
            id: user.id,
            aud: "authenticated",
            role: "authenticated",
            email: user.email,
            encrypted_password: null,
            email_confirmed_at: new Date(),
            raw_app_meta_data: JSON.stringify({ provider: "email", providers: ["email"] }),
            raw_user_meta_data: JSON.stringify({ full_name: user.fullName }),
            created_at: new Date(),
            updated_at: new Date(),
          })),
        )
        .execute();
    }
    const admin = await db
      .selectFrom("auth.users")
      .innerJoin("profiles", "profiles.id", "auth.users.id")
      .select(["auth.users.id", "auth.users.email", "auth.users.raw_user_meta_data"])
      .where("profiles.role", "=", "admin")
      .executeTakeFirstOrThrow();

    async function session(user: { id: string; email: string; fullName: string }): Promise<BenchUser> {
      const sessionId = randomUUID();
      const notAfter = Math.floor(Date.now() / 1000) + SESSION_MAX_SECONDS;
      await db.insertInto("auth.sessions").values({ id: sessionId, user_id: user.id, not_after: new Date(notAfter * 1000), user_agent: "bench", ip: "127.0.0.1" }).execute();
      const { token } = await signSessionToken(secret, { userId: user.id, email: user.email, sessionId, userMetadata: { full_name: user.fullName }, notAfter });
      return { id: user.id, email: user.email, cookie: `${SESSION_COOKIE}=${token}` };
    }

    const customers: BenchUser[] = [];
    for (const user of users) customers.push(await session(user));
    const adminUser = await session({ id: admin.id, email: admin.email ?? "", fullName: "Admin" });
    return { productIds: products.map((p) => p.id), firstVariant: new Map(products.map((p) => [p.id, p.variant_id])), customers, admin: adminUser };
  } finally {
    await database.close();
  }
}
