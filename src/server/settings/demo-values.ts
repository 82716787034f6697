import { DEMO_BANK } from "./bank-transfer";

/**
 * The demo values the shop ships with, in one place (issue 34): the fallbacks for unset SHOP_*
 * and BANK_* variables (defaults.ts, invoices/defaults.ts) and what supabase/seed.sql inserts
 * (tests/unit/demo-values.test.ts holds the two equal). A setting still at one of these in
 * production is a placeholder: the go-live checklist names it and public pages do not show it as
 * the business's own.
 */
export const DEMO_VALUES = {
  bank: DEMO_BANK,
  phone: "+27 11 555 0142",
  email: "hello@ourworldservices.co.za",
  address: "12 Market Street, Johannesburg, 2001",
  /** POPIA makes the head of a private body its officer when none is named: a stand-in, not a name. */
  informationOfficerName: "The owner",
  /** The demo legal name: the seed's, and the fallback when neither SHOP_LEGAL_NAME nor SHOP_NAME is set. */
  legalNames: ["Our World Services (Pty) Ltd", "Our World Services"],
} as const;

const same = (value: string, demo: string) => value.trim().toLowerCase() === demo.toLowerCase();

/** Whether `value` is still the demo value `demo` (or blank, which is no better). */
export function isDemoValue(value: string, demo: string | readonly string[]): boolean {
  if (value.trim() === "") return true;
  return typeof demo === "string" ? same(value, demo) : demo.some((one) => same(value, one));
}
