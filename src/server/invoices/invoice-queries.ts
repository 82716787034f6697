import { sql, type Transaction } from "kysely";
import type { DB } from "@/server/db/schema";
import type { InvoiceDetailsValues, InvoiceSettingsValues } from "./schemas";

/** A transaction as the caller (a request) or, for the seed, with the migrating connection's rights. */
type Trx = Transaction<DB>;

function settingsRow(values: InvoiceSettingsValues) {
  return {
    vat_registered: values.vatRegistered,
    vat_number: values.vatNumber,
    legal_name: values.legalName,
    legal_address: values.legalAddress,
    invoice_prefix: values.invoicePrefix,
  };
}

/** The invoice settings (RLS: admins only), or `fallback` (the environment's) while no row exists. */
export async function readInvoiceSettings(trx: Trx, fallback: InvoiceSettingsValues): Promise<{ values: InvoiceSettingsValues; updatedAt: Date | null }> {
  const row = await trx
    .selectFrom("invoice_settings")
    .select(["vat_registered", "vat_number", "legal_name", "legal_address", "invoice_prefix", "updated_at"])
    .where("id", "=", true)
    .executeTakeFirst();
  if (!row) return { values: fallback, updatedAt: null };
  return {
    values: {
      vatRegistered: row.vat_registered,
      vatNumber: row.vat_number,
      legalName: row.legal_name,
      legalAddress: row.legal_address,
      invoicePrefix: row.invoice_prefix,
    },
    updatedAt: row.updated_at,
  };
}

/** Saves the invoice settings (RLS: admins only), creating the row if it does not exist yet. */
export async function saveInvoiceSettings(trx: Trx, values: InvoiceSettingsValues): Promise<void> {
  const row = settingsRow(values);
  await trx
    .insertInto("invoice_settings")
    .values(row)
    .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
    .execute();
}

/** Start-up: creates the row a new shop lacks, never touching what the owner saved. True if it was created. */
export async function insertMissingInvoiceSettings(trx: Trx, values: InvoiceSettingsValues): Promise<boolean> {
  const result = await trx
    .insertInto("invoice_settings")
    .values(settingsRow(values))
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The caller's own invoice details (RLS: their own profile). */
export async function readInvoiceDetails(trx: Trx, userId: string): Promise<InvoiceDetailsValues> {
  const row = await trx
    .selectFrom("profiles")
    .select(["invoice_company", "invoice_address", "invoice_vat_number"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return { company: row?.invoice_company ?? "", address: row?.invoice_address ?? "", vatNumber: row?.invoice_vat_number ?? "" };
}

/** Saves the caller's invoice details on their profile (column grants and RLS: their own). */
export async function saveInvoiceDetails(trx: Trx, userId: string, values: InvoiceDetailsValues): Promise<boolean> {
  const result = await trx
    .updateTable("profiles")
    .set({ invoice_company: values.company, invoice_address: values.address, invoice_vat_number: values.vatNumber })
    .where("id", "=", userId)
    .executeTakeFirst();
  return (result.numUpdatedRows ?? 0n) > 0n;
}

/** An order's invoices and credit notes as links show them (RLS: the order's owner and admins). */
export async function listOrderInvoices(trx: Trx, orderId: string) {
  const rows = await trx
    .selectFrom("invoices")
    .select(["id", "kind", "number", "issued_at"])
    .where("order_id", "=", orderId)
    .orderBy("issued_at")
    .orderBy("kind")
    .execute();
  return rows.map((row) => ({ id: row.id, kind: row.kind, number: row.number, issuedAt: row.issued_at }));
}

/** One document with its frozen snapshot (RLS: the order's owner and admins), or undefined. */
export async function findInvoice(trx: Trx, id: string) {
  return trx.selectFrom("invoices").select(["id", "kind", "number", "snapshot"]).where("id", "=", id).executeTakeFirst();
}

/** Records the caller's download; 1 for the first of this document, more for a copy. */
export async function recordDownload(trx: Trx, id: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select public.record_invoice_download(${id}::uuid) as n`.execute(trx);
  return Number(rows[0]!.n);
}
