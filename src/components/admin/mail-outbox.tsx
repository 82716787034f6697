"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { formatDateTime } from "@/lib/days";

const m = messages.mail;

const STATUS_STYLE = {
  queued: "bg-brand-50 text-brand-800",
  retrying: "bg-accent-100 text-ink",
  sent: "bg-brand-100 text-success",
  failed: "bg-red-50 text-danger",
} as const;

/** The mail outbox: what was or will be sent, to whom, and how delivery went. */
export function MailOutbox() {
  const outbox = api.mail.outbox.useQuery(undefined, { refetchInterval: 15_000 });
  if (outbox.isPending) return <p role="status">{messages.loading}</p>;
  if (outbox.isError) return <p role="alert" className="text-danger">{outbox.error.message}</p>;
  const { mails, counts, sending } = outbox.data;
  return (
    <div className="space-y-4">
      {!sending ? (
        <p role="status" className="rounded-lg border border-accent-500 bg-accent-100 px-4 py-3 text-sm font-medium text-ink" data-testid="outbox-not-sending">
          {m.notSending}
        </p>
      ) : null}
      <p className="text-sm text-muted" data-testid="outbox-counts">
        {counts.sent} sent · {counts.waiting} waiting · {counts.failed} failed
      </p>
      {mails.length === 0 ? (
        <p className="text-muted">{m.empty}</p>
      ) : (
        <ul className="space-y-3" aria-label="Mails">
          {mails.map((mail) => (
            <li key={mail.id} className="rounded-2xl border border-line bg-white p-4">
              <details>
                <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[mail.status]}`}>{m.status[mail.status]}</span>
                  <span className="rounded-full border border-line px-2 py-0.5 text-xs" data-testid="outbox-channel">
                    {m.channel[mail.channel]}
                    {mail.deliveryStatus ? ` · ${m.delivery[mail.deliveryStatus]}` : ""}
                  </span>
                  <span className="font-semibold">{mail.subject}</span>
                  <span className="text-sm text-muted">to {mail.recipient}</span>
                  <time className="ml-auto text-sm text-muted" dateTime={mail.createdAt.toISOString()}>
                    {formatDateTime(mail.createdAt)}
                  </time>
                </summary>
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-muted">Attempts</dt>
                  <dd>{mail.attempts}</dd>
                  {mail.sentAt ? (
                    <>
                      <dt className="text-muted">Sent</dt>
                      <dd>{formatDateTime(mail.sentAt)}</dd>
                    </>
                  ) : mail.status !== "failed" && sending ? (
                    <>
                      <dt className="text-muted">Next try</dt>
                      <dd>{formatDateTime(mail.nextAttemptAt)}</dd>
                    </>
                  ) : null}
                  {mail.fallback ? (
                    <>
                      <dt className="text-muted">Fallback</dt>
                      <dd>{m.fallback}</dd>
                    </>
                  ) : null}
                  {mail.lastError ? (
                    <>
                      <dt className="text-muted">Last error</dt>
                      <dd className="text-danger">{mail.lastError}</dd>
                    </>
                  ) : null}
                </dl>
                <pre className="mt-3 max-h-96 overflow-auto whitespace-pre-wrap rounded-lg bg-surface p-3 text-sm">{mail.text}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
