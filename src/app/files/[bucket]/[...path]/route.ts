import type { NextRequest } from "next/server";
import { createTRPCContext } from "@/server/api/trpc";
import { headerCookieJar } from "@/server/ports/cookies";
import { serveStoredFile } from "@/server/storage/serve-file";

/** Serves stored files (local modes) to whoever the storage policies let read them. */
export async function GET(request: NextRequest, { params }: RouteContext<"/files/[bucket]/[...path]">) {
  const { bucket, path: segments } = await params;
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  return serveStoredFile(ctx, bucket, segments, { preview: request.nextUrl.searchParams.get("preview") === "1" });
}
