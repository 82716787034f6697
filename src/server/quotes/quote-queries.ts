import { sql } from "kysely";
import type { QuoteState } from "@/lib/statuses";
import type { Tx } from "@/server/db/as-caller";
import type { Order } from "@/server/db/schema";
import type { FulfilmentChoice } from "@/server/fulfilment/schemas";
import type { QuoteLineInput, RequestQuoteInput, SaveQuoteDraftInput } from "./schemas";

/** One request as a list shows it: the latest version the caller may see (customers: sent ones). */
export interface QuoteRequestSummary {
  id: string;
  number: string | null;
  customerName: string;
  customerEmail: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  /** "requested" while no version is visible; else the latest visible version's state. */
  state: QuoteState | "requested";
  version: number | null;
  total: number | null;
  validUntil: string | null;
  /** The customer asked for a change no version sent since has answered. */
  changeAsked: boolean;
}

interface SummaryRow {
  id: string;
  number: string | null;
  customer_name: string;
  customer_email: string;
  description: string;
  created_at: Date;
  updated_at: Date;
  state: QuoteState | null;
  version: number | null;
  total: string | null;
  valid_until: string | null;
  change_asked_at: Date | null;
}

const toSummary = (row: SummaryRow): QuoteRequestSummary => ({
  id: row.id,
  number: row.number,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  description: row.description,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  state: row.state ?? "requested",
  version: row.version,
  total: row.total === null ? null : Number(row.total),
  validUntil: row.valid_until,
  changeAsked: row.change_asked_at !== null,
});

/**
 * The requests the caller may read (RLS: a customer's own, every one for admins), latest change
 * first; only `userId`'s when given (an admin's own profile lists their own, not the inbox).
 */
export async function listQuoteRequests(trx: Tx, filter: { userId?: string; limit: number }): Promise<QuoteRequestSummary[]> {
  const { rows } = await sql<SummaryRow>`
    select r.id, r.number, r.customer_name, r.customer_email, r.description, r.created_at, r.updated_at, r.change_asked_at,
           public.quote_state(q.status, q.valid_until) as state, q.version, q.total, q.valid_until::text as valid_until
    from public.quote_requests r
    left join lateral (
      select q.status, q.valid_until, q.version, q.total from public.quotes q
      where q.request_id = r.id order by q.version desc limit 1
    ) q on true
    where ${filter.userId ?? null}::uuid is null or r.user_id = ${filter.userId ?? null}::uuid
    order by r.updated_at desc, r.id desc
    limit ${filter.limit}`.execute(trx);
  return rows.map(toSummary);
}

/** A version with its lines, as the quote page and the builder show it. */
export interface QuoteVersionView {
  id: string;
  version: number;
  state: QuoteState;
  validUntil: string;
  terms: string;
  note: string;
  total: number;
  sentAt: Date | null;
  decidedAt: Date | null;
  declineReason: string | null;
  purchaseOrder: string | null;
  lines: { isCustom: boolean; productId: string | null; variantId: string | null; description: string; quantity: number; unitPrice: number }[];
}

