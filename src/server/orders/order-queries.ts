import type { Tx } from "@/server/db/as-caller";
import type { OrderStatus } from "@/server/db/schema";
import { likePattern } from "@/server/catalogue/catalogue-queries";
import type { StoragePort } from "@/server/ports/storage";

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
  items: { name: string; quantity: number; unitPrice: number; productId: string | null }[];
  /** Every status change: who, when, from, to (oldest first). */
  history: { from: OrderStatus | null; to: OrderStatus; by: string | null; at: Date }[];
}

/** Orders the caller may see (RLS: their own; admins all), newest first, with their lines. */
export async function listOrders(
  trx: Tx,
  storage: StoragePort,
  filter: { userId?: string; status?: OrderStatus; search?: string; limit?: number } = {},
): Promise<OrderView[]> {
  let query = trx
    .selectFrom("orders")
    .select(["id", "reference", "customer_name", "customer_email", "total", "status", "created_at", "proof_path"])
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(filter.limit ?? 200);
  if (filter.userId) query = query.where("user_id", "=", filter.userId);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.search) {
    const term = filter.search.toLowerCase();
    query = query.where((eb) =>
      eb.or([eb(eb.fn("lower", ["reference"]), "=", term), eb(eb.fn("lower", ["customer_email"]), "like", likePattern(term))]),
    );
  }
  const orders = await query.execute();
  if (orders.length === 0) return [];
  const items = await trx
    .selectFrom("order_items")
    .select(["order_id", "product_id", "product_name", "unit_price", "quantity"])
    .where(
      "order_id",
      "in",
      orders.map((order) => order.id),
    )
    .orderBy("id")
    .execute();
  const events = await trx
    .selectFrom("order_status_events as e")
    .leftJoin("profiles as p", "p.id", "e.changed_by")
    .select(["e.order_id", "e.from_status", "e.to_status", "e.changed_at", "p.full_name", "p.email"])
    .where(
      "e.order_id",
      "in",
      orders.map((order) => order.id),
    )
    .orderBy("e.changed_at")
    .orderBy("e.id")
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
      items: items
        .filter((item) => item.order_id === order.id)
        .map((item) => ({ name: item.product_name, quantity: item.quantity, unitPrice: Number(item.unit_price), productId: item.product_id })),
      history: events
        .filter((event) => event.order_id === order.id)
        .map((event) => ({ from: event.from_status, to: event.to_status, by: event.full_name || event.email, at: new Date(event.changed_at) })),
    })),
  );
}

/** Sets an order's status (RLS: admins only); the trigger records who, when, from and to. */
export function updateOrderStatus(trx: Tx, id: string, status: OrderStatus) {
  return trx.updateTable("orders").set({ status }).where("id", "=", id).returning(["reference", "status"]).executeTakeFirst();
}
