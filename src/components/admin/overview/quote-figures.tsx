"use client";

import { formatRand } from "@/lib/money";
import { quoteMessages as m } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Figure } from "./figure";

/** Quotes in the chosen range: sent and accepted, with their value (docs/quotes.md). */
export function QuoteFigures({ from, to }: { from: string; to: string }) {
  const quotes = api.overview.quotes.useQuery({ from, to });
  if (!quotes.data) return null;
  const { sent, sentValue, accepted, acceptedValue } = quotes.data;
  return (
    <dl className="grid gap-3 sm:grid-cols-2" aria-label={m.overviewTitle}>
      <Figure label={m.overviewSent} value={String(sent)} detail={m.overviewValue(formatRand(sentValue))} testId="quotes-sent" />
      <Figure label={m.overviewAccepted} value={String(accepted)} detail={m.overviewValue(formatRand(acceptedValue))} testId="quotes-accepted" />
    </dl>
  );
}
