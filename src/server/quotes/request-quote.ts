import { quoteMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { quoteCall } from "./quote-errors";
import { insertQuoteRequest } from "./quote-queries";
import type { QuoteFileInput, RequestQuoteInput } from "./schemas";

type Ctx = Pick<TRPCContext, "db" | "storage"> & { user: SessionUser };

/**
 * quotes.uploadFile: one file for a request, stored before the request is sent, checked by
 * content as a logo on a line is (PNG, JPEG, WebP or PDF up to 10 MB; images re-encoded without
 * metadata), in the private personalisation bucket under the customer's folder. The request then
 * names it; a file no request names is removed a week later (unused_personalisation_files()).
 */
export async function uploadQuoteFile({ ctx, input }: { ctx: Ctx; input: QuoteFileInput }): Promise<{ path: string; fileName: string }> {
  const upload = await readUpload(input.file, "logo");
  const object: StoredObject = { bucket: "personalisation", path: `${ctx.user.id}/${timestampedName(upload.fileName)}` };
  await storeThenWrite(ctx, { object, bytes: upload.bytes, contentType: upload.type }, async () => undefined);
  return { path: object.path, fileName: upload.fileName };
}

/**
 * quotes.request: the caller's request, with its items and files, through request_quote(), which
 * checks each file is the caller's own upload and names each product as it is now; the shop gets
 * its mail and admins the live notice in the same transaction.
 */
export async function requestQuote({ ctx, input }: { ctx: Ctx; input: RequestQuoteInput }): Promise<{ requestId: string; message: string }> {
  const requestId = await quoteCall(() => ctx.db.transaction((trx) => insertQuoteRequest(trx, input)));
  return { requestId, message: m.requested };
}
