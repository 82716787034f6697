import { TRPCError } from "@trpc/server";
import { z } from "@/lib/zod";
import { contactInput } from "@/lib/contact-schema";
import { messages } from "@/lib/messages";
import { adminProcedure, byClientAddress, createTRPCRouter, publicProcedure, rateLimited } from "@/server/api/trpc";

export const contactRouter = createTRPCRouter({
  /** Stores a message from the contact form (anyone may send) and confirms it to the sender. */
  send: publicProcedure
    .input(contactInput)
    .use(rateLimited((limits) => limits.contact, byClientAddress))
    .mutation(async ({ ctx, input }) => {
      try {
        await ctx.db.transaction((trx) =>
          trx
            .insertInto("contact_messages")
            .values({ name: input.name, email: input.email.toLowerCase(), phone: input.phone || null, message: input.message, read_at: null })
            .execute(),
        );
      } catch (error) {
        throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: messages.contact.failed, cause: error });
      }
      return { message: messages.contact.sent(input.name) };
    }),

  /** Admins: every message, newest first. */
  list: adminProcedure.query(({ ctx }) =>
    ctx.db.transaction((trx) =>
      trx
        .selectFrom("contact_messages")
        .select(["id", "name", "email", "phone", "message", "read_at", "created_at"])
        .orderBy("created_at", "desc")
        .limit(500)
        .execute(),
    ),
  ),

  /** Admins: mark a message read (or unread again). */
  markRead: adminProcedure
    .input(z.object({ id: z.uuid(), read: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.db.transaction((trx) =>
        trx.updateTable("contact_messages").set({ read_at: input.read ? new Date() : null }).where("id", "=", input.id).executeTakeFirst(),
      );
      if (result.numUpdatedRows === 0n) throw new TRPCError({ code: "NOT_FOUND", message: "That message no longer exists." });
      return { ok: true };
    }),
});