/** One request in full, as the caller may read it (RLS: customers never see drafts); null when none. */
export async function findQuoteRequest(trx: Tx, requestId: string) {
  const request = await trx
    .selectFrom("quote_requests")
    .select(["id", "number", "customer_name", "customer_email", "description", "items", "company_name", "vat_number", "created_at", "change_asked_at"])
    .select(sql<string | null>`preferred_date::text`.as("preferred_date"))
    .where("id", "=", requestId)
    .executeTakeFirst();
  if (!request) return null;
  const { rows: versions } = await sql<{
    id: string;
    version: number;
    state: QuoteState;
    valid_until: string;
    terms: string;
    note: string;
    total: string;
    sent_at: Date | null;
    decided_at: Date | null;
    decline_reason: string | null;
    purchase_order: string | null;
  }>`
    select q.id, q.version, public.quote_state(q.status, q.valid_until) as state, q.valid_until::text as valid_until, q.terms, q.note,
           q.total, q.sent_at, q.decided_at, q.decline_reason, q.purchase_order
    from public.quotes q where q.request_id = ${requestId}::uuid order by q.version desc`.execute(trx);
  const lines = versions.length
    ? await trx
        .selectFrom("quote_lines")
        .select(["quote_id", "is_custom", "product_id", "variant_id", "description", "quantity", "unit_price"])
        .where("quote_id", "in", versions.map((v) => v.id))
        .orderBy("position")
        .execute()
    : [];
  const files = await trx.selectFrom("quote_files").select(["path", "file_name"]).where("request_id", "=", requestId).orderBy("created_at").execute();
  const conversation = await trx
    .selectFrom("quote_messages")
    .select(["kind", "body", "from_customer", "created_at", "quote_id"])
    .where("request_id", "=", requestId)
    .orderBy("created_at")
    .execute();
  const accepted = versions.find((v) => v.state === "accepted");
  const order = accepted ? await trx.selectFrom("orders").select("reference").where("quote_id", "=", accepted.id).executeTakeFirst() : undefined;
  return {
    id: request.id,
    number: request.number,
    customerName: request.customer_name,
    customerEmail: request.customer_email,
    description: request.description,
    items: request.items,
    preferredDate: request.preferred_date,
    company: request.company_name,
    vatNumber: request.vat_number,
    createdAt: request.created_at,
    changeAsked: request.change_asked_at !== null,
    files: files.map((file) => ({ path: file.path, fileName: file.file_name })),
    messages: conversation.map((message) => ({
      kind: message.kind,
      body: message.body,
      fromCustomer: message.from_customer,
      at: message.created_at,
      quoteId: message.quote_id,
    })),
    versions: versions.map(
      (v): QuoteVersionView => ({
        id: v.id,
        version: v.version,
        state: v.state,
        validUntil: v.valid_until,
        terms: v.terms,
        note: v.note,
        total: Number(v.total),
        sentAt: v.sent_at,
        decidedAt: v.decided_at,
        declineReason: v.decline_reason,
        purchaseOrder: v.purchase_order,
        lines: lines
          .filter((line) => line.quote_id === v.id)
          .map((line) => ({
            isCustom: line.is_custom,
            productId: line.product_id,
            variantId: line.variant_id,
            description: line.description,
            quantity: line.quantity,
            unitPrice: Number(line.unit_price),
          })),
      }),
    ),
    /** The order an accepted version made (RLS: the caller's own, or any for admins). */
    orderReference: order?.reference ?? null,
  };
}
export type QuoteRequestView = NonNullable<Awaited<ReturnType<typeof findQuoteRequest>>>;

/** Calls request_quote() as the caller: the request's id. */
export async function insertQuoteRequest(trx: Tx, input: RequestQuoteInput): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    select public.request_quote(${input.description}, ${JSON.stringify(input.items)}::jsonb, ${input.preferredDate}::date,
                                ${input.company}, ${input.vatNumber}, ${JSON.stringify(input.files)}::jsonb) as id`.execute(trx);
  return rows[0]!.id;
}

/** A draft's lines as save_quote_draft() reads them. */
function linesJson(lines: QuoteLineInput[]): string {
  return JSON.stringify(
    lines.map((line) =>
      line.kind === "catalogue"
        ? { variantId: line.variantId, quantity: line.quantity, unitPrice: line.unitPrice }
        : { description: line.description, quantity: line.quantity, unitPrice: line.unitPrice },
    ),
  );
}

/** Calls save_quote_draft() as the caller (admins): the draft's id. */
export async function saveQuoteDraftRow(trx: Tx, input: SaveQuoteDraftInput): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    select public.save_quote_draft(${input.requestId}::uuid, ${input.validUntil}::date, ${input.terms}, ${input.note},
                                   ${linesJson(input.lines)}::jsonb) as id`.execute(trx);
  return rows[0]!.id;
}

/** Calls send_quote() as the caller (admins): the version sent and its request's number. */
export async function sendQuoteRow(trx: Tx, quoteId: string): Promise<{ id: string; number: string }> {
  const { rows } = await sql<{ id: string; request_id: string }>`select id, request_id from public.send_quote(${quoteId}::uuid)`.execute(trx);
  const sent = rows[0]!;
  const request = await trx.selectFrom("quote_requests").select("number").where("id", "=", sent.request_id).executeTakeFirstOrThrow();
  return { id: sent.id, number: request.number ?? "" };
}

/**
 * Calls accept_quote() as the caller, with the delivery or collection choice (place_order's
 * shape, or null where none is asked) and a time per booked line: the order (the one an earlier
 * acceptance made, on a retry).
 */
export async function acceptQuoteRow(
  trx: Tx,
  args: { quoteId: string; purchaseOrder: string; fulfilment: FulfilmentChoice | null; slots: { lineId: string; startsAt: string }[] },
): Promise<Order> {
  const fulfilment = args.fulfilment ? JSON.stringify(args.fulfilment) : null;
  const { rows } = await sql<Order>`
    select * from public.accept_quote(${args.quoteId}::uuid, ${args.purchaseOrder}, ${fulfilment}::jsonb, ${JSON.stringify(args.slots)}::jsonb)`.execute(trx);
  return rows[0]!;
}

