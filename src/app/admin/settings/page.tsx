import type { Metadata } from "next";
import { FulfilmentSettingsForm } from "@/components/admin/fulfilment/fulfilment-settings-form";
import { GoLiveChecklist } from "@/components/admin/go-live-checklist";
import { PaymentSettingsForm } from "@/components/admin/payment-settings-form";
import { InvoiceSettingsForm } from "@/components/admin/invoice-settings-form";
import { ShopSettingsForm } from "@/components/admin/shop-settings-form";
import { WhatsAppSettingsForm } from "@/components/admin/whatsapp-settings-form";
import { messages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { caller } from "@/trpc/caller";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: messages.settings.title, robots: { index: false } };

export default async function AdminSettingsPage() {
  await requireAccess("admin", "/admin/settings");
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  const [goLive] = await Promise.all([caller.settings.goLive(), api.settings.get.prefetch(), api.payments.settings.prefetch(), api.messaging.settings.prefetch(), api.fulfilment.settings.prefetch()]);
  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{messages.settings.title}</h1>
      <p className="mt-2 text-muted">What customers see at checkout, in the footer and on the contact page, and where order notices go.</p>
      <div className="mt-6">
        <GoLiveChecklist status={goLive} />
      </div>
      <div className="mt-8">
        <HydrateClient>
          <ShopSettingsForm />
          <div className="mt-8">
            <PaymentSettingsForm />
          </div>
          <div className="mt-8">
            <WhatsAppSettingsForm />
          </div>
          <div className="mt-8">
            <FulfilmentSettingsForm />
          </div>
        </HydrateClient>
      </div>
      <div className="mt-8">
        <InvoiceSettingsForm />
      </div>
    </main>
  );
}
