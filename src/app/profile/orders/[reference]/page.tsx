import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { OrderDetails } from "@/components/orders/order-details";
import { orderPageMessages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { orderByReferenceInput } from "@/server/orders/schemas";
import { caller } from "@/trpc/caller";

export async function generateMetadata({ params }: PageProps<"/profile/orders/[reference]">): Promise<Metadata> {
  const input = orderByReferenceInput.safeParse({ reference: (await params).reference });
  return { title: input.success ? orderPageMessages.title(input.data.reference) : "Your order", robots: { index: false } };
}

/**
 * One order's page, linked from the purchase history and the order mails. Guarded as /profile;
 * an order that is not the caller's (RLS) is a 404, as one that does not exist.
 */
export default async function OrderPage({ params }: PageProps<"/profile/orders/[reference]">) {
  const { reference } = await params;
  await requireAccess("signed-in", `/profile/orders/${encodeURIComponent(reference)}`);
  const input = orderByReferenceInput.safeParse({ reference });
  if (!input.success) notFound();
  let order;
  try {
    order = await caller.orders.byReference(input.data);
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <OrderDetails initial={order} />
    </main>
  );
}
