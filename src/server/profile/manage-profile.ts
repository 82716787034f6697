import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { removeQuietly, storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { AccountGoneError, listOwnAvatars, setAvatarPath } from "./profile-queries";

const m = messages.profile;
type Ctx = Pick<TRPCContext, "db" | "storage" | "auth" | "forgetCaller"> & { user: SessionUser };

/** Stores a new picture in the caller's avatars folder, keeps it on the profile, drops the old one. */
export async function uploadAvatar({ ctx, input }: { ctx: Ctx; input: { image: File } }) {
  const upload = await readUpload(input.image, "avatar");
  const avatar: StoredObject = { bucket: "avatars", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  await storeThenWrite(ctx, { object: avatar, bytes: upload.bytes, contentType: upload.type }, (trx) => setAvatarPath(trx, ctx.user.id, avatar.path), (cause) =>
    // The transaction (the file's row with it) rolled back and the file is removed: nothing is kept.
    cause instanceof AccountGoneError ? new TRPCError({ code: "UNAUTHORIZED", message: m.accountGone, cause }) : cause,
  );
  // The navigation bar shows the new picture on the next page.
  ctx.forgetCaller("profile");
  if (ctx.user.avatarPath) await removeQuietly(ctx, { bucket: "avatars", path: ctx.user.avatarPath }, "a replaced profile picture");
  return { message: m.uploaded, avatarUrl: ctx.storage.publicUrl(avatar) };
}

/**
 * Deletes the caller's account: the account, profile, cart and profile pictures go; orders stay
 * for the business's records with the name and email as at purchase (docs/architecture.md#decisions-on-the-spec). The
 * account and the files go with the auth and storage ports' service rights: a customer cannot
 * delete auth.users rows, and Supabase allows file deletes only through its Storage API.
 */
export async function deleteAccount({ ctx }: { ctx: Ctx }) {
  const avatars = await ctx.db.transaction((trx) => listOwnAvatars(trx, ctx.user.id));
  await ctx.auth.deleteUser(ctx.user.id);
  ctx.forgetCaller("profile");
  ctx.forgetCaller("cart");
  await ctx.storage.removeAsService(avatars.map((path) => ({ bucket: "avatars" as const, path })));
  return { ok: true };
}
