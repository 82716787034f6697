import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { QuoteDetails } from "@/components/quotes/quote-details";
import { requireAccess } from "@/server/auth/guards";
import { quoteRequestRefInput } from "@/server/quotes/schemas";
import { caller } from "@/trpc/caller";
import { quotePath } from "@/lib/order-paths";

export const metadata: Metadata = { title: "Your quote", robots: { index: false } };

/**
 * One quote request's page, linked from the profile's Quotes and the quote mail. Guarded as
 * /profile; a request that is not the caller's (RLS) is a 404, as one that does not exist.
 */
export default async function QuotePage({ params }: PageProps<"/profile/quotes/[id]">) {
  const { id } = await params;
  await requireAccess("signed-in", quotePath(id));
  const input = quoteRequestRefInput.safeParse({ requestId: id });
  if (!input.success) notFound();
  let request;
  try {
    request = await caller.quotes.byId(input.data);
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <QuoteDetails initial={request} />
    </main>
  );
}
