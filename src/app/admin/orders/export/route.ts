import type { NextRequest } from "next/server";
import { createTRPCContext } from "@/server/api/trpc";
import { exportOrders } from "@/server/orders/export-orders";
import { headerCookieJar } from "@/server/ports/cookies";

/** Order Management's "Export CSV": the orders of the current filter and search, for admins. */
export async function GET(request: NextRequest) {
  const ctx = await createTRPCContext({ headers: request.headers, cookies: headerCookieJar(request.headers) });
  return exportOrders(ctx, request.nextUrl.searchParams);
}
