import { sql } from "kysely";
import type { UserRole } from "@/lib/statuses";
import type { Tx } from "@/server/db/as-caller";

/** What the header and the guards know of a signed-in user from public.profiles (session-user.ts keeps it). */
export interface ProfileRow {
  full_name: string | null;
  role: UserRole;
  avatar_path: string | null;
}

/** The caller's profile (RLS: their own row only), or null once the account is gone. */
export async function readProfile(trx: Tx, userId: string): Promise<ProfileRow | null> {
  const row = await trx.selectFrom("profiles").select(["full_name", "role", "avatar_path"]).where("id", "=", userId).executeTakeFirst();
  return row ?? null;
}

/** The caller's profile and cart count in one statement (RLS: their own rows only). */
export async function readProfileAndCartCount(trx: Tx, userId: string): Promise<{ profile: ProfileRow | null; cartCount: number }> {
  const { rows } = await sql<ProfileRow & { present: boolean; cart_count: string }>`
    select p.id is not null as present, p.full_name, p.role, p.avatar_path,
           (select coalesce(sum(c.quantity), 0) from public.cart_items c) as cart_count
    from (select 1) as one
    left join public.profiles p on p.id = ${userId}::uuid`.execute(trx);
  const row = rows[0]!;
  return { profile: row.present ? { full_name: row.full_name, role: row.role, avatar_path: row.avatar_path } : null, cartCount: Number(row.cart_count) };
}
