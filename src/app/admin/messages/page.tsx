import type { Metadata } from "next";
import { ContactMessages } from "@/components/admin/contact-messages";
import { requireAccess } from "@/server/auth/guards";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: "Messages", robots: { index: false } };

export default async function AdminMessagesPage() {
  await requireAccess("admin", "/admin/messages");
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  await api.contact.list.prefetch();
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Contact messages</h1>
      <div className="mt-6">
        <HydrateClient>
          <ContactMessages />
        </HydrateClient>
      </div>
    </main>
  );
}
