import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { LogoutButton } from "@/components/auth/logout-button";
import { AvatarUpload, DeleteProfileButton } from "@/components/profile/profile-actions";
import { ChangeEmailForm, ChangePasswordForm } from "@/components/profile/account-settings";
import { ProfileMenu } from "@/components/profile/profile-menu";
import { PurchaseHistory } from "@/components/profile/purchase-history";
import { WhatsAppConsent } from "@/components/profile/whatsapp-consent";
import { InvoiceDetails } from "@/components/invoices/invoice-details";
import { QuoteList } from "@/components/quotes/quote-list";
import { quoteMessages } from "@/lib/messages";
import { buttonClasses } from "@/components/ui/button";
import { requireAccess } from "@/server/auth/guards";
import { getRequestContext } from "@/trpc/request-context";
import { HydrateClient, api } from "@/trpc/server";

export const metadata: Metadata = { title: "Your profile", robots: { index: false } };

export default async function ProfilePage() {
  const user = await requireAccess("signed-in", "/profile");
  const { storage } = await getRequestContext();
  const avatarUrl = user.avatarPath ? storage.publicUrl({ bucket: "avatars", path: user.avatarPath }) : "/avatar-placeholder.svg";
  // Awaited, not started in the background: the client component reads it with useQuery, and a
  // prefetch still pending when the server renders it gives "Loading..." in the HTML while the
  // browser, which has the streamed result before it hydrates, renders the data: React #418.
  await api.orders.mine.prefetch();
  await api.messaging.myConsents.prefetch();
  if (user.role !== "admin") await api.quotes.mine.prefetch();

  return (
    <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="sr-only">Your profile</h1>
      <section className="flex flex-col gap-6 rounded-3xl border border-line bg-white p-6 sm:flex-row sm:items-center sm:p-8">
        <ProfileMenu avatarUrl={avatarUrl} name={user.displayName} isAdmin={user.role === "admin"} />
        <div className="space-y-4">
        <dl className="space-y-1">
          <dt className="sr-only">Name</dt>
          <dd className="text-2xl font-bold">{user.fullName || "N/A"}</dd>
          <dt className="sr-only">Email</dt>
          <dd className="text-muted">{user.email}</dd>
        </dl>
        <AvatarUpload />
        </div>
      </section>

      <section aria-labelledby="history-heading" className="mt-10">
        <h2 id="history-heading" className="text-2xl font-bold">
          Purchase History
        </h2>
        <div className="mt-4">
          <HydrateClient>
            <PurchaseHistory />
          </HydrateClient>
        </div>
      </section>

      {/* Customers' quotes (admins price them in the quote inbox). */}
      {user.role === "admin" ? null : (
        <section aria-labelledby="quotes-heading" className="mt-10">
          <h2 id="quotes-heading" className="text-2xl font-bold">
            {quoteMessages.listTitle}
          </h2>
          <div className="mt-4">
            <HydrateClient>
              <QuoteList />
            </HydrateClient>
          </div>
        </section>
      )}

      <div className="mt-10">
        <InvoiceDetails />
      </div>

      <div className="mt-10 flex flex-wrap gap-3">
        <Link href="/products" className={buttonClasses("primary")}>
          Continue Shopping
        </Link>
        <LogoutButton />
        <DeleteProfileButton />
      </div>

      <section aria-labelledby="account-settings-heading" className="mt-10 rounded-3xl border border-line bg-white p-6">
        <h2 id="account-settings-heading" className="text-lg font-semibold">
          Account settings
        </h2>
        <div className="mt-4 grid gap-8 sm:grid-cols-2">
          <ChangePasswordForm />
          <ChangeEmailForm />
        </div>
      </section>

      <HydrateClient>
        <WhatsAppConsent />
      </HydrateClient>

      <section aria-labelledby="your-data-heading" className="mt-10 rounded-3xl border border-line bg-white p-6">
        <h2 id="your-data-heading" className="text-lg font-semibold">
          Your data
        </h2>
        <p className="mt-1 text-sm text-muted">
          Download everything we hold about your account: your details, orders and their history, your cart and the files you
          uploaded. See the{" "}
          <Link href="/privacy" className="underline">
            privacy notice
          </Link>{" "}
          for what we keep and why.
        </p>
        {/* A plain link: the browser downloads the file, no script needed. */}
        <a href="/profile/export" download className={`${buttonClasses("outline")} mt-4`}>
          Download my data
        </a>
      </section>
    </main>
  );
}
