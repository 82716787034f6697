import { TRPCError } from "@trpc/server";
import { QUOTE_LIST_LIMIT } from "@/lib/constants";
import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { findQuoteRequest, listQuotableVariants, listQuoteRequests } from "./quote-queries";
import type { QuoteRequestRefInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "storage">;

/** The caller's own requests, latest change first: the profile's Quotes. */
export function myQuotes({ ctx }: { ctx: Ctx & { user: SessionUser } }) {
  return ctx.db.transaction((trx) => listQuoteRequests(trx, { userId: ctx.user.id, limit: QUOTE_LIST_LIMIT }));
}

/** Every request (RLS: admins read all), latest change first: the admins' quote inbox. */
export function quoteInbox({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listQuoteRequests(trx, { limit: QUOTE_LIST_LIMIT }));
}

/**
 * One request with its versions, files and messages (RLS: the caller's own, without drafts; an
 * admin's any). Someone else's is NOT_FOUND, as one that does not exist. Files come as URLs the
 * caller may open (private: checked locally, signed and short-lived on Supabase).
 */
export async function quoteRequest({ ctx, input }: { ctx: Ctx; input: QuoteRequestRefInput }) {
  const request = await ctx.db.transaction((trx) => findQuoteRequest(trx, input.requestId));
  if (!request) throw new TRPCError({ code: "NOT_FOUND", message: m.notFound });
  const files = await Promise.all(
    request.files.map(async (file) => ({ fileName: file.fileName, url: await ctx.storage.privateUrl({ bucket: "personalisation", path: file.path }) })),
  );
  return { ...request, files };
}

/** The variants the quote builder offers for catalogue lines, with their list prices. */
export function quotableVariants({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listQuotableVariants(trx));
}
