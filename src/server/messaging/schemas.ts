import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";
import { CONSENT_KINDS, CONSENT_SOURCES, type ConsentKind } from "@/lib/statuses";

const m = messages.consent;

/**
 * A mobile number as the customer types it (082 123 4567, +27 82 123 4567, +44 7700 900123) in
 * E.164 (+27821234567), checked with libphonenumber-js: a number without a country code is South
 * African.
 */
export function toE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), "ZA");
  if (!parsed?.isValid()) return null;
  // South Africa's metadata also knows a few short service numbers; a phone here has nine digits.
  if (parsed.countryCallingCode === "27" && parsed.nationalNumber.length !== 9) return null;
  return parsed.number;
}

export const phoneInput = z
  .string()
  .trim()
  .max(30, m.invalidPhone)
  .transform((value, ctx) => {
    const e164 = toE164(value);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: m.invalidPhone });
      return z.NEVER;
    }
    return e164;
  });

/** The exact words a choice shows (its label and its detail), stored with each consent. */
export function consentWords(kind: ConsentKind): string {
  return kind === "whatsapp_updates" ? `${m.whatsappUpdates}. ${m.whatsappUpdatesDetail}` : `${m.offers}. ${m.offersDetail}`;
}

/** Tick or untick one choice: ticking needs the number; unticking withdraws at once. */
export const consentInput = z.discriminatedUnion("given", [
  z.object({ kind: z.enum(CONSENT_KINDS), given: z.literal(true), phone: phoneInput, source: z.enum(CONSENT_SOURCES).default("profile") }),
  z.object({ kind: z.enum(CONSENT_KINDS), given: z.literal(false) }),
]);
export type ConsentInput = z.input<typeof consentInput>;
