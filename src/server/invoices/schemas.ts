import { invoiceMessages as m } from "@/lib/messages";
import { z } from "@/lib/zod";

/** SARS VAT numbers: ten digits starting with 4 (the tables check the same). */
export const VAT_NUMBER = /^4[0-9]{9}$/;
/** An invoice number prefix: what invoice_settings.invoice_prefix's check allows. */
export const INVOICE_PREFIX = /^[A-Z0-9][A-Z0-9/-]{0,11}$/;

/** A VAT number as typed: spaces dropped; empty allowed. */
const vatNumber = z
  .string()
  .trim()
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(z.string().refine((value) => value === "" || VAT_NUMBER.test(value), m.vatNumberInvalid));

/**
 * The invoice settings form, shared by the admins' form and invoices.updateSettings: VAT
 * registration and number, the legal name and address printed on invoices, the number prefix.
 */
export const invoiceSettingsInput = z
  .object({
    vatRegistered: z.boolean(),
    vatNumber,
    legalName: z.string().trim().min(1, m.legalNameRequired).max(120, m.tooLong("The legal name", 120)),
    legalAddress: z.string().trim().min(1, m.legalAddressRequired).max(300, m.tooLong("The address", 300)),
    invoicePrefix: z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(INVOICE_PREFIX, m.prefixInvalid)),
  })
  .superRefine((value, context) => {
    if (value.vatRegistered && value.vatNumber === "") context.addIssue({ code: "custom", path: ["vatNumber"], message: m.vatNumberRequired });
  });

export type InvoiceSettingsInput = z.input<typeof invoiceSettingsInput>;
export type InvoiceSettingsValues = z.output<typeof invoiceSettingsInput>;
export type InvoiceSettingsField = keyof InvoiceSettingsValues;

/** The buyer's details for a full tax invoice (checkout and profile): all optional. */
export const invoiceDetailsInput = z.object({
  company: z.string().trim().max(120, m.tooLong("The company name", 120)),
  address: z.string().trim().max(300, m.tooLong("The address", 300)),
  vatNumber,
});

export type InvoiceDetailsInput = z.input<typeof invoiceDetailsInput>;
export type InvoiceDetailsValues = z.output<typeof invoiceDetailsInput>;

/** One invoice or credit note, by id (downloads). */
export const invoiceIdInput = z.object({ id: z.uuid() });

/** An order's invoices and credit notes (the links beside it). */
export const orderInvoicesInput = z.object({ orderId: z.uuid() });
