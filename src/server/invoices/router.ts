import { invoiceMessages } from "@/lib/messages";
import { adminProcedure, createTRPCRouter, signedInProcedure } from "@/server/api/trpc";
import { downloadInvoice, getInvoiceSettings, myInvoiceDetails, orderInvoices, saveMyInvoiceDetails, updateInvoiceSettings } from "./manage-invoices";
import { invoiceDetailsInput, invoiceIdInput, invoiceSettingsInput, orderInvoicesInput } from "./schemas";

/** Invoices and credit notes (issue 26): issued by SQL when an order is paid; RLS decides who reads them. */
export const invoicesRouter = createTRPCRouter({
  /** VAT and invoice settings (admins; RLS checks again). */
  settings: adminProcedure.meta({ failure: invoiceMessages.loadFailed }).query(getInvoiceSettings),
  updateSettings: adminProcedure.meta({ failure: invoiceMessages.saveFailed }).input(invoiceSettingsInput).mutation(updateInvoiceSettings),
  /** The caller's own company name, address and VAT number (checkout and profile). */
  myDetails: signedInProcedure.query(myInvoiceDetails),
  saveMyDetails: signedInProcedure.meta({ failure: invoiceMessages.detailsSaveFailed }).input(invoiceDetailsInput).mutation(saveMyInvoiceDetails),
  /** An order's documents, for the links beside it (the customer's own; admins any). */
  forOrder: signedInProcedure.input(orderInvoicesInput).query(orderInvoices),
  /** The PDF (src/app/invoices/[id]/route.ts serves it). */
  download: signedInProcedure.input(invoiceIdInput).query(downloadInvoice),
});
