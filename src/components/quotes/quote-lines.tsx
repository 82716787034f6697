import { formatDay } from "@/lib/days";
import { formatRand2 } from "@/lib/money";
import { quoteMessages as m } from "@/lib/messages";
import type { RouterOutputs } from "@/trpc/react";

export type QuoteVersion = RouterOutputs["quotes"]["byId"]["versions"][number];

/** A version's lines, total, validity, terms and note, as the customer and the admins read it. */
export function QuoteLines({ version }: { version: QuoteVersion }) {
  return (
    <div className="space-y-3">
      <table className="w-full text-sm" aria-label={m.version(version.version)}>
        <thead className="text-left text-muted">
          <tr>
            <th className="py-2 font-medium">Item</th>
            <th className="py-2 pl-3 text-right font-medium">Price</th>
            <th className="py-2 pl-3 text-right font-medium">Quantity</th>
            <th className="py-2 pl-3 text-right font-medium">Amount</th>
          </tr>
        </thead>
        <tbody>
          {version.lines.map((line, index) => (
            <tr key={index} className="border-t border-line">
              <td className="py-2">{line.description}</td>
              <td className="tabular py-2 pl-3 text-right whitespace-nowrap">{formatRand2(line.unitPrice)}</td>
              <td className="tabular py-2 pl-3 text-right whitespace-nowrap">× {line.quantity}</td>
              <td className="tabular py-2 pl-3 text-right whitespace-nowrap">{formatRand2(line.unitPrice * line.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="tabular text-right text-lg font-bold" data-testid="quote-total">
        Total {formatRand2(version.total)}
      </p>
      <p className="text-sm text-muted">{m.pricesIncludeVat}</p>
      <p className="text-sm">{m.validUntil(formatDay(version.validUntil))}</p>
      {version.terms ? <Paragraphs title={m.termsTitle} text={version.terms} /> : null}
      {version.note ? <Paragraphs title={m.noteTitle} text={version.note} /> : null}
    </div>
  );
}

function Paragraphs({ title, text }: { title: string; text: string }) {
  return (
    <div className="text-sm">
      <h3 className="font-semibold">{title}</h3>
      <p className="whitespace-pre-line text-muted">{text}</p>
    </div>
  );
}

/** A state as a coloured badge. */
export function QuoteStateBadge({ state }: { state: keyof typeof m.states }) {
  const tone = state === "accepted" ? "bg-green-100 text-green-900" : state === "sent" || state === "draft" ? "bg-brand-50 text-brand-800" : state === "requested" ? "bg-accent-50 text-ink" : "bg-gray-100 text-muted";
  return (
    <span className={`inline-block rounded-full px-3 py-1 text-xs font-semibold ${tone}`} data-testid="quote-state">
      {m.states[state]}
    </span>
  );
}
