import { SHOP_TIME_ZONE } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { OrderExportRow } from "./order-queries";

/**
 * The bookkeeper's CSV of orders (pure: no database, no clock of its own). RFC 4180: fields
 * separated by commas, records by CRLF, a field holding a comma, a quote or a line break in
 * double quotes with its quotes doubled. UTF-8 with a byte-order mark, which Excel needs to read
 * "×" and names like "Zoë" as UTF-8 rather than the PC's code page.
 */

export const CSV_COLUMNS = ["Reference", "Date", "Customer", "E-mail", "Items", "Total", "Status"] as const;

const BOM = "\uFEFF";
const CRLF = "\r\n";

/**
 * Characters that make a spreadsheet read a cell as a formula (or, for tab and carriage return,
 * that some spreadsheets strip before they look). A customer chooses their own name, so a name
 * like `=HYPERLINK(...)` must reach the bookkeeper as text: such a value is prefixed with `'`,
 * the spreadsheet's own "this is text" mark (OWASP's advice for CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, neutralised against formulas and quoted when it must be. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its fields joined by commas (no line ending). */
export function csvRecord(values: readonly string[]): string {
  return values.map(csvField).join(",");
}

/**
 * One formatter for every date, made once: a new Intl.DateTimeFormat per row (as this was) holds
 * ICU objects in native memory that V8 frees only when it collects the small JS wrapper, which it
 * has no reason to do soon; a CSV of 100,000 orders grew the server's resident memory by about
 * 100 MB that way (BENCHMARKS.md, "The owner's books"), and each construction costs far more than
 * the formatting itself.
 */
const sastFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: SHOP_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** A date's calendar parts in South African time (the business's, whatever the server's zone). */
function sastParts(date: Date): Record<"year" | "month" | "day" | "hour" | "minute", string> {
  const parts = sastFormat.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour"), minute: part("minute") };
}

/** "2026-11-24 14:05", South African time: sorts as text and every spreadsheet reads it as a date. */
export function csvDate(date: Date): string {
  const p = sastParts(date);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The download's name for an export made at `now`: orders-2026-11-24.csv (South African date). */
export function ordersCsvFileName(now: Date): string {
  const p = sastParts(now);
  return `orders-${p.year}-${p.month}-${p.day}.csv`;
}

/** "2 × Chicken pie; 1 × Noodles". */
export function itemsText(items: OrderExportRow["items"]): string {
  return items.map((item) => `${item.quantity} × ${item.name}`).join("; ");
}

/** The whole file: byte-order mark, a header record, one record per order, each ended by CRLF. */
export function ordersCsv(orders: readonly OrderExportRow[]): string {
  const records = [
    csvRecord(CSV_COLUMNS),
    ...orders.map((order) =>
      csvRecord([
        order.reference,
        csvDate(order.createdAt),
        order.customerName,
        order.customerEmail,
        itemsText(order.items),
        // Plain decimals as stored (149.50): no "R", no thousands separator, for sums in a spreadsheet.
        order.total,
        messages.adminStatus[order.status],
      ]),
    ),
  ];
  return BOM + records.map((record) => record + CRLF).join("");
}
