import { OVERVIEW_CSV_PAGE } from "@/lib/constants";
import { messages, overviewMessages as m } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { csvDate, csvRecord } from "@/server/orders/orders-csv";
import { readOverviewCsvPage, type CsvCursor, type OverviewCsvRow } from "./overview-queries";
import { overviewRangeInput, type OverviewRange } from "./schemas";

export const OVERVIEW_CSV_COLUMNS = ["Date", "Reference", "Customer", "E-mail", "Items", "Status", "Total", "Invoice", "VAT"] as const;

function refusal(status: number, message: string) {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}

function record(row: OverviewCsvRow): string {
  return csvRecord([
    csvDate(row.createdAt),
    row.reference,
    row.customerName,
    row.customerEmail,
    row.items ?? "",
    messages.adminStatus[row.status],
    // Plain decimals as stored, for sums in a spreadsheet.
    row.total,
    row.invoiceNumber ?? "",
    row.vat ?? "",
  ]);
}

/**
 * The overview's CSV (GET /admin/overview/export?from=…&to=…): every order placed in the range,
 * oldest first, with its invoice's number and VAT, for the bookkeeper. Streamed: each page of
 * OVERVIEW_CSV_PAGE orders is read in its own short transaction when the client is ready for
 * more (keyset paging), so memory stays flat whatever the range and no transaction (PGlite's
 * one connection) is held open for the length of the download. Admins only; read as the caller.
 */
export function exportOverviewCsv(ctx: Pick<TRPCContext, "db" | "user">, params: URLSearchParams, pageSize = OVERVIEW_CSV_PAGE): Response {
  if (ctx.user?.role !== "admin") return refusal(403, messages.adminOrders.exportAdminsOnly);
  const parsed = overviewRangeInput.safeParse({ from: params.get("from") ?? "", to: params.get("to") ?? "" });
  if (!parsed.success) return refusal(400, m.rangeInvalid);
  const range: OverviewRange = parsed.data;
  const encoder = new TextEncoder();
  let cursor: CsvCursor | null = null;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // Byte-order mark (Excel reads UTF-8 by it) and the header.
        controller.enqueue(encoder.encode(`\uFEFF${csvRecord(OVERVIEW_CSV_COLUMNS)}\r\n`));
        return;
      }
      const page = await ctx.db.transaction((trx) => readOverviewCsvPage(trx, range, cursor, pageSize));
      if (page.length > 0) {
        controller.enqueue(encoder.encode(page.map((row) => `${record(row)}\r\n`).join("")));
        const last = page.at(-1)!;
        cursor = { createdAt: last.createdAt, id: last.id };
      }
      if (page.length < pageSize) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="sales-${range.from}-to-${range.to}.csv"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
