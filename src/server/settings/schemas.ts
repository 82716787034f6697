import { BANK_ACCOUNT_TYPES, MAX_EMAIL_LENGTH, MAX_UNPAID_ORDER_DAYS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { z } from "@/lib/zod";

const m = messages.settings;

/** A required line of text, trimmed; `label` names it as a sentence starts ("The account name"). */
const line = (label: string, max: number) => z.string().trim().min(1, m.required(label)).max(max, m.tooLong(label, max));
/** An optional line: empty is fine. */
const optionalLine = (label: string, max: number) => z.string().trim().max(max, m.tooLong(label, max));
/** A required address; `forWhom` says whose ("for the shop"). */
const email = (forWhom: string) =>
  z.string().trim().min(1, m.emailRequired(forWhom)).max(MAX_EMAIL_LENGTH, m.emailTooLong).pipe(z.email(m.emailInvalid(forWhom)));
/** Digits as printed on a statement: the spaces and dashes a person types are dropped first. */
const digits = (label: string, pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .min(1, m.required(label))
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(pattern, message));

/**
 * The shop settings form, shared by the admin page and settings.update (docs/architecture.md#shop-settings). The
 * tables' checks hold the same limits, so what this accepts can be stored.
 */
export const shopSettingsInput = z.object({
  bankAccountName: line("The account name", 100),
  bankName: line("The bank's name", 100),
  bankAccountNumber: digits("The account number", /^[0-9]{6,16}$/, m.accountNumberInvalid),
  bankBranchCode: digits("The branch code", /^[0-9]{6}$/, m.branchCodeInvalid),
  bankAccountType: z.enum(BANK_ACCOUNT_TYPES, m.accountTypeInvalid),
  phone: line("The phone number", 30).refine((value) => /^\+?[0-9 ()-]{7,}$/.test(value), m.phoneInvalid),
  email: email("for the shop"),
  address: optionalLine("The address", 200),
  ordersEmail: email("for order notices"),
  informationOfficerName: line("The information officer's name", 100),
  informationOfficerEmail: email("for the information officer"),
  unpaidOrderDays: z.number(m.unpaidDaysInvalid).int(m.unpaidDaysInvalid).min(0, m.unpaidDaysInvalid).max(MAX_UNPAID_ORDER_DAYS, m.unpaidDaysInvalid),
});

/** What the form holds and sends. */
export type ShopSettingsInput = z.input<typeof shopSettingsInput>;
/** The settings after validation: what is stored. */
export type ShopSettingsValues = z.output<typeof shopSettingsInput>;
export type ShopSettingsField = keyof ShopSettingsValues;
