"use client";

import { Link } from "@/components/ui/link";
import { quoteMessages as m } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import { api } from "@/trpc/react";
import { QuoteLines, QuoteStateBadge } from "@/components/quotes/quote-lines";
import { QuoteRequestDetails, type QuoteRequestData } from "@/components/quotes/quote-request-details";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { QuoteBuilder } from "./quote-builder";

/**
 * One request in the admins' inbox: what the customer asked, every version with its state, and
 * the builder for the next one (a draft, or a revision of the version sent) until one is accepted.
 */
export function AdminQuote({ initial }: { initial: QuoteRequestData }) {
  const query = api.adminQuotes.get.useQuery({ requestId: initial.id }, { initialData: initial });
  // Above the builder, which starts afresh after each save: the message outlives it.
  const flash = useFlashMessage(8_000);
  const request = query.data;
  const latest = request.versions[0];
  const accepted = request.versions.find((version) => version.state === "accepted");
  const sent = request.versions.filter((version) => version.state !== "draft");
  // The builder is remounted when a version is saved or sent, so it starts from the latest one.
  const builderKey = request.versions.map((version) => `${version.id}:${version.state}:${version.total}`).join("|");
  return (
    <div className="space-y-6">
      <section aria-labelledby="admin-quote-heading" className="space-y-3 rounded-3xl border border-line bg-white p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 id="admin-quote-heading" className="text-3xl font-bold">
            {m.requestHeading(request.number)}
          </h1>
          <QuoteStateBadge state={latest?.state ?? "requested"} />
        </div>
        <p className="text-sm">
          {request.customerName} · {request.customerEmail}
        </p>
        {request.changeAsked ? <p className="text-sm font-semibold text-accent-700">{m.changeRequested}</p> : null}
        <QuoteRequestDetails request={request} />
      </section>

      {accepted ? (
        <section className="rounded-3xl border border-line bg-white p-6">
          <p className="font-medium">{m.closed}</p>
          {request.orderReference ? (
            <Link href={orderPath(request.orderReference)} className="mt-2 inline-block font-semibold text-brand-700 underline">
              {request.orderReference}
            </Link>
          ) : null}
        </section>
      ) : (
        <section aria-labelledby="builder-heading" className="space-y-3 rounded-3xl border border-line bg-white p-6">
          <h2 id="builder-heading" className="text-xl font-bold">
            {latest?.state === "draft" ? m.draftHeading(latest.version) : sent.length > 0 ? m.revise : m.builderTitle(null)}
          </h2>
          <QuoteBuilder key={builderKey} request={request} show={flash.show} />
          <StatusMessage message={flash.message} />
        </section>
      )}

      {sent.map((version) => (
        <details key={version.id} className="rounded-3xl border border-line bg-white p-6" open={version === sent[0]}>
          <summary className="cursor-pointer font-semibold">
            {m.version(version.version)} · {m.states[version.state]}
            {version.purchaseOrder ? ` · PO ${version.purchaseOrder}` : ""}
          </summary>
          <div className="mt-3">
            <QuoteLines version={version} />
          </div>
        </details>
      ))}
    </div>
  );
}
