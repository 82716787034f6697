import type { Metadata } from "next";
import { QuoteInbox } from "@/components/admin/quotes/quote-inbox";
import { quoteMessages as m } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Quotes", robots: { index: false } };

/** The quote inbox (docs/quotes.md): every request, latest change first. */
export default async function AdminQuotesPage() {
  await requireAccess("admin", "/admin/quotes");
  await api.adminQuotes.inbox.prefetch();
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{m.inboxTitle}</h1>
      <div className="mt-6 rounded-3xl border border-line bg-white p-6">
        <HydrateClient>
          <QuoteInbox />
        </HydrateClient>
      </div>
    </main>
  );
}
