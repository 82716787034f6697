import { z } from "@/lib/zod";

/** An amount as the snapshot stores it: numeric(12,2) as text ("149.50"). */
const amount = z.string().regex(/^-?\d{1,10}\.\d{2}$/);

/**
 * What an issued invoice or credit note prints, frozen by SQL when it was issued
 * (private.issue_invoice / issue_credit_note in supabase/schemas/080_invoices.sql). The PDF is drawn
 * from this alone, so a later change of prices, names or settings never alters it.
 */
export const invoiceSnapshot = z.object({
  version: z.literal(1),
  /** tax_invoice: a VAT-registered shop's; invoice: a shop not registered for VAT; credit_note: a cancelled paid order's, or a cancelled booked line's. */
  document: z.enum(["tax_invoice", "invoice", "credit_note"]),
  /** A full tax invoice (above R5,000): the buyer's details are printed. */
  full: z.boolean(),
  number: z.string().min(1),
  issuedAt: z.string().min(1),
  orderReference: z.string(),
  orderDate: z.string(),
  /** The quote the order was accepted from (Q-000012; docs/quotes.md), and the customer's purchase-order number; absent on older invoices. */
  quoteNumber: z.string().nullish(),
  purchaseOrder: z.string().nullish(),
  seller: z.object({ name: z.string(), address: z.string(), vatNumber: z.string().nullable() }),
  buyer: z.object({ name: z.string(), email: z.string(), company: z.string(), address: z.string(), vatNumber: z.string() }),
  /** Null when the shop was not registered for VAT. */
  vatRate: z.number().nullable(),
  /** itemId: the order line billed (absent on invoices issued before lines named it). */
  lines: z.array(z.object({ itemId: z.string().optional(), description: z.string(), quantity: z.number().int(), unitPrice: amount, amount, vat: amount.optional() })),
  total: amount,
  vat: amount,
  exclusive: amount,
  /** A credit note's invoice. */
  credits: z.object({ number: z.string(), issuedAt: z.string() }).optional(),
  /** A credit note for part of its invoice: a booked line cancelled on its own, or what was left after one (docs/bookings.md). */
  partial: z.boolean().optional(),
  /** An order with bookings asking a deposit (docs/bookings.md): which payment this invoices. */
  part: z.enum(["deposit", "balance"]).optional(),
  /** A balance's invoice names the deposit's. */
  depositInvoice: z.object({ number: z.string(), issuedAt: z.string() }).optional(),
});

export type InvoiceSnapshot = z.infer<typeof invoiceSnapshot>;
