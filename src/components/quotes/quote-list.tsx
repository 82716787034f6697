"use client";

import { Link } from "@/components/ui/link";
import { formatDateTime } from "@/lib/days";
import { formatRand2 } from "@/lib/money";
import { messages, quoteMessages as m } from "@/lib/messages";
import { api } from "@/trpc/react";
import { buttonClasses } from "@/components/ui/button";
import { QuoteStateBadge } from "./quote-lines";
import { quotePath } from "@/lib/order-paths";

/** The profile's "Quotes": the customer's requests, latest change first, each with its state. */
export function QuoteList() {
  const quotes = api.quotes.mine.useQuery();
  if (quotes.isError) return <p role="alert" className="text-danger">{m.loadFailed}</p>;
  if (quotes.isPending) return <p role="status">{messages.loading}</p>;
  return (
    <div className="space-y-4">
      {quotes.data.length === 0 ? (
        <p className="text-muted">{m.none}</p>
      ) : (
        <ul className="space-y-3" aria-label={m.listTitle}>
          {quotes.data.map((quote) => (
            <li key={quote.id} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-white p-4">
              <div>
                <Link href={quotePath(quote.id)} className="font-semibold text-brand-700 underline underline-offset-2">
                  {m.requestHeading(quote.number)}
                </Link>
                <p className="line-clamp-1 text-sm text-muted">{quote.description}</p>
                <p className="text-xs text-muted">{m.requestedOn(formatDateTime(quote.createdAt))}</p>
              </div>
              <div className="flex items-center gap-3">
                {quote.total !== null ? <span className="tabular font-semibold">{formatRand2(quote.total)}</span> : null}
                <QuoteStateBadge state={quote.state} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Link href="/quotes/new" className={buttonClasses("outline")}>
        {m.requestButton}
      </Link>
    </div>
  );
}
