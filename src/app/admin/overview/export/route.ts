import { connection, type NextRequest } from "next/server";
import { createTRPCContext } from "@/server/api/trpc";
import { exportOverviewCsv } from "@/server/overview/export-csv";
import { headerCookieJar } from "@/server/ports/cookies";

/** The sales overview's "Download CSV": every order of the chosen range, streamed, for admins. */
export async function GET(request: NextRequest) {
  // Per request, never at build.
  await connection();
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  return exportOverviewCsv(ctx, request.nextUrl.searchParams);
}
