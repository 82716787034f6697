import { formatDateTime, formatDay } from "@/lib/days";
import { quoteMessages as m } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";

export type QuoteRequestData = RouterOutputs["quotes"]["byId"];

/** What the customer asked for (their words, products, date, company, files) and the messages since. */
export function QuoteRequestDetails({ request }: { request: QuoteRequestData }) {
  return (
    <div className="space-y-4 text-sm">
      <p className="whitespace-pre-line" data-testid="quote-description">
        {request.description}
      </p>
      {request.items.length > 0 ? (
        <ul className="list-inside list-disc">
          {request.items.map((item) => (
            <li key={item.variantId}>
              {item.name} × {item.quantity}
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        {request.preferredDate ? <Row label="Preferred date" value={formatDay(request.preferredDate)} /> : null}
        {request.company ? <Row label="Company" value={request.company} /> : null}
        {request.vatNumber ? <Row label="VAT number" value={request.vatNumber} /> : null}
        <Row label="Requested" value={formatDateTime(request.createdAt)} />
      </dl>
      {request.files.length > 0 ? (
        <ul className="space-y-1" aria-label="Files">
          {request.files.map((file) => (
            <li key={file.url}>
              <a href={file.url} className="text-brand-700 underline" target="_blank" rel="noopener">
                {file.fileName}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {request.messages.length > 0 ? (
        <section aria-label={m.conversationTitle} className="space-y-2">
          <h3 className="font-semibold">{m.conversationTitle}</h3>
          <ol className="space-y-2">
            {request.messages.map((message, index) => (
              <li key={index} className="rounded-xl bg-brand-50 p-3">
                <p className="text-xs text-muted">
                  {message.kind === "decline" ? m.declineTitle : m.changeRequested} · {formatDateTime(message.at)}
                </p>
                <p className="whitespace-pre-line">{message.body}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
