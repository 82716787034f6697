import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { AdminQuote } from "@/components/admin/quotes/admin-quote";
import { requireAccess } from "@/server/auth/guards";
import { quoteRequestRefInput } from "@/server/quotes/schemas";
import { caller } from "@/trpc/caller";

export const metadata: Metadata = { title: "Quote", robots: { index: false } };

/** One request: what was asked, the builder for its next version, the versions sent. */
export default async function AdminQuotePage({ params }: PageProps<"/admin/quotes/[id]">) {
  const { id } = await params;
  await requireAccess("admin", `/admin/quotes/${encodeURIComponent(id)}`);
  const input = quoteRequestRefInput.safeParse({ requestId: id });
  if (!input.success) notFound();
  let request;
  try {
    request = await caller.adminQuotes.get(input.data);
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <AdminQuote initial={request} />
    </main>
  );
}
