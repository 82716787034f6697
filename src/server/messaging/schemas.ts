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

/** A number that may be left blank ("" then), else as phoneInput checks it: the owner's alerts number in Shop settings. */
export const optionalPhoneInput = z
  .string()
  .trim()
  .max(30, m.invalidPhone)
  .transform((value, ctx) => {
    if (value === "") return "";
    const checked = phoneInput.safeParse(value);
    if (!checked.success) {
      ctx.addIssue({ code: "custom", message: m.invalidPhone });
      return z.NEVER;
    }
    return checked.data;
  });

const ws = messages.whatsappSettings;
/** A secret as pasted from Meta: blank keeps the saved one. */
const secret = (max: number, message: string) => z.string().trim().max(max, message).regex(/^\S*$/, message);

/**
 * WhatsApp's settings in Shop settings (admins; docs/whatsapp.md). The access token, app secret
 * and verify token are never sent back to the browser: blank means "keep the saved one", so the
 * form can show that one is saved without holding it. Switched on without all four, it is saved
 * and stays off (the go-live checklist names it).
 */
export const whatsappSettingsInput = z
  .object({
    enabled: z.boolean(),
    phoneNumberId: z.string().trim().regex(/^([0-9]{1,30})?$/, ws.phoneNumberIdInvalid),
    accessToken: secret(1000, ws.secretInvalid),
    appSecret: secret(200, ws.secretInvalid),
    verifyToken: secret(200, ws.verifyTokenInvalid).refine((value) => value === "" || value.length >= 16, ws.verifyTokenInvalid),
    ownerPhone: optionalPhoneInput,
    ownerAlerts: z.boolean(),
  })
  .superRefine((value, ctx) => {
    if (value.enabled && value.phoneNumberId === "") ctx.addIssue({ code: "custom", path: ["phoneNumberId"], message: ws.phoneNumberIdRequired });
    if (value.ownerAlerts && value.ownerPhone === "") ctx.addIssue({ code: "custom", path: ["ownerPhone"], message: ws.ownerPhoneRequired });
  });
export type WhatsAppSettingsInput = z.input<typeof whatsappSettingsInput>;
export type WhatsAppSettingsValues = z.output<typeof whatsappSettingsInput>;
