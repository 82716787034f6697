import { createHash } from "node:crypto";

/**
 * PayFast's signatures (developers.payfast.co.za: "Checkout: step 2, signature" and "ITN: security
 * check one"). Both are the MD5 of `name=value` pairs joined with `&`, each value encoded as PHP's
 * `urlencode()` does, with `&passphrase=…` appended when the merchant set one. They differ in
 * which fields and in what order:
 *
 * - the checkout form: the non-blank fields, trimmed, in the order PayFast's documentation lists
 *   them (CHECKOUT_FIELD_ORDER), whatever order they are sent in;
 * - a notification (ITN): every posted field but `signature`, blank ones included, in the order
 *   received.
 */

/**
 * PHP's `urlencode()`: every byte of the UTF-8 text but ASCII letters, digits and `-_.` as `%XX`
 * (upper-case hex), a space as `+`. Unlike `encodeURIComponent`, it encodes `~!*'()` too.
 */
export function phpUrlencode(value: string): string {
  let encoded = "";
  for (const byte of Buffer.from(value, "utf8")) {
    if ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x5f || byte === 0x2e) {
      encoded += String.fromCharCode(byte);
    } else if (byte === 0x20) {
      encoded += "+";
    } else {
      encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return encoded;
}

/** The checkout form's variables in the order PayFast's documentation lists them (the order its signature uses). */
export const CHECKOUT_FIELD_ORDER = [
  "merchant_id",
  "merchant_key",
  "return_url",
  "cancel_url",
  "notify_url",
  "name_first",
  "name_last",
  "email_address",
  "cell_number",
  "m_payment_id",
  "amount",
  "item_name",
  "item_description",
  "custom_int1",
  "custom_int2",
  "custom_int3",
  "custom_int4",
  "custom_int5",
  "custom_str1",
  "custom_str2",
  "custom_str3",
  "custom_str4",
  "custom_str5",
  "email_confirmation",
  "confirmation_address",
  "payment_method",
] as const;
export type CheckoutField = (typeof CHECKOUT_FIELD_ORDER)[number];

/** `name=urlencode(value)&…`, plus the passphrase when there is one. */
function signedString(pairs: [string, string][], passphrase: string): string {
  const phrase = passphrase.trim();
  const signed: [string, string][] = phrase === "" ? pairs : [...pairs, ["passphrase", phrase]];
  return signed.map(([name, value]) => `${name}=${phpUrlencode(value)}`).join("&");
}

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

/** The checkout form's signature over `fields` (any order; blank ones are left out; values trimmed). */
export function checkoutSignature(fields: Partial<Record<CheckoutField, string>>, passphrase: string): string {
  const pairs: [string, string][] = [];
  for (const name of CHECKOUT_FIELD_ORDER) {
    const value = fields[name]?.trim();
    if (value) pairs.push([name, value]);
  }
  return md5(signedString(pairs, passphrase));
}

/** A notification's fields but its signature, in the order received: what is signed, and what the validate post-back sends. */
export function notificationParamString(fields: [string, string][]): string {
  return signedString(
    fields.filter(([name]) => name !== "signature"),
    "",
  );
}

/** The signature a notification with these fields (in the order received) must carry. */
export function notificationSignature(fields: [string, string][], passphrase: string): string {
  return md5(signedString(fields.filter(([name]) => name !== "signature"), passphrase));
}
