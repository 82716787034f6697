import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { exportOrderRows } from "./order-queries";
import { ordersCsv, ordersCsvFileName } from "./orders-csv";
import { orderFilterInput } from "./schemas";

const m = messages.adminOrders;

function refusal(status: number, message: string) {
  return new Response(message, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

/**
 * The CSV download of Order Management (GET /admin/orders/export?status=…&q=…): the orders of
 * the page's filter and search, every page of them, for the bookkeeper. Admins only (403
 * otherwise); read as the caller, so row-level security decides again. The file is built whole:
 * a shop's orders run to a few megabytes at most, and a stream would hold the database's
 * transaction (PGlite's only connection) open for as long as the download takes.
 */
export async function exportOrders(ctx: Pick<TRPCContext, "db" | "user" | "settings">, params: URLSearchParams, now = new Date()): Promise<Response> {
  if (ctx.user?.role !== "admin") return refusal(403, m.exportAdminsOnly);
  const parsed = orderFilterInput.safeParse({ status: params.get("status") || undefined, search: params.get("q") || undefined, day: params.get("day") || undefined });
  if (!parsed.success) return refusal(400, m.exportBadFilter);
  const filter = { status: parsed.data.status, search: parsed.data.search || undefined, day: parsed.data.day };
  const rows = await ctx.db.transaction((trx) => exportOrderRows(trx, filter));
  return new Response(ordersCsv(rows), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${ordersCsvFileName(now)}"`,
      // Customers' names and e-mails: never kept by a browser or proxy cache.
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
