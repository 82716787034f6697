import type { TRPCContext } from "@/server/api/trpc";
import type { SessionUser } from "@/server/auth/session-user";
import { site } from "@/server/settings/site";
import { readOwnData } from "./export-queries";

type Ctx = Pick<TRPCContext, "db"> & { user: SessionUser };

/** What the customer added to an order line: each field's text, or the stored file's path (listed under storedFiles too). */
function personalisationOf(entries: { label: string; kind: string; value: string }[]) {
  return entries.map((entry) => ({ field: entry.label, [entry.kind === "file" ? "file" : "text"]: entry.value }));
}

/**
 * The customer's own data as one JSON document (POPIA's right of access): profile, orders with
 * items (with what they added to them), totals, statuses and history, the cart, back-in-stock
 * requests, their WhatsApp consents, their quote requests, and the list of their stored files. Amounts
 * are rands as decimal strings, exactly as stored.
 */
export async function exportMyData({ ctx }: { ctx: Ctx }) {
  const data = await ctx.db.transaction((trx) => readOwnData(trx, ctx.user.id));
  return {
    exportedAt: new Date().toISOString(),
    shop: site.name,
    about:
      "Everything this shop holds about your account. Orders stay with the business for its tax records after an account is deleted; contact-form messages are not linked to accounts: ask the information officer (see the privacy notice) for those.",
    account: {
      id: ctx.user.id,
      email: ctx.user.email,
      fullName: data.profile?.full_name ?? null,
      role: data.profile?.role ?? ctx.user.role,
      profilePicture: data.profile?.avatar_path ?? null,
      createdAt: data.profile ? new Date(data.profile.created_at).toISOString() : null,
    },
    orders: data.orders.map((order) => ({
      reference: order.reference,
      placedAt: new Date(order.created_at).toISOString(),
      status: order.status,
      total: order.total,
      nameAtPurchase: order.customer_name,
      emailAtPurchase: order.customer_email,
      proofOfPayment: order.proof_path,
      items: data.items
        .filter((item) => item.order_id === order.id)
        .map((item) => ({ product: item.product_name, quantity: item.quantity, unitPrice: item.unit_price, personalisation: personalisationOf(item.personalisation) })),
      statusHistory: data.history
        .filter((event) => event.order_id === order.id)
        .map((event) => ({ from: event.from_status, to: event.to_status, at: new Date(event.changed_at).toISOString() })),
    })),
    cart: data.cart.map((line) => ({ product: line.name, quantity: line.quantity, personalisation: line.personalisation, addedAt: new Date(line.added_at).toISOString() })),
    /** "E-mail me when it is back": kept until the one mail is sent. */
    backInStockRequests: data.backInStock.map((request) => ({ product: request.name, askedAt: new Date(request.created_at).toISOString() })),
    /** WhatsApp choices (POPIA): each consent with when and where it was given, the words shown, and its withdrawal. */
    messagingConsents: data.consents.map((consent) => ({
      kind: consent.kind,
      phone: consent.phone,
      givenAt: new Date(consent.given_at).toISOString(),
      where: consent.source,
      wordsShown: consent.words,
      withdrawnAt: consent.withdrawn_at ? new Date(consent.withdrawn_at).toISOString() : null,
      withdrawnBy: consent.withdrawn_via,
    })),
    /** Quote requests (docs/quotes.md): what was asked, each version sent with its decision, and the messages sent about them. */
    quoteRequests: data.quoteRequests.map((request) => ({
      number: request.number,
      askedAt: new Date(request.created_at).toISOString(),
      description: request.description,
      items: request.items.map((item) => ({ product: item.name, quantity: item.quantity })),
      preferredDate: request.preferred_date,
      company: request.company_name,
      vatNumber: request.vat_number,
      versions: data.quoteVersions
        .filter((version) => version.request_id === request.id)
        .map((version) => ({
          version: version.version,
          status: version.status,
          total: version.total,
          validUntil: version.valid_until,
          sentAt: version.sent_at ? new Date(version.sent_at).toISOString() : null,
          decidedAt: version.decided_at ? new Date(version.decided_at).toISOString() : null,
          declineReason: version.decline_reason,
          purchaseOrder: version.purchase_order,
        })),
      messages: data.quoteMessages
        .filter((message) => message.request_id === request.id)
        .map((message) => ({ kind: message.kind, text: message.body, at: new Date(message.created_at).toISOString() })),
    })),
    storedFiles: data.files.map((file) => ({
      bucket: file.bucket_id,
      path: file.name,
      type: (file.metadata as { mimetype?: string } | null)?.mimetype ?? null,
      bytes: (file.metadata as { size?: number } | null)?.size ?? null,
      storedAt: new Date(file.created_at).toISOString(),
    })),
  };
}

export type MyDataExport = Awaited<ReturnType<typeof exportMyData>>;
