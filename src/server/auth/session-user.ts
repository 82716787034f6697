import { runAs } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthUser } from "@/server/ports/auth";

/** The signed-in user as the app sees them; role always from public.profiles, never the client. */
export interface SessionUser {
  id: string;
  email: string | null;
  /** Full name from the profile, else the email (the navigation bar's greeting). */
  displayName: string;
  fullName: string | null;
  role: "user" | "admin";
  avatarPath: string | null;
}

/**
 * Reads the caller's own profile as the caller (RLS). A missing profile gives role 'user'; a
 * failed read leaves the user signed out (spec §4), with the cause logged.
 */
export async function loadSessionUser(database: ShopDatabase, user: AuthUser): Promise<SessionUser | null> {
  try {
    const profile = await runAs(database.kysely, { kind: "user", id: user.id, email: user.email }, (trx) =>
      trx.selectFrom("profiles").select(["full_name", "role", "avatar_path"]).where("id", "=", user.id).executeTakeFirst(),
    );
    const metadataName = typeof user.userMetadata.full_name === "string" ? user.userMetadata.full_name : null;
    const fullName = profile?.full_name ?? metadataName;
    return {
      id: user.id,
      email: user.email,
      fullName,
      displayName: fullName || user.email || "there",
      role: profile?.role ?? "user",
      avatarPath: profile?.avatar_path ?? null,
    };
  } catch (error) {
    console.error("[auth] profile read failed:", error);
    return null;
  }
}
