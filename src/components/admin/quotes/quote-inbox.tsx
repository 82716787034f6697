"use client";

import { Link } from "@/components/ui/link";
import { formatDateTime } from "@/lib/days";
import { formatRand2 } from "@/lib/money";
import { messages, quoteMessages as m } from "@/lib/messages";
import { api } from "@/trpc/react";
import { QuoteStateBadge } from "@/components/quotes/quote-lines";

/** The admins' quote inbox: every request, latest change first, with its state (live). */
export function QuoteInbox() {
  const inbox = api.adminQuotes.inbox.useQuery();
  if (inbox.isError) return <p role="alert" className="text-danger">{m.loadFailed}</p>;
  if (inbox.isPending) return <p role="status">{messages.loading}</p>;
  if (inbox.data.length === 0) return <p className="text-muted">{m.inboxEmpty}</p>;
  return (
    // On a phone the total waits for the quote's page (the state says where it stands), and an
    // address breaks where it must: the inbox fits 390 px whatever it holds.
    <div className="overflow-x-auto">
    <table className="w-full text-sm" aria-label={m.inboxTitle}>
      <thead className="text-left text-muted">
        <tr>
          <th className="py-2 font-medium">Quote</th>
          <th className="py-2 font-medium">Customer</th>
          <th className="hidden py-2 font-medium sm:table-cell">Last change</th>
          <th className="hidden py-2 text-right font-medium sm:table-cell">Total</th>
          <th className="py-2 text-right font-medium">State</th>
        </tr>
      </thead>
      <tbody>
        {inbox.data.map((request) => (
          <tr key={request.id} className="border-t border-line align-top">
            <td className="py-2">
              <Link href={`/admin/quotes/${request.id}`} className="font-semibold text-brand-700 underline underline-offset-2">
                {request.number ?? m.newRequest}
              </Link>
              <p className="line-clamp-1 max-w-xs text-muted">{request.description}</p>
            </td>
            <td className="py-2">
              {request.customerName}
              <p className="text-muted [overflow-wrap:anywhere]">{request.customerEmail}</p>
            </td>
            <td className="hidden py-2 text-muted sm:table-cell">{formatDateTime(request.updatedAt)}</td>
            <td className="tabular hidden py-2 text-right sm:table-cell">{request.total === null ? "—" : formatRand2(request.total)}</td>
            <td className="py-2 text-right">
              <QuoteStateBadge state={request.state} />
              {request.changeAsked ? <p className="mt-1 text-xs font-semibold text-accent-700">{m.changeRequested}</p> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
