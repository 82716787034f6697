import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";

/**
 * What the shop holds about the caller, read as the caller (RLS): their profile, their orders
 * with lines (and what they added to them) and status history, their cart, their back-in-stock
 * requests, their messaging consents (live and withdrawn), their quote requests with the versions sent to them, and the files
 * stored in their folders (profile picture, proofs, personalisation and quote files). Used for the POPIA "Download my data" export; nothing here can reach another
 * customer's rows.
 */
export async function readOwnData(trx: Tx, userId: string) {
  const profile = await trx.selectFrom("profiles").select(["full_name", "email", "role", "avatar_path", "created_at"]).where("id", "=", userId).executeTakeFirst();
  const orders = await trx
    .selectFrom("orders")
    .select(["id", "reference", "customer_name", "customer_email", "total", "status", "proof_path", "created_at", "updated_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  const orderIds = orders.map((order) => order.id);
  const items = orderIds.length
    ? await trx.selectFrom("order_items").select(["order_id", "product_name", "unit_price", "quantity", "personalisation"]).where("order_id", "in", orderIds).orderBy("id").execute()
    : [];
  const history = orderIds.length
    ? await trx.selectFrom("order_status_events").select(["order_id", "from_status", "to_status", "changed_at"]).where("order_id", "in", orderIds).orderBy("changed_at").orderBy("id").execute()
    : [];
  const cart = await trx
    .selectFrom("cart_items as c")
    .innerJoin("products as p", "p.id", "c.product_id")
    .innerJoin("product_variants as v", "v.id", "c.variant_id")
    .select([sql<string>`public.variant_line_name(p.name, v.option_values)`.as("name"), "c.quantity", "c.personalisation", "c.added_at"])
    .where("c.user_id", "=", userId)
    .orderBy("c.added_at")
    .execute();
  const backInStock = await trx
    .selectFrom("back_in_stock_requests as r")
    .innerJoin("product_variants as v", "v.id", "r.variant_id")
    .innerJoin("products as p", "p.id", "v.product_id")
    .select((eb) => [eb.fn<string>("public.variant_line_name", ["p.name", "v.option_values"]).as("name"), "r.created_at"])
    .where("r.user_id", "=", userId)
    .orderBy("r.created_at")
    .execute();
  const files = await trx
    .selectFrom("storage.objects")
    .select(["bucket_id", "name", "metadata", "created_at"])
    .where((eb) => eb.or([eb("name", "like", `${userId}/%`), eb("owner_id", "=", userId)]))
    .where("bucket_id", "in", ["avatars", "payments", "personalisation"])
    .orderBy("created_at")
    .execute();
  const consents = await trx
    .selectFrom("messaging_consents")
    .select(["kind", "phone", "source", "words", "given_at", "withdrawn_at", "withdrawn_via"])
    .where("user_id", "=", userId)
    .orderBy("given_at")
    .orderBy("id")
    .execute();
  // Quote requests (docs/quotes.md), with the versions sent and the customer's messages (RLS: own, never drafts).
  const quoteRequests = await trx
    .selectFrom("quote_requests")
    .select(["id", "number", "description", "items", "company_name", "vat_number", "created_at"])
    .select(sql<string | null>`preferred_date::text`.as("preferred_date"))
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  const requestIds = quoteRequests.map((request) => request.id);
  const quoteVersions = requestIds.length
    ? await trx
        .selectFrom("quotes")
        .select(["request_id", "version", "status", "total", "sent_at", "decided_at", "decline_reason", "purchase_order"])
        .select(sql<string>`valid_until::text`.as("valid_until"))
        .where("request_id", "in", requestIds)
        .orderBy("version")
        .execute()
    : [];
  const quoteMessages = requestIds.length
    ? await trx.selectFrom("quote_messages").select(["request_id", "kind", "body", "created_at"]).where("request_id", "in", requestIds).orderBy("created_at").execute()
    : [];
  return { profile, orders, items, history, cart, backInStock, consents, files, quoteRequests, quoteVersions, quoteMessages };
}
