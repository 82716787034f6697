import type { NextRequest } from "next/server";
import { runMode } from "@/env";
import { resolveContext } from "@/server/api/trpc";
import { getDatabase } from "@/server/db";
import { localStorageRoot, portsFor, processRequestLimits } from "@/server/platform";
import { headerCookieJar } from "@/server/ports/cookies";
import { fileNotFound, serveStoredFile } from "@/server/storage/serve-file";

/** Serves the local adapter's files to whoever the storage policies let read them. */
export async function GET(request: NextRequest, { params }: RouteContext<"/files/[bucket]/[...path]">) {
  if (runMode() === "supabase") return fileNotFound();
  const { bucket, path: segments } = await params;
  const database = await getDatabase();
  const ctx = await resolveContext(database, portsFor(database, headerCookieJar(request.headers), request.headers), request.headers, processRequestLimits());
  return serveStoredFile(ctx, localStorageRoot(), bucket, segments);
}
