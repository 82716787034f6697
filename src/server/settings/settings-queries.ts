import type { Transaction } from "kysely";
import { defaultOpeningHours, formatOpeningHours } from "@/lib/opening-hours";
import type { DB } from "@/server/db/schema";
import { readOpeningHours } from "@/server/fulfilment/fulfilment-queries";
import type { ShopBank } from "./bank-transfer";
import type { ShopSettingsValues } from "./schemas";

/** A transaction as the caller (a request) or, for the seed, with the migrating connection's rights. */
type Trx = Transaction<DB>;

/** What the shop publishes: checkout, the footer, the contact page and the privacy notice show it. */
export interface PublicShopSettings {
  bank: ShopBank;
  /** `hours`: the opening hours (opening_hours) worded, never typed apart from the days checkout offers. */
  contact: { phone: string; email: string; address: string; hours: string };
  informationOfficer: { name: string; email: string };
  /** Unpaid orders are cancelled after this many days; 0: never. */
  unpaidOrderDays: number;
}

/** Everything, for the admins' form, with when and by whom it was last saved. */
export interface AdminShopSettings {
  values: ShopSettingsValues;
  /** Null while the settings are still the environment's (no row saved yet). */
  updatedAt: Date | null;
  updatedBy: string | null;
}

const PUBLISHED_COLUMNS = [
  "bank_account_name",
  "bank_name",
  "bank_account_number",
  "bank_branch_code",
  "bank_account_type",
  "contact_phone",
  "contact_email",
  "contact_address",
  "information_officer_name",
  "information_officer_email",
  "unpaid_order_days",
] as const;

function publishedRow(values: ShopSettingsValues) {
  return {
    bank_account_name: values.bankAccountName,
    bank_name: values.bankName,
    bank_account_number: values.bankAccountNumber,
    bank_branch_code: values.bankBranchCode,
    bank_account_type: values.bankAccountType,
    contact_phone: values.phone,
    contact_email: values.email,
    contact_address: values.address,
    information_officer_name: values.informationOfficerName,
    information_officer_email: values.informationOfficerEmail,
    unpaid_order_days: values.unpaidOrderDays,
  };
}

/** The settings everyone may read: all but the order-notice address. */
type PublishedValues = Omit<ShopSettingsValues, "ordersEmail">;

/** The published settings as the shop shows them; `hours` worded from the opening hours (unset: a new shop's). */
export function publicSettingsOf(values: PublishedValues, hours: string = formatOpeningHours(defaultOpeningHours())): PublicShopSettings {
  return {
    bank: {
      accountName: values.bankAccountName,
      bankName: values.bankName,
      accountNumber: values.bankAccountNumber,
      branchCode: values.bankBranchCode,
      accountType: values.bankAccountType,
    },
    contact: { phone: values.phone, email: values.email, address: values.address, hours },
    informationOfficer: { name: values.informationOfficerName, email: values.informationOfficerEmail },
    unpaidOrderDays: values.unpaidOrderDays,
  };
}

async function readPublished(trx: Trx): Promise<(PublishedValues & { updatedAt: Date }) | undefined> {
  const row = await trx.selectFrom("shop_settings").select([...PUBLISHED_COLUMNS, "updated_at"]).where("id", "=", true).executeTakeFirst();
  return (
    row && {
      bankAccountName: row.bank_account_name,
      bankName: row.bank_name,
      bankAccountNumber: row.bank_account_number,
      bankBranchCode: row.bank_branch_code,
      bankAccountType: row.bank_account_type,
      phone: row.contact_phone,
      email: row.contact_email,
      address: row.contact_address,
      informationOfficerName: row.information_officer_name,
      informationOfficerEmail: row.information_officer_email,
      unpaidOrderDays: row.unpaid_order_days,
      updatedAt: row.updated_at,
    }
  );
}

/** The published settings (RLS: everyone reads) with the opening hours worded, or undefined while no row exists. */
export async function readPublicSettings(trx: Trx): Promise<PublicShopSettings | undefined> {
  const published = await readPublished(trx);
  return published && publicSettingsOf(published, formatOpeningHours(await readOpeningHours(trx)));
}

/**
 * Every setting (RLS: the private row is admins' only), each row that does not exist yet taken
 * from `fallback` (the environment's values).
 */
export async function readAdminSettings(trx: Trx, fallback: ShopSettingsValues): Promise<AdminShopSettings> {
  const published = await readPublished(trx);
  const restricted = await trx
    .selectFrom("shop_private_settings as s")
    .leftJoin("profiles as p", "p.id", "s.updated_by")
    .select(["s.orders_email", "s.updated_at", "p.full_name", "p.email"])
    .where("s.id", "=", true)
    .executeTakeFirst();
  const { updatedAt: publishedAt, ...publishedValues } = published ?? { updatedAt: null };
  const values: ShopSettingsValues = { ...fallback, ...publishedValues, ...(restricted && { ordersEmail: restricted.orders_email }) };
  // Both rows are written by every save; the later stamp is the last save.
  const stamps = [publishedAt, restricted?.updated_at].filter((at): at is Date => at instanceof Date);
  const updatedAt = stamps.length > 0 ? new Date(Math.max(...stamps.map((at) => at.getTime()))) : null;
  return { values, updatedAt, updatedBy: restricted?.full_name || restricted?.email || null };
}

/** Saves every setting (RLS: admins only), creating the rows if they do not exist yet. */
export async function saveSettings(trx: Trx, values: ShopSettingsValues): Promise<void> {
  const published = publishedRow(values);
  await trx
    .insertInto("shop_settings")
    .values(published)
    .onConflict((conflict) => conflict.column("id").doUpdateSet(published))
    .execute();
  await trx
    .insertInto("shop_private_settings")
    .values({ orders_email: values.ordersEmail })
    .onConflict((conflict) => conflict.column("id").doUpdateSet({ orders_email: values.ordersEmail }))
    .execute();
}

/** Start-up: creates the rows a new shop lacks, never touching what the owner saved. True if any was created. */
export async function insertMissingSettings(trx: Trx, values: ShopSettingsValues): Promise<boolean> {
  const published = await trx.insertInto("shop_settings").values(publishedRow(values)).onConflict((conflict) => conflict.column("id").doNothing()).executeTakeFirst();
  const restricted = await trx
    .insertInto("shop_private_settings")
    .values({ orders_email: values.ordersEmail })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return (published.numInsertedOrUpdatedRows ?? 0n) > 0n || (restricted.numInsertedOrUpdatedRows ?? 0n) > 0n;
}
