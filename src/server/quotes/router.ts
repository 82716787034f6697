import { quoteMessages as m } from "@/lib/messages";
import { byCaller } from "@/server/api/middlewares/caller-keys";
import { rateLimited } from "@/server/api/middlewares/rate-limit";
import { adminProcedure, createTRPCRouter, customerProcedure, signedInProcedure } from "@/server/api/trpc";
import { acceptQuote, askQuoteChange, declineQuote, quoteAcceptOptions } from "./decide-quote";
import { saveQuoteDraft, sendQuote } from "./price-quote";
import { quotePdf } from "./quote-document";
import { myQuotes, quotableVariants, quoteInbox, quoteRequest } from "./read-quotes";
import { requestQuote, uploadQuoteFile } from "./request-quote";
import {
  acceptQuoteInput,
  askQuoteChangeInput,
  declineQuoteInput,
  quoteFileInput,
  quoteAcceptOptionsInput,
  quotePdfInput,
  quoteRequestRefInput,
  requestQuoteInput,
  saveQuoteDraftInput,
  sendQuoteInput,
} from "./schemas";

/** A customer's quotes (docs/quotes.md): asking, reading, deciding. RLS: their own only. */
export const quotesRouter = createTRPCRouter({
  /** Each request mails the shop: QUOTE_REQUEST_LIMIT a customer. */
  request: customerProcedure.meta({ failure: m.requestFailed }).input(requestQuoteInput).use(rateLimited((limits) => limits.quoteRequest, byCaller)).mutation(requestQuote),
  /** A file for a request, stored before the request is sent. */
  uploadFile: customerProcedure.meta({ failure: m.uploadFailed }).input(quoteFileInput).mutation(uploadQuoteFile),
  mine: signedInProcedure.meta({ failure: m.loadFailed }).query(myQuotes),
  /** One request with the versions sent (admins: any request, drafts too). */
  byId: signedInProcedure.meta({ failure: m.loadFailed }).input(quoteRequestRefInput).query(quoteRequest),
  /** A sent version as a PDF (the route /quotes/[id]/pdf serves it). */
  pdf: signedInProcedure.meta({ failure: m.loadFailed }).input(quotePdfInput).query(quotePdf),
  /** What accepting asks: delivery or collection (as checkout asks it), a time per booked line. */
  acceptOptions: customerProcedure.meta({ failure: m.loadFailed }).input(quoteAcceptOptionsInput).query(quoteAcceptOptions),
  accept: customerProcedure.meta({ failure: m.decideFailed }).input(acceptQuoteInput).mutation(acceptQuote),
  decline: customerProcedure.meta({ failure: m.decideFailed }).input(declineQuoteInput).mutation(declineQuote),
  askChange: customerProcedure.meta({ failure: m.decideFailed }).input(askQuoteChangeInput).mutation(askQuoteChange),
});

/** The quote inbox and builder (admins only; the SQL functions check again). */
export const adminQuotesRouter = createTRPCRouter({
  inbox: adminProcedure.meta({ failure: m.loadFailed }).query(quoteInbox),
  get: adminProcedure.meta({ failure: m.loadFailed }).input(quoteRequestRefInput).query(quoteRequest),
  /** The catalogue's variants with their list prices, for the builder's catalogue lines. */
  variants: adminProcedure.meta({ failure: m.loadFailed }).query(quotableVariants),
  saveDraft: adminProcedure.meta({ failure: m.saveFailed }).input(saveQuoteDraftInput).mutation(saveQuoteDraft),
  send: adminProcedure.meta({ failure: m.saveFailed }).input(sendQuoteInput).mutation(sendQuote),
});
