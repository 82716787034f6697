"use client";

import { Link } from "@/components/ui/link";
import { quoteMessages as m } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import { api } from "@/trpc/react";
import { QuoteDecision } from "./quote-decision";
import { QuoteLines, QuoteStateBadge } from "./quote-lines";
import { QuoteRequestDetails, type QuoteRequestData } from "./quote-request-details";

/**
 * A customer's quote page: the latest version sent to them with its decision (while it is open),
 * the order an accepted one made, earlier versions, and what they asked for. Live: a version sent
 * or a decision made elsewhere shows without a reload.
 */
export function QuoteDetails({ initial }: { initial: QuoteRequestData }) {
  const query = api.quotes.byId.useQuery({ requestId: initial.id }, { initialData: initial });
  const request = query.data;
  const [latest, ...earlier] = request.versions;
  return (
    <div className="space-y-6">
      <section aria-labelledby="quote-heading" className="space-y-4 rounded-3xl border border-line bg-white p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 id="quote-heading" className="text-3xl font-bold">
            {m.requestHeading(request.number)}
          </h1>
          <QuoteStateBadge state={latest?.state ?? "requested"} />
        </div>
        {latest ? (
          <>
            <p className="text-sm text-muted">{m.version(latest.version)}</p>
            <QuoteLines version={latest} />
            {request.number ? (
              <a href={`/quotes/${latest.id}/pdf`} className="inline-block text-sm font-semibold text-brand-700 underline" download>
                {m.pdf(request.number)}
              </a>
            ) : null}
          </>
        ) : (
          <p className="text-muted">{m.waiting}</p>
        )}
        {latest?.state === "sent" ? <QuoteDecision quoteId={latest.id} total={latest.total} /> : null}
        {latest?.state === "expired" ? <p className="text-sm font-medium text-danger">{m.expired}</p> : null}
        {request.orderReference ? (
          <Link href={orderPath(request.orderReference)} className="inline-block font-semibold text-brand-700 underline" data-testid="quote-order">
            {m.orderLink(request.orderReference)}
          </Link>
        ) : null}
      </section>

      <section aria-labelledby="asked-heading" className="space-y-3 rounded-3xl border border-line bg-white p-6">
        <h2 id="asked-heading" className="text-xl font-bold">
          {m.requestTitle}
        </h2>
        <QuoteRequestDetails request={request} />
      </section>

      {earlier.length > 0 ? (
        <section aria-labelledby="earlier-heading" className="space-y-3 rounded-3xl border border-line bg-white p-6">
          <h2 id="earlier-heading" className="text-xl font-bold">
            {m.olderVersions}
          </h2>
          {earlier.map((version) => (
            <details key={version.id} className="rounded-xl border border-line p-4">
              <summary className="cursor-pointer font-medium">
                {m.version(version.version)} · {m.states[version.state]}
              </summary>
              <div className="mt-3">
                <QuoteLines version={version} />
              </div>
            </details>
          ))}
        </section>
      ) : null}

      <Link href="/profile#quotes-heading" className="inline-block font-semibold text-brand-700 underline-offset-2 hover:underline">
        {m.backToQuotes}
      </Link>
    </div>
  );
}
