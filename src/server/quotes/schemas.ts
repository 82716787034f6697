import { quoteMessages as m } from "@/lib/messages";
import { z } from "@/lib/zod";
import { fulfilmentChoice } from "@/server/fulfilment/schemas";
import { VAT_NUMBER } from "@/server/invoices/schemas";

/** What a quote request, a draft and a decision may hold; the tables check the same (105_quotes.sql). */
export const QUOTE_LIMITS = {
  description: 5000,
  items: 50,
  quantity: 100_000,
  files: 5,
  company: 120,
  lines: 100,
  lineDescription: 500,
  terms: 4000,
  note: 4000,
  reason: 1000,
  message: 2000,
  purchaseOrder: 60,
} as const;

/** Q-000001: a sent quote's number. */
export const QUOTE_NUMBER = /^Q-[0-9]{6,}$/;

/** A calendar day, YYYY-MM-DD, that exists (no 31 February). */
const day = (message: string) =>
  z
    .string()
    .regex(/^2\d{3}-\d{2}-\d{2}$/, message)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), message);
const quantity = z.int(m.quantityInvalid).min(1, m.quantityInvalid).max(QUOTE_LIMITS.quantity, m.quantityInvalid);
/** A rand amount as typed ("1500", "149.50"), above zero, at most two decimals. */
const price = z
  .union([z.number(), z.string().trim()])
  .transform((value) => String(value))
  .pipe(z.string().regex(/^\d{1,10}(\.\d{1,2})?$/, m.linePriceInvalid).refine((value) => Number(value) > 0, m.linePriceInvalid));

/** A file already stored by quotes.uploadFile, named by the request. */
export const quoteFileRef = z.object({
  path: z.string().min(1, m.filesInvalid).max(500, m.filesInvalid),
  fileName: z.string().min(1, m.filesInvalid).max(255, m.filesInvalid),
});

/** quotes.request: the request form (/quotes/new), shared with the form. */
export const requestQuoteInput = z.object({
  description: z.string().trim().min(1, m.descriptionRequired).max(QUOTE_LIMITS.description, m.descriptionRequired),
  items: z
    .array(z.object({ variantId: z.uuid(m.productUnavailable), quantity }))
    .max(QUOTE_LIMITS.items, m.tooManyItems)
    .default([]),
  preferredDate: day(m.dateInvalid).nullable().default(null),
  company: z.string().trim().max(QUOTE_LIMITS.company, m.companyTooLong).default(""),
  vatNumber: z
    .string()
    .trim()
    .transform((value) => value.replace(/\s/g, ""))
    .pipe(z.string().refine((value) => value === "" || VAT_NUMBER.test(value), m.vatNumberInvalid))
    .default(""),
  files: z.array(quoteFileRef).max(QUOTE_LIMITS.files, m.tooManyFiles).default([]),
});
export type RequestQuoteInput = z.output<typeof requestQuoteInput>;

/** quotes.uploadFile: one file for a request, stored before the request is sent. */
export const quoteFileInput = z
  .instanceof(FormData)
  .transform((form) => ({ file: form.get("file") }))
  .pipe(z.object({ file: z.custom<File>((value) => value instanceof File && value.size > 0, m.filesInvalid) }));
export type QuoteFileInput = z.output<typeof quoteFileInput>;

/** One request (the customer's own; admins any). */
export const quoteRequestRefInput = z.object({ requestId: z.uuid(m.notFound) });
export type QuoteRequestRefInput = z.infer<typeof quoteRequestRefInput>;

/** A time for one booked line of the version (a free time of its service, as the product page offers). */
export const quoteSlotInput = z.object({
  lineId: z.uuid(m.slotsInvalid),
  startsAt: z.iso.datetime({ offset: true, message: m.slotsInvalid }),
});

/**
 * quotes.accept: the version, the customer's purchase-order number if they have one, how and
 * when it reaches them (checkout's own choice, where accepting asks one: quotes.acceptOptions),
 * and a time for each line of a bookable service.
 */
export const acceptQuoteInput = z.object({
  quoteId: z.uuid(m.notFound),
  purchaseOrder: z.string().trim().max(QUOTE_LIMITS.purchaseOrder, m.purchaseOrderTooLong).default(""),
  fulfilment: fulfilmentChoice.nullable().default(null),
  slots: z
    .array(quoteSlotInput)
    .max(QUOTE_LIMITS.lines, m.slotsInvalid)
    .refine((slots) => new Set(slots.map((slot) => slot.lineId.toLowerCase())).size === slots.length, m.slotsInvalid)
    .default([]),
});
export type AcceptQuoteInput = z.output<typeof acceptQuoteInput>;

/** quotes.decline: the version and why. */
export const declineQuoteInput = z.object({
  quoteId: z.uuid(m.notFound),
  reason: z.string().trim().min(1, m.declineReasonRequired).max(QUOTE_LIMITS.reason, m.declineReasonRequired),
});
export type DeclineQuoteInput = z.output<typeof declineQuoteInput>;

/** quotes.askChange: the version and what should change. */
export const askQuoteChangeInput = z.object({
  quoteId: z.uuid(m.notFound),
  message: z.string().trim().min(1, m.changeRequired).max(QUOTE_LIMITS.message, m.changeRequired),
});
export type AskQuoteChangeInput = z.output<typeof askQuoteChangeInput>;

/** A draft's line: a catalogue variant at a price, or a custom line. */
export const quoteLineInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("catalogue"), variantId: z.uuid(m.productUnavailable), quantity, unitPrice: price }),
  z.object({
    kind: z.literal("custom"),
    description: z.string().trim().min(1, m.lineDescriptionRequired).max(QUOTE_LIMITS.lineDescription, m.lineDescriptionRequired),
    quantity,
    unitPrice: price,
  }),
]);
export type QuoteLineInput = z.output<typeof quoteLineInput>;

/** adminQuotes.saveDraft: the builder's form (a new draft, or the draft replaced whole). */
export const saveQuoteDraftInput = z.object({
  requestId: z.uuid(m.notFound),
  validUntil: day(m.validityRequired),
  terms: z.string().trim().max(QUOTE_LIMITS.terms, m.termsTooLong).default(""),
  note: z.string().trim().max(QUOTE_LIMITS.note, m.noteTooLong).default(""),
  lines: z.array(quoteLineInput).min(1, m.linesRequired).max(QUOTE_LIMITS.lines, m.linesRequired),
});
export type SaveQuoteDraftInput = z.output<typeof saveQuoteDraftInput>;

/** quotes.acceptOptions: what accepting a sent version asks. */
export const quoteAcceptOptionsInput = z.object({ quoteId: z.uuid(m.notFound) });
export type QuoteAcceptOptionsInput = z.infer<typeof quoteAcceptOptionsInput>;

/** quotes.pdf: a sent version (its customer's or, for admins, any). */
export const quotePdfInput = z.object({ quoteId: z.uuid(m.notFound) });
export type QuotePdfInput = z.infer<typeof quotePdfInput>;

/** adminQuotes.send: the draft to send. */
export const sendQuoteInput = z.object({ quoteId: z.uuid(m.notFound) });
export type SendQuoteInput = z.infer<typeof sendQuoteInput>;
