import type { Tx } from "@/server/db/as-caller";

/** Keeps a new profile picture's path on the caller's own profile (RLS). */
export async function setAvatarPath(trx: Tx, userId: string, path: string): Promise<void> {
  const result = await trx.updateTable("profiles").set({ avatar_path: path }).where("id", "=", userId).executeTakeFirst();
  // No profile to name the file: the account was deleted while the picture was on its way.
  if (result.numUpdatedRows === 0n) throw new AccountGoneError();
}

/** The caller's profile is gone (the account was deleted during the request). */
export class AccountGoneError extends Error {
  constructor() {
    super("the caller's profile no longer exists");
    this.name = "AccountGoneError";
  }
}

/** The caller's stored profile pictures (RLS: their own folder). */
export async function listOwnAvatars(trx: Tx, userId: string): Promise<string[]> {
  const rows = await trx.selectFrom("storage.objects").select("name").where("bucket_id", "=", "avatars").where("name", "like", `${userId}/%`).execute();
  return rows.map((row) => row.name);
}
