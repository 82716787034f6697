import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Tx } from "@/server/db/as-caller";
import type { DB, FulfilmentMethod, Order, OrderStatus, PaymentMethod, PaymentOutcome } from "@/server/db/schema";
import { likePattern } from "@/server/catalogue/catalogue-queries";
import type { StoragePort } from "@/server/ports/storage";
import { showPersonalisation, type PersonalisationShown } from "@/server/cart/cart-queries";
import { ORDERS_PAGE_SIZE } from "./schemas";

export interface OrderView {
  id: string;
  reference: string;
  customerName: string;
  customerEmail: string;
  total: number;
  status: OrderStatus;
  createdAt: Date;
  proofUrl: string | null;
  /** Proofs are images or PDF (judged by content at upload; stored with the matching extension). */
  proofKind: "image" | "pdf" | null;
  /** For a PDF proof: its first page as an image, where storage can draw one. */
  proofPreviewUrl: string | null;
  /** slotStartsAt: a bookable service's booked time (docs/bookings.md); null for goods. */
  items: {
    name: string;
    quantity: number;
    unitPrice: number;
    productId: string | null;
    personalisation: PersonalisationShown[];
    slotStartsAt: Date | null;
    /** The line's booking while it stands (moved from the order page); null otherwise. */
    bookingId: string | null;
    /** A booked line cancelled on its own while the order goes on, and the deposit the shop kept for it (docs/bookings.md). */
    cancelled: boolean;
    kept: number;
  }[];
  /** How the order is (to be) paid: bank transfer with a proof, or online ("Pay now"). */
  paymentMethod: PaymentMethod;
  /** The number of the quote it was accepted from (docs/quotes.md); null for a checkout's order. */
  quoteNumber: string | null;
  /** The customer's purchase-order number, given when accepting a quote. */
  purchaseOrder: string | null;
  /**
   * The online payments recorded for it (docs/architecture.md#payments), oldest first: normally one, which paid
   * it; `refund_due` when one arrived after the order was cancelled or paid already.
   */
  payments: { provider: string; providerPaymentId: string; amount: number; outcome: PaymentOutcome; receivedAt: Date; balance: boolean }[];
  /**
   * An order with booked lines asking a deposit (docs/bookings.md): what checkout asked (the
   * deposit; 0 when nothing was due then), the balance due later under its own reference, and
   * whether it is paid; null when the whole total was due at checkout.
   */
  balance: BalanceView | null;
  /**
   * How and when it reaches the customer (docs/architecture.md#delivery-and-collection); null for an order placed while the
   * shop asked none. `day` is YYYY-MM-DD (South African time); the fee is also one of `items`.
   */
  fulfilment: { method: FulfilmentMethod; day: string; address: string | null; area: string | null; fee: number } | null;
  /**
   * Every status change: who, when, from, to (oldest first). `reason` is set when the shop itself
   * made the change (then `by` is null), e.g. "not paid within 7 days".
   */
  history: { from: OrderStatus | null; to: OrderStatus; by: string | null; at: Date; reason: string | null }[];
}

/** An order's balance after its deposit, as the order page and Order Management show it. */
export interface BalanceView {
  deposit: number;
  amount: number;
  reference: string;
  paidAt: Date | null;
  paymentMethod: PaymentMethod | null;
  proofUrl: string | null;
  proofKind: "image" | "pdf" | null;
}

/** Which orders Order Management shows: one status or all, and a search. */
export interface OrderFilter {
  status?: OrderStatus;
  /** A reference (exact, any case), or part of a customer's e-mail or name (any case). */
  search?: string;
  /** The delivery or collection day (YYYY-MM-DD): "what do we deliver tomorrow?". */
  day?: string;
}

