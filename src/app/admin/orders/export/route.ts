import { connection, type NextRequest } from "next/server";
import { createTRPCContext } from "@/server/api/trpc";
import { exportOrders } from "@/server/orders/export-orders";
import { headerCookieJar } from "@/server/ports/cookies";

/** Order Management's "Export CSV": the orders of the current filter and search, for admins. */
export async function GET(request: NextRequest) {
  // Per request, never at build: a route without parameters would otherwise be prerendered,
  // which would open the database while `next build` runs.
  await connection();
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  return exportOrders(ctx, request.nextUrl.searchParams);
}
