import { env, type Env } from "@/env";
import { DEFAULT_UNPAID_ORDER_DAYS } from "@/lib/constants";
import { DEMO_BANK } from "./bank-transfer";
import { DEMO_VALUES } from "./demo-values";
import { shopSettingsInput, type ShopSettingsField, type ShopSettingsValues } from "./schemas";

/** The environment variable that seeds each setting (.env.example). */
const VARIABLES: Record<ShopSettingsField, keyof Env> = {
  bankAccountName: "BANK_ACCOUNT_NAME",
  bankName: "BANK_NAME",
  bankAccountNumber: "BANK_ACCOUNT_NUMBER",
  bankBranchCode: "BANK_BRANCH_CODE",
  bankAccountType: "BANK_ACCOUNT_TYPE",
  phone: "SHOP_PHONE",
  email: "SHOP_EMAIL",
  address: "SHOP_ADDRESS",
  ordersEmail: "SHOP_ORDERS_EMAIL",
  informationOfficerName: "SHOP_INFORMATION_OFFICER",
  informationOfficerEmail: "SHOP_INFORMATION_OFFICER_EMAIL",
  unpaidOrderDays: "UNPAID_ORDER_DAYS",
};

/** The settings as the environment gives them (unchecked), with the demo values where a variable is unset. */
function fromEnv(config: Env): Record<ShopSettingsField, string | number> {
  const email = config.SHOP_EMAIL ?? DEMO_VALUES.email;
  return {
    bankAccountName: config.BANK_ACCOUNT_NAME ?? DEMO_BANK.accountName,
    bankName: config.BANK_NAME ?? DEMO_BANK.bankName,
    bankAccountNumber: config.BANK_ACCOUNT_NUMBER ?? DEMO_BANK.accountNumber,
    bankBranchCode: config.BANK_BRANCH_CODE ?? DEMO_BANK.branchCode,
    bankAccountType: config.BANK_ACCOUNT_TYPE ?? DEMO_BANK.accountType,
    phone: config.SHOP_PHONE ?? DEMO_VALUES.phone,
    email,
    address: config.SHOP_ADDRESS ?? DEMO_VALUES.address,
    // Order notices go to the shop's own inbox unless another is named.
    ordersEmail: config.SHOP_ORDERS_EMAIL ?? email,
    // POPIA makes the head of a private body its information officer unless someone else is named.
    informationOfficerName: config.SHOP_INFORMATION_OFFICER ?? DEMO_VALUES.informationOfficerName,
    informationOfficerEmail: config.SHOP_INFORMATION_OFFICER_EMAIL ?? email,
    unpaidOrderDays: config.UNPAID_ORDER_DAYS === undefined ? DEFAULT_UNPAID_ORDER_DAYS : Number(config.UNPAID_ORDER_DAYS),
  };
}

/**
 * The settings a shop starts with (seeded on first start) and shows while its settings row is
 * missing: SHOP_*, BANK_* and UNPAID_ORDER_DAYS, or the demo values. Checked by the form's own
 * rules, so a bad variable stops the start with its name rather than a database error.
 */
export function settingsFromEnv(config: Env = env): ShopSettingsValues {
  const parsed = shopSettingsInput.safeParse(fromEnv(config));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${VARIABLES[issue.path[0] as ShopSettingsField]}: ${issue.message}`);
  throw new Error(`Invalid shop settings in the environment:\n  ${problems.join("\n  ")}`);
}
