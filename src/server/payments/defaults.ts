import { env, type Env } from "@/env";
import type { PaymentCredentials } from "@/server/ports/payments";
import { paymentSettingsInput } from "./schemas";

/**
 * PayFast's credentials a new shop starts with (seeded on first start in the local modes, as
 * BANK_* are): PAYFAST_MERCHANT_ID and PAYFAST_MERCHANT_KEY (both, or neither), with
 * PAYFAST_PASSPHRASE and PAYFAST_SANDBOX. Null when none are given: checkout offers bank
 * transfer only until an admin enters them in Shop settings. Checked by the settings form's rules,
 * so a bad variable stops the start with its name.
 */
export function paymentCredentialsFromEnv(config: Env = env): PaymentCredentials | null {
  const id = config.PAYFAST_MERCHANT_ID;
  const key = config.PAYFAST_MERCHANT_KEY;
  if (!id && !key) return null;
  if (!id || !key) throw new Error("Invalid payment settings in the environment: set PAYFAST_MERCHANT_ID and PAYFAST_MERCHANT_KEY together.");
  const parsed = paymentSettingsInput.safeParse({
    merchantId: id,
    merchantKey: key,
    passphrase: config.PAYFAST_PASSPHRASE ?? "",
    clearPassphrase: false,
    sandbox: config.PAYFAST_SANDBOX,
  });
  if (!parsed.success) {
    const names: Record<string, string> = { merchantId: "PAYFAST_MERCHANT_ID", merchantKey: "PAYFAST_MERCHANT_KEY", passphrase: "PAYFAST_PASSPHRASE" };
    const problems = parsed.error.issues.map((issue) => `${names[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}`);
    throw new Error(`Invalid payment settings in the environment:\n  ${problems.join("\n  ")}`);
  }
  const values = parsed.data;
  return { merchantId: values.merchantId, merchantKey: values.merchantKey, passphrase: values.passphrase.trim(), sandbox: values.sandbox };
}
