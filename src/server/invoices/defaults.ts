import { env, type Env } from "@/env";
import { DEFAULT_INVOICE_PREFIX } from "@/lib/constants";
import { DEMO_VALUES } from "@/server/settings/demo-values";
import { invoiceSettingsInput, type InvoiceSettingsField, type InvoiceSettingsValues } from "./schemas";

/** The environment variable that seeds each invoice setting (.env.example). */
const VARIABLES: Record<InvoiceSettingsField, keyof Env> = {
  vatRegistered: "SHOP_VAT_NUMBER",
  vatNumber: "SHOP_VAT_NUMBER",
  legalName: "SHOP_LEGAL_NAME",
  legalAddress: "SHOP_LEGAL_ADDRESS",
  invoicePrefix: "INVOICE_PREFIX",
};

/**
 * The invoice settings a new shop starts with (seeded on first start, as BANK_* are):
 * SHOP_VAT_NUMBER (set means VAT-registered), SHOP_LEGAL_NAME (unset: SHOP_NAME or the demo name),
 * SHOP_LEGAL_ADDRESS (unset: SHOP_ADDRESS or the demo address), INVOICE_PREFIX (unset: INV-).
 * Checked by the form's own rules, so a bad variable stops the start with its name.
 */
export function invoiceSettingsFromEnv(config: Env = env): InvoiceSettingsValues {
  const parsed = invoiceSettingsInput.safeParse({
    vatRegistered: config.SHOP_VAT_NUMBER !== undefined,
    vatNumber: config.SHOP_VAT_NUMBER ?? "",
    legalName: config.SHOP_LEGAL_NAME ?? config.SHOP_NAME ?? DEMO_VALUES.legalNames[1],
    legalAddress: config.SHOP_LEGAL_ADDRESS ?? config.SHOP_ADDRESS ?? DEMO_VALUES.address,
    invoicePrefix: config.INVOICE_PREFIX ?? DEFAULT_INVOICE_PREFIX,
  });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${VARIABLES[issue.path[0] as InvoiceSettingsField]}: ${issue.message}`);
  throw new Error(`Invalid invoice settings in the environment:\n  ${problems.join("\n  ")}`);
}
