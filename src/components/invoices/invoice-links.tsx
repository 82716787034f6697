"use client";

import { useEffect } from "react";
import { invoiceMessages as m } from "@/lib/messages";
import type { OrderStatus } from "@/server/db/schema";
import { api } from "@/trpc/react";

/**
 * Links to an order's invoice and credit note PDFs (purchase history and Order Management).
 * Only a paid or cancelled order can have one, so nothing is asked for an unpaid one; a status
 * change (live) asks again, since the database issues them with the change.
 */
export function InvoiceLinks({ orderId, status }: { orderId: string; status: OrderStatus }) {
  const enabled = status !== "pending_payment";
  const documents = api.invoices.forOrder.useQuery({ orderId }, { enabled, staleTime: Infinity });
  const { refetch } = documents;
  useEffect(() => {
    if (enabled) void refetch();
  }, [status, enabled, refetch]);
  if (!enabled || !documents.data || documents.data.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Invoices" data-testid="invoice-links">
      {documents.data.map((document) => (
        <li key={document.id}>
          {/* A plain link: the browser downloads the PDF, no script needed. */}
          <a href={`/invoices/${document.id}`} download className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
            {document.kind === "invoice" ? m.download(document.number) : m.downloadCredit(document.number)}
          </a>
        </li>
      ))}
    </ul>
  );
}
