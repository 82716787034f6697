"use client";

import { formatDateTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";

/** Messages from the contact form, newest first; each can be marked read or unread. */
export function ContactMessages() {
  const utils = api.useUtils();
  const list = api.contact.list.useQuery();
  const mark = api.contact.markRead.useMutation({ onSettled: () => utils.contact.list.invalidate() });
  if (list.isPending) return <p role="status">{messages.loading}</p>;
  if (list.isError) return <p role="alert" className="text-danger">{list.error.message}</p>;
  if (list.data.length === 0) return <p className="text-muted">No messages yet.</p>;
  return (
    <ul className="space-y-4" aria-label="Messages">
      {list.data.map((message) => (
        <li key={message.id} className={`rounded-2xl border bg-white p-5 ${message.read_at ? "border-line" : "border-accent-500"}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="font-semibold">
              {message.name}{" "}
              <a href={`mailto:${message.email}`} className="font-normal text-brand-700 hover:underline">
                {message.email}
              </a>
              {message.phone ? <span className="font-normal text-muted"> · {message.phone}</span> : null}
            </p>
            <time className="text-sm text-muted" dateTime={message.created_at.toISOString()}>
              {formatDateTime(message.created_at)}
            </time>
          </div>
          <p className="mt-2 whitespace-pre-line">{message.message}</p>
          <button
            type="button"
            className="mt-3 text-sm font-semibold text-brand-700 hover:underline"
            onClick={() => mark.mutate({ id: message.id, read: !message.read_at })}
            disabled={mark.isPending}
          >
            {message.read_at ? "Mark as unread" : "Mark as read"}
            <span className="sr-only"> (message from {message.name})</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
