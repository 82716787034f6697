import type { Metadata } from "next";
import { MailOutbox } from "@/components/admin/mail-outbox";
import { messages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Outbox", robots: { index: false } };

export default async function AdminOutboxPage() {
  await requireAccess("admin", "/admin/outbox");
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  await api.mail.outbox.prefetch();
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{messages.mail.title}</h1>
      <div className="mt-6">
        <HydrateClient>
          <MailOutbox />
        </HydrateClient>
      </div>
    </main>
  );
}
