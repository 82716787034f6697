import type { NextRequest } from "next/server";
import { createTRPCContext } from "@/server/api/trpc";
import { headerCookieJar } from "@/server/ports/cookies";
import { serveStoredFile } from "@/server/storage/serve-file";
import { servePdfPreview } from "@/server/storage/serve-preview";

/**
 * Serves stored files (local modes) to whoever the storage policies let read them. In Supabase
 * mode, Supabase serves the files and this route only draws PDF proofs' first pages (`?preview=1`).
 */
export async function GET(request: NextRequest, { params }: RouteContext<"/files/[bucket]/[...path]">) {
  const { bucket, path: segments } = await params;
  const responseHeaders = new Headers();
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers, responseHeaders) });
  const preview = request.nextUrl.searchParams.get("preview") === "1";
  // Public files are cached for a year by anyone: they never carry a cookie.
  if (ctx.storage.provider === "local") return serveStoredFile(ctx, bucket, segments, { preview });
  const response = preview
    ? await servePdfPreview(ctx.storage, bucket, segments)
    : new Response("Not found", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } });
  // The proxy does not run for /files: a Supabase session refreshed while checking the caller is kept here.
  for (const cookie of responseHeaders.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}
