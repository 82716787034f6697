import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import type { OverviewRange } from "./schemas";

/** Revenue (rands as text, "1499.50") and paid orders of a period; deliveryFees: the part of revenue that was delivery fees. */
export interface PeriodFigures {
  revenue: string;
  orders: number;
  deliveryFees: string;
}

export interface SalesSummary {
  /** Today's South African date. */
  today: string;
  weekStart: string;
  periods: Record<"today" | "yesterday" | "thisWeek" | "lastWeek", PeriodFigures>;
  /** Orders still pending payment: how many, their value, when the oldest was placed (null: none). */
  /** Orders pending payment and balances after a deposit still due (docs/bookings.md); `balances` counts the latter. */
  outstanding: { orders: number; value: string; oldest: string | null; balances: number; balancesValue: string };
}

export interface SalesRange {
  from: string;
  to: string;
  revenue: string;
  orders: number;
  /** The part of revenue that was delivery fees (counted apart from goods: in no product nor business line). */
  deliveryFees: string;
  days: { day: string; revenue: string; orders: number }[];
  topProducts: { name: string; revenue: string; units: number }[];
  /** Per business line; `name` null for lines of products deleted since. */
  categories: { name: string | null; revenue: string }[];
}

/** public.sales_summary(): admins only (the function checks). */
export async function readSalesSummary(trx: Tx, now: Date): Promise<SalesSummary> {
  const { rows } = await sql<{ summary: SalesSummary }>`select public.sales_summary(${now.toISOString()}::timestamptz) as summary`.execute(trx);
  return rows[0]!.summary;
}

/** public.sales_range(): admins only (the function checks). */
export async function readSalesRange(trx: Tx, range: OverviewRange): Promise<SalesRange> {
  const { rows } = await sql<{ range: SalesRange }>`select public.sales_range(${range.from}::date, ${range.to}::date) as range`.execute(trx);
  return rows[0]!.range;
}

export interface OverviewCsvRow {
  id: string;
  reference: string;
  createdAt: Date;
  customerName: string;
  customerEmail: string;
  status: OrderStatus;
  total: string;
  items: string | null;
  invoiceNumber: string | null;
  vat: string | null;
}

/** Where the previous page of the CSV ended (keyset: created_at, id). */
export interface CsvCursor {
  createdAt: Date;
  id: string;
}

/**
 * One page of every order placed in the range (South African days), oldest first, after
 * `cursor`: what the bookkeeper's CSV holds, with the latest invoice's number and VAT. Read as
 * the caller (RLS: admins see every order), one short transaction per page.
 */
export async function readOverviewCsvPage(trx: Tx, range: OverviewRange, cursor: CsvCursor | null, limit: number): Promise<OverviewCsvRow[]> {
  const after = cursor ? sql`and (o.created_at, o.id) > (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const { rows } = await sql<OverviewCsvRow>`
    select o.id, o.reference, o.created_at as "createdAt", o.customer_name as "customerName", o.customer_email as "customerEmail",
           o.status, o.total,
           (select string_agg(i.quantity || ' × ' || i.product_name, '; ' order by i.id) from public.order_items i where i.order_id = o.id) as items,
           inv.number as "invoiceNumber", inv.vat
    from public.orders o
    left join lateral (
      select v.number, v.vat from public.invoices v where v.order_id = o.id and v.kind = 'invoice' order by v.serial desc limit 1
    ) inv on true
    where o.created_at >= (${range.from}::date)::timestamp at time zone 'Africa/Johannesburg'
      and o.created_at < (${range.to}::date + 1)::timestamp at time zone 'Africa/Johannesburg'
      ${after}
    order by o.created_at, o.id
    limit ${limit}`.execute(trx);
  return rows;
}

/** Quotes in a range of South African days (docs/quotes.md): versions sent and accepted in it, and their value. */
export interface QuoteFiguresRow {
  sent: number;
  sentValue: number;
  accepted: number;
  acceptedValue: number;
}

/**
 * The quote versions sent, and those accepted, within the range (by when each happened), with
 * their totals. Read as the caller (RLS: admins see every version).
 */
export async function readQuoteFigures(trx: Tx, range: OverviewRange): Promise<QuoteFiguresRow> {
  const { rows } = await sql<{ sent: string; sent_value: string; accepted: string; accepted_value: string }>`
    select count(*) filter (where (q.sent_at at time zone 'Africa/Johannesburg')::date between ${range.from}::date and ${range.to}::date) as sent,
           coalesce(sum(q.total) filter (where (q.sent_at at time zone 'Africa/Johannesburg')::date between ${range.from}::date and ${range.to}::date), 0) as sent_value,
           count(*) filter (where q.status = 'accepted' and (q.decided_at at time zone 'Africa/Johannesburg')::date between ${range.from}::date and ${range.to}::date) as accepted,
           coalesce(sum(q.total) filter (where q.status = 'accepted' and (q.decided_at at time zone 'Africa/Johannesburg')::date between ${range.from}::date and ${range.to}::date), 0) as accepted_value
    from public.quotes q
    where q.status <> 'draft'`.execute(trx);
  const row = rows[0]!;
  return { sent: Number(row.sent), sentValue: Number(row.sent_value), accepted: Number(row.accepted), acceptedValue: Number(row.accepted_value) };
}
