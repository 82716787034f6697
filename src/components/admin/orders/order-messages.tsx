"use client";

import { useState } from "react";
import { formatDateTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";

const m = messages.mail;

/**
 * What the customer was told about one order, folded away and read when opened: each notice's
 * channel (e-mail or WhatsApp), how far it got (waiting, sent, delivered, read, failed) and when.
 */
export function OrderMessages({ orderId }: { orderId: string }) {
  const [open, setOpen] = useState(false);
  const sent = api.mail.orderMessages.useQuery({ id: orderId }, { enabled: open });
  return (
    <details className="text-sm" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="order-messages">
      <summary className="cursor-pointer text-muted">{m.orderMessages}</summary>
      {!open ? null : sent.isPending ? (
        <p role="status" className="mt-2">{messages.loading}</p>
      ) : sent.isError ? (
        <p role="alert" className="mt-2 text-danger">{sent.error.message}</p>
      ) : sent.data.length === 0 ? (
        <p className="mt-2 text-muted">{m.orderMessagesNone}</p>
      ) : (
        <ol className="mt-2 space-y-1">
          {sent.data.map((message) => (
            <li key={message.id} className="flex flex-wrap gap-x-2">
              <time className="text-muted" dateTime={message.createdAt.toISOString()}>
                {formatDateTime(message.createdAt)}
              </time>
              <span className="font-medium">{message.subject}</span>
              <span data-testid="order-message-channel">
                {m.channel[message.channel]} · {message.deliveryStatus ? m.delivery[message.deliveryStatus] : m.status[message.status]}
                {message.fallback ? ` (${m.insteadOfWhatsApp})` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
