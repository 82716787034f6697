/**
 * Whether checkout may take orders by bank transfer with the shop's bank account: not while it
 * is the demo placeholder the shop ships with (or incomplete) in production, where a customer
 * would pay a stranger's account; outside production the placeholder works, labelled as a demo.
 */

/** A bank account as checkout, the mails and the settings show it. */
export interface ShopBank {
  accountName: string;
  bankName: string;
  accountNumber: string;
  branchCode: string;
  accountType: string;
}

/**
 * The demo bank account: the fallback when BANK_* are unset, seeded into a new shop's settings.
 * Its account number is what marks the placeholder (a real account may share the name and bank).
 */
export const DEMO_BANK = {
  accountName: "Our World Services (Pty) Ltd",
  bankName: "First National Bank",
  accountNumber: "62812345678",
  branchCode: "250655",
  accountType: "Cheque",
} as const satisfies ShopBank;

/** "ready": a real account; "demo": the placeholder, outside production; "not_set_up": the placeholder in production. */
export type BankTransferStatus = "ready" | "demo" | "not_set_up";

export function isPlaceholderBank(bank: ShopBank): boolean {
  const incomplete = Object.values(bank).some((value) => value.trim() === "");
  return incomplete || bank.accountNumber === DEMO_BANK.accountNumber;
}

export function bankTransferStatus(bank: ShopBank, production: boolean): BankTransferStatus {
  if (!isPlaceholderBank(bank)) return "ready";
  return production ? "not_set_up" : "demo";
}
