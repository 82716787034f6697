import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { avatarInput } from "@/lib/profile-schemas";
import { createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import type { StoredObject } from "@/server/ports/storage";
import { readImageUpload } from "@/server/uploads/read-upload";

const m = messages.profile;

export const profileRouter = createTRPCRouter({
  /** Stores a new picture in the caller's avatars folder, keeps it on the profile, drops the old one. */
  uploadAvatar: signedInProcedure.input(avatarInput).mutation(async ({ ctx, input }) => {
    const upload = await readImageUpload(input.image);
    const avatar: StoredObject = { bucket: "avatars", path: `${ctx.user.id}/${Date.now()}_${upload.fileName}` };
    try {
      await ctx.storage.upload(ctx.db, avatar, upload.bytes, upload.type);
    } catch (error) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.uploadFailed, cause: error });
    }
    try {
      const previous = ctx.user.avatarPath;
      await ctx.db.transaction((trx) => trx.updateTable("profiles").set({ avatar_path: avatar.path }).where("id", "=", ctx.user.id).execute());
      if (previous) await ctx.storage.remove(ctx.db, { bucket: "avatars", path: previous }).catch(() => {});
    } catch (error) {
      await ctx.storage.remove(ctx.db, avatar).catch(() => {});
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.uploadFailed, cause: error });
    }
    return { message: m.uploaded, avatarUrl: ctx.storage.publicUrl(avatar) };
  }),

  /**
   * Deletes the caller's account: the account, profile, cart and profile pictures go; orders stay
   * for the business's records with the name and email as at purchase (ARCHITECTURE §9).
   */
  deleteAccount: signedInProcedure.mutation(async ({ ctx }) => {
    try {
      const avatars = await ctx.db.transaction((trx) =>
        trx.selectFrom("storage.objects").select("name").where("bucket_id", "=", "avatars").where("name", "like", `${ctx.user.id}/%`).execute(),
      );
      await ctx.auth.deleteUser(ctx.user.id);
      await ctx.storage.removeAsService(avatars.map((row) => ({ bucket: "avatars" as const, path: row.name })));
    } catch (error) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: m.deleteFailed, cause: error });
    }
    return { ok: true };
  }),
});
