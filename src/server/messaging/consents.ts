import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { ConsentKind } from "@/lib/statuses";
import { giveConsent, listOwnConsents, withdrawConsent } from "./consent-queries";
import { consentWords, type consentInput } from "./schemas";
import type { z } from "@/lib/zod";

const m = messages.consent;
type Ctx = Pick<TRPCContext, "db" | "whatsapp"> & { user: SessionUser };

/**
 * The caller's WhatsApp choices for the profile: whether the shop sends on WhatsApp at all, each
 * kind's live consent (number and since when), and every consent with its words (POPIA).
 */
export async function myConsents({ ctx }: { ctx: Ctx }) {
  const rows = await ctx.db.transaction((trx) => listOwnConsents(trx, ctx.user.id));
  const live = (kind: ConsentKind) => {
    const row = rows.find((consent) => consent.kind === kind && consent.withdrawn_at === null);
    return row ? { phone: row.phone, givenAt: new Date(row.given_at) } : null;
  };
  return { whatsappOn: await ctx.whatsapp.isOn(), whatsappUpdates: live("whatsapp_updates"), offers: live("offers") };
}

/**
 * Ticks or unticks one choice. Ticking records a new consent with the words the profile shows
 * (from the server's messages, never the browser's); it is refused while the shop has no
 * WhatsApp (nothing would be sent). Unticking always works, at once.
 */
export async function setConsent({ ctx, input }: { ctx: Ctx; input: z.output<typeof consentInput> }) {
  if (!input.given) {
    await ctx.db.transaction((trx) => withdrawConsent(trx, input.kind));
    return { message: m.withdrawn };
  }
  if (!(await ctx.whatsapp.isOn())) throw new TRPCError({ code: "PRECONDITION_FAILED", message: m.failed });
  await ctx.db.transaction((trx) => giveConsent(trx, { kind: input.kind, phone: input.phone, source: input.source, words: consentWords(input.kind) }));
  return { message: m.saved };
}