/** The `where` of a filter. LIKE's wildcards in a search are escaped: `%` finds a percent sign. */
function matching(filter: OrderFilter) {
  return (eb: ExpressionBuilder<DB, "orders">): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.status) conditions.push(eb("status", "=", filter.status));
    if (filter.day) conditions.push(eb("fulfilment_day", "=", filter.day));
    const term = filter.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      conditions.push(
        eb.or([
          // References are stored upper case (ORD-123): equality uses their unique index.
          eb("reference", "=", term.toUpperCase()),
          eb("customer_email", "ilike", pattern),
          eb("customer_name", "ilike", pattern),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

const ORDER_COLUMNS = [
  "id",
  "reference",
  "customer_name",
  "customer_email",
  "total",
  "status",
  "created_at",
  "proof_path",
  "payment_method",
  "fulfilment_method",
  "delivery_address",
  "delivery_area_name",
  "delivery_fee",
  "deposit",
  "balance_reference",
  "balance_proof_path",
  "balance_payment_method",
  "balance_paid_at",
  "purchase_order",
] as const;

type OrderRow = Pick<Order, (typeof ORDER_COLUMNS)[number]> & { fulfilment_day_text: string | null; balance_amount: string | null; quote_number: string | null };

/** The orders the caller may see (RLS: their own; admins all) that match `filter`, newest first by (created_at, id). */
function newestOrders(trx: Tx, filter: OrderFilter) {
  return trx
    .selectFrom("orders")
    .select(ORDER_COLUMNS)
    // Days as text: a Date would shift with the server's time zone.
    .select(sql<string | null>`fulfilment_day::text`.as("fulfilment_day_text"))
    .select(sql<string | null>`total - deposit`.as("balance_amount"))
    // The quote it was accepted from (docs/quotes.md): "from quote Q-000012".
    .select(sql<string | null>`(select r.number from public.quotes q join public.quote_requests r on r.id = q.request_id where q.id = orders.quote_id)`.as("quote_number"))
    .where(matching(filter)).orderBy("created_at", "desc").orderBy("id", "desc");
}

/** Orders the caller may see (RLS: their own; admins all), newest first, with their lines: purchase history. */
export async function listOrders(
  trx: Tx,
  storage: StoragePort,
  filter: OrderFilter & { userId?: string; limit?: number } = {},
): Promise<OrderView[]> {
  let query = newestOrders(trx, filter).limit(filter.limit ?? 200);
  if (filter.userId) query = query.where("user_id", "=", filter.userId);
  return withDetails(trx, storage, await query.execute());
}

/** One order the caller may see (RLS: their own; admins any) by its reference, with its details; undefined otherwise. */
export async function findOrderByReference(trx: Tx, storage: StoragePort, reference: string): Promise<OrderView | undefined> {
  const rows = await newestOrders(trx, {}).where("reference", "=", reference).limit(1).execute();
  return (await withDetails(trx, storage, rows))[0];
}

/** The reference of the newest order the caller placed (RLS: their own), if any. */
export async function latestOrderReference(trx: Tx, userId: string): Promise<string | null> {
  const row = await trx.selectFrom("orders").select("reference").where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
  return row?.reference ?? null;
}

/** One page of orders and the cursor of the next (null after the last page). */
export interface OrderPage {
  orders: OrderView[];
  nextCursor: string | null;
}

/**
 * One page of the orders the caller may see (RLS: admins all), newest first by (created_at, id),
 * starting after the order `cursor` names (keyset paging: no order is skipped or repeated when
 * timestamps are equal, and page 500 costs what page 1 does). An unknown cursor gives an empty page.
 */
export async function listOrderPage(
  trx: Tx,
  storage: StoragePort,
  filter: OrderFilter & { cursor?: string | null; limit?: number },
): Promise<OrderPage> {
  const limit = filter.limit ?? ORDERS_PAGE_SIZE;
  // One more than a page: whether it comes back says whether there is a next page.
  let query = newestOrders(trx, filter).limit(limit + 1);
  const cursor = filter.cursor;
  if (cursor) {
    // The cursor's own timestamp, read from the row: a timestamp carried through JavaScript would
    // lose its microseconds and skip or repeat orders placed within the same millisecond.
    // Postgres runs the sub-select once and walks orders_created_id_idx from that row on.
    query = query.where((eb) =>
      eb(
        eb.refTuple("created_at", "id"),
        "<",
        eb.selectFrom("orders as after").select(["after.created_at", "after.id"]).where("after.id", "=", cursor).$asTuple("created_at", "id"),
      ),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  return { orders: await withDetails(trx, storage, page), nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}

/** What an admin's notice of a new order says: "New order ORD-123 from Thandi Nkosi — R250". */
export interface OrderNotice {
  id: string;
  reference: string;
  customerName: string;
  total: number;
  /** Its first booking, for an order that books a service: "New booking: Office clean on …". */
  booking: { service: string; startsAt: Date } | null;
}

/** One order's notice, if the caller may see it (RLS: admins all). */
export async function findOrderNotice(trx: Tx, id: string): Promise<OrderNotice | undefined> {
  const row = await trx
    .selectFrom("orders")
    .select(["id", "reference", "customer_name", "total"])
    .select(
      sql<{ service: string; starts_at: string } | null>`(select jsonb_build_object('service', i.product_name, 'starts_at', b.starts_at)
        from public.bookings b join public.order_items i on i.id = b.order_item_id
        where b.order_id = orders.id order by b.starts_at limit 1)`.as("booking"),
    )
    .where("id", "=", id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      reference: row.reference,
      customerName: row.customer_name,
      total: Number(row.total),
      booking: row.booking ? { service: row.booking.service, startsAt: new Date(row.booking.starts_at) } : null,
    }
  );
}

/** How many orders each tab of Order Management holds, for a search. */
export type OrderCounts = Record<OrderStatus | "all", number>;

/** The orders the caller may see (RLS: admins all) matching `search`, counted per status in one query. */
export async function countOrders(trx: Tx, filter: Pick<OrderFilter, "search" | "day">): Promise<OrderCounts> {
  const row = await trx
    .selectFrom("orders")
    .where(matching(filter))
    .select((eb) => [
      eb.fn.countAll<string | number>().as("all"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "pending_payment").as("pending_payment"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "pending_delivery").as("pending_delivery"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "complete").as("complete"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "cancelled").as("cancelled"),
    ])
    .executeTakeFirstOrThrow();
  return {
    all: Number(row.all),
    pending_payment: Number(row.pending_payment),
    pending_delivery: Number(row.pending_delivery),
    complete: Number(row.complete),
    cancelled: Number(row.cancelled),
  };
}

/** An order as the bookkeeper's export lists it: totals as exact decimals, lines as quantity and name. */
export interface OrderExportRow {
  reference: string;
  createdAt: Date;
  customerName: string;
  customerEmail: string;
  /** In rands, as stored: "149.50". */
  total: string;
  status: OrderStatus;
  items: { quantity: number; name: string }[];
}

/**
 * Every order the caller may see (RLS: admins all) matching `filter`, newest first, with its
 * lines, in one query: the CSV export (no proof URLs or history, which it does not show).
 */
export async function exportOrderRows(trx: Tx, filter: OrderFilter): Promise<OrderExportRow[]> {
  const rows = await trx
    .selectFrom("orders")
    .select((eb) => [
      "reference",
      "created_at",
      "customer_name",
      "customer_email",
      "total",
      "status",
      // Lines by name: the same order every time the file is made.
      jsonArrayFrom(
        eb
          .selectFrom("order_items")
          .select(["order_items.quantity", "order_items.product_name"])
          .whereRef("order_items.order_id", "=", "orders.id")
          .orderBy("order_items.product_name")
          .orderBy("order_items.id"),
      ).as("items"),
    ])
    .where(matching(filter))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    reference: row.reference,
    createdAt: new Date(row.created_at),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    total: row.total,
    status: row.status,
    items: row.items.map((item) => ({ quantity: item.quantity, name: item.product_name })),
  }));
}

/** The lines, a proof URL, the online payments and the status history of each order, in three queries for the lot. */
async function withDetails(trx: Tx, storage: StoragePort, orders: OrderRow[]): Promise<OrderView[]> {
  if (orders.length === 0) return [];
  const ids = orders.map((order) => order.id);
  const items = await trx
    .selectFrom("order_items")
    .select([
      "order_id",
      "product_id",
      "product_name",
      "unit_price",
      "quantity",
      "personalisation",
      "slot_starts_at",
      "cancelled_at",
      "kept",
      sql<string | null>`(select b.id from public.bookings b where b.order_item_id = order_items.id and b.status = 'booked')`.as("booking_id"),
    ])
    .where("order_id", "in", ids)
    .orderBy("id")
    .execute();
  const events = await trx
    .selectFrom("order_status_events as e")
    .leftJoin("profiles as p", "p.id", "e.changed_by")
    .select(["e.order_id", "e.from_status", "e.to_status", "e.changed_at", "e.reason", "p.full_name", "p.email"])
    .where("e.order_id", "in", ids)
    .orderBy("e.changed_at")
    .orderBy("e.id")
    .execute();
  // For every order, not only those placed with "Pay now": a customer who switched to bank
  // transfer may still have paid online, a payment the admins must see to refund.
  const payments = await trx
    .selectFrom("payments")
    .select(["order_id", "provider", "provider_payment_id", "amount", "outcome", "received_at", "part"])
    .where("order_id", "in", ids)
    .orderBy("received_at")
    .execute();
  return Promise.all(
    orders.map(async (order) => ({
      id: order.id,
      reference: order.reference,
      customerName: order.customer_name,
      customerEmail: order.customer_email,
      total: Number(order.total),
      status: order.status,
      createdAt: new Date(order.created_at),
      proofUrl: order.proof_path ? await storage.privateUrl({ bucket: "payments", path: order.proof_path }) : null,
      proofKind: order.proof_path ? (order.proof_path.toLowerCase().endsWith(".pdf") ? ("pdf" as const) : ("image" as const)) : null,
      proofPreviewUrl: order.proof_path?.toLowerCase().endsWith(".pdf") ? await storage.previewUrl({ bucket: "payments", path: order.proof_path }) : null,
      items: await Promise.all(
        items
          .filter((item) => item.order_id === order.id)
          .map(async (item) => ({
            name: item.product_name,
            quantity: item.quantity,
            unitPrice: Number(item.unit_price),
            productId: item.product_id,
            personalisation: await showPersonalisation(storage, item.personalisation),
            slotStartsAt: item.slot_starts_at === null ? null : new Date(item.slot_starts_at),
            bookingId: item.booking_id,
            cancelled: item.cancelled_at !== null,
            kept: Number(item.kept),
          })),
      ),
      paymentMethod: order.payment_method,
      quoteNumber: order.quote_number,
      purchaseOrder: order.purchase_order,
      fulfilment:
        order.fulfilment_method && order.fulfilment_day_text
          ? {
              method: order.fulfilment_method,
              day: order.fulfilment_day_text,
              address: order.delivery_address,
              area: order.delivery_area_name,
              fee: Number(order.delivery_fee),
            }
          : null,
      payments: payments
        .filter((payment) => payment.order_id === order.id)
        .map((payment) => ({
          provider: payment.provider === "payfast" ? "PayFast" : payment.provider,
          providerPaymentId: payment.provider_payment_id,
          amount: Number(payment.amount),
          outcome: payment.outcome,
          receivedAt: new Date(payment.received_at),
          balance: payment.part === "balance",
        })),
      balance: await balanceOf(storage, order),
      history: events
        .filter((event) => event.order_id === order.id)
        .map((event) => ({
          from: event.from_status,
          to: event.to_status,
          by: event.full_name || event.email,
          at: new Date(event.changed_at),
          reason: event.reason,
        })),
    })),
  );
}

/** An order's balance (null without a deposit); the amount as SQL keeps it (total less deposit). */
async function balanceOf(storage: StoragePort, order: OrderRow): Promise<BalanceView | null> {
  if (order.deposit === null || order.balance_reference === null || order.balance_amount === null) return null;
  const proof = order.balance_proof_path;
  return {
    deposit: Number(order.deposit),
    amount: Number(order.balance_amount),
    reference: order.balance_reference,
    paidAt: order.balance_paid_at === null ? null : new Date(order.balance_paid_at),
    paymentMethod: order.balance_payment_method,
    proofUrl: proof ? await storage.privateUrl({ bucket: "payments", path: proof }) : null,
    proofKind: proof ? (proof.toLowerCase().endsWith(".pdf") ? "pdf" : "image") : null,
  };
}

/** Sets an order's status (RLS: admins only); the trigger records who, when, from and to. */
export function updateOrderStatus(trx: Tx, id: string, status: OrderStatus) {
  return trx.updateTable("orders").set({ status }).where("id", "=", id).returning(["reference", "status"]).executeTakeFirst();
}

/**
 * Cancels the orders still `pending_payment` more than `days` days after they were placed, and
 * says how many. public.cancel_unpaid_orders() does the work and records "not paid within N
 * days" in each order's history; run as an admin (RLS: anyone else is refused) or on the
 * server's own connection.
 */
export async function cancelUnpaidOrders(db: Tx | Kysely<DB>, days: number): Promise<number> {
  const { rows } = await sql<{ cancelled: number }>`select public.cancel_unpaid_orders(${days}::integer) as cancelled`.execute(db);
  return Number(rows[0]?.cancelled ?? 0);
}