/** What accepting the caller's own sent version asks (quote_fulfilment_offer()); undefined for anyone else's. */
export async function quoteFulfilmentOffer(trx: Tx, quoteId: string): Promise<{ asks: boolean; deliveryQuoted: boolean; days: string[] } | undefined> {
  const { rows } = await sql<{ asks: boolean; delivery_quoted: boolean; days: string[] }>`
    select asks, delivery_quoted, days::text[] as days from public.quote_fulfilment_offer(${quoteId}::uuid)`.execute(trx);
  const row = rows[0];
  return row ? { asks: row.asks, deliveryQuoted: row.delivery_quoted, days: row.days } : undefined;
}

/**
 * What accepting the version asks now when its booked lines ask a deposit below their price
 * (as accept_quote and checkout compute it: each such line's booking_deposit(), every other line
 * in full), and the balance; null while the whole total is due now. The delivery fee comes on top.
 */
export async function quoteDeposit(trx: Tx, quoteId: string): Promise<{ dueNow: number; later: number } | null> {
  const { rows } = await sql<{ total: string | null; due_now: string | null }>`
    select sum(t.amount) as total, case when bool_or(t.deposit is not null) then sum(coalesce(t.deposit, t.amount)) end as due_now
    from (
      select l.unit_price * l.quantity as amount,
             case when b.product_id is not null then public.booking_deposit(l.product_id, l.unit_price * l.quantity) end as deposit
      from public.quote_lines l
      left join public.bookable_services b on b.product_id = l.product_id
      where l.quote_id = ${quoteId}::uuid
    ) t`.execute(trx);
  const row = rows[0];
  if (!row?.total || row.due_now === null || Number(row.due_now) >= Number(row.total)) return null;
  return { dueNow: Number(row.due_now), later: Number(row.total) - Number(row.due_now) };
}

/** A version's lines of bookable services, each of which accepting books a time for (RLS: the caller's own version). */
export async function bookableQuoteLines(trx: Tx, quoteId: string): Promise<{ lineId: string; productId: string; name: string }[]> {
  const rows = await trx
    .selectFrom("quote_lines as l")
    .innerJoin("bookable_services as b", "b.product_id", "l.product_id")
    .select(["l.id", "b.product_id", "l.description"])
    .where("l.quote_id", "=", quoteId)
    .orderBy("l.position")
    .execute();
  return rows.map((row) => ({ lineId: row.id, productId: row.product_id, name: row.description }));
}

/** Calls decline_quote() as the caller. */
export async function declineQuoteRow(trx: Tx, args: { quoteId: string; reason: string }): Promise<void> {
  await sql`select public.decline_quote(${args.quoteId}::uuid, ${args.reason})`.execute(trx);
}

/** Calls ask_quote_change() as the caller. */
export async function askQuoteChangeRow(trx: Tx, args: { quoteId: string; message: string }): Promise<void> {
  await sql`select public.ask_quote_change(${args.quoteId}::uuid, ${args.message})`.execute(trx);
}

/** A variant the builder can quote: its line name and list price. */
export interface QuotableVariant {
  variantId: string;
  name: string;
  listPrice: number;
}

/** Every variant of every product (available or not: a quote may sell what the shop does not list), by name. */
export async function listQuotableVariants(trx: Tx): Promise<QuotableVariant[]> {
  const { rows } = await sql<{ id: string; name: string; price: string }>`
    select v.id, public.variant_line_name(p.name, v.option_values) as name, coalesce(v.price, p.price) as price
    from public.product_variants v join public.products p on p.id = v.product_id
    order by p.name, v.position, v.id`.execute(trx);
  return rows.map((row) => ({ variantId: row.id, name: row.name, listPrice: Number(row.price) }));
}

/** A sent version as its PDF prints it (RLS: the customer's own, or any for admins); undefined for a draft or someone else's. */
export async function findQuoteForPrint(trx: Tx, quoteId: string) {
  const quote = await trx
    .selectFrom("quotes as q")
    .innerJoin("quote_requests as r", "r.id", "q.request_id")
    .select(["q.id", "q.version", "q.sent_at", "q.total", "q.terms", "q.note", "r.number", "r.customer_name", "r.customer_email", "r.company_name", "r.vat_number"])
    .select(sql<string>`q.valid_until::text`.as("valid_until"))
    .where("q.id", "=", quoteId)
    .where("q.status", "<>", "draft")
    .executeTakeFirst();
  if (!quote || !quote.number || !quote.sent_at) return undefined;
  const lines = await trx.selectFrom("quote_lines").select(["description", "quantity", "unit_price"]).where("quote_id", "=", quoteId).orderBy("position").execute();
  return { ...quote, number: quote.number, sentAt: quote.sent_at, lines };
}
