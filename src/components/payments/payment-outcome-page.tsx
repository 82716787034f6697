import { notFound } from "next/navigation";
import { z } from "@/lib/zod";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";
import { PaymentOutcome } from "./payment-outcome";

/** The pages PayFast sends the customer back to (return and cancel URLs), for one of their orders. */
export async function PaymentOutcomePage({
  searchParams,
  returned,
  title,
  path,
}: {
  searchParams: Promise<{ order?: string | string[] }>;
  returned: boolean;
  title: string;
  path: string;
}) {
  const { order } = await searchParams;
  const orderId = z.uuid().safeParse(order);
  await requireAccess("customer", orderId.success ? `${path}?order=${orderId.data}` : path);
  if (!orderId.success) notFound();
  // Awaited (see src/app/admin/settings/page.tsx): the client reads it with useQuery.
  await api.payments.order.prefetch({ orderId: orderId.data });
  return (
    <main className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{title}</h1>
      <div className="mt-6">
        <HydrateClient>
          <PaymentOutcome orderId={orderId.data} returned={returned} />
        </HydrateClient>
      </div>
    </main>
  );
}
