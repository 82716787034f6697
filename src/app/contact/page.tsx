import type { Metadata } from "next";
import { connection } from "next/server";
import { ContactForm } from "@/components/contact/contact-form";
import { caller } from "@/trpc/caller";
import { site } from "@/server/settings/site";

export const metadata: Metadata = {
  title: "Contact us",
  description: `Call, email or send ${site.name} a message: quotes, bookings and questions welcome.`,
  openGraph: { title: `Contact us · ${site.name}` },
};

export default async function ContactPage() {
  // Rendered per request, never at build time: the details are the shop settings in the database.
  await connection();
  const { contact } = await caller.settings.published();
  return (
    <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold sm:text-4xl">Contact us</h1>
      <p className="mt-2 max-w-2xl text-muted">Ask for a quote, book a service or ask us anything. We reply within one working day.</p>
      <div className="mt-10 grid gap-10 md:grid-cols-5">
        <section aria-labelledby="details-heading" className="space-y-6 md:col-span-2">
          <h2 id="details-heading" className="text-xl font-bold">
            Our details
          </h2>
          <dl className="space-y-4">
            {/* A detail still at its demo value in production comes blank: left out, never shown as real. */}
            {contact.phone ? (
              <div>
                <dt className="text-sm font-semibold text-brand-700">Phone</dt>
                <dd>
                  <a href={`tel:${contact.phone.replace(/[^+0-9]/g, "")}`} className="hover:underline">
                    {contact.phone}
                  </a>
                </dd>
              </div>
            ) : null}
            {contact.email ? (
              <div>
                <dt className="text-sm font-semibold text-brand-700">Email</dt>
                <dd>
                  <a href={`mailto:${contact.email}`} className="hover:underline">
                    {contact.email}
                  </a>
                </dd>
              </div>
            ) : null}
            {contact.address ? (
              <div>
                <dt className="text-sm font-semibold text-brand-700">Address</dt>
                <dd>{contact.address}</dd>
              </div>
            ) : null}
            {contact.hours ? (
              <div>
                <dt className="text-sm font-semibold text-brand-700">Hours</dt>
                <dd>{contact.hours}</dd>
              </div>
            ) : null}
          </dl>
        </section>
        <section aria-labelledby="form-heading" className="rounded-3xl border border-line bg-white p-6 sm:p-8 md:col-span-3">
          <h2 id="form-heading" className="text-xl font-bold">
            Send us a message
          </h2>
          <div className="mt-6">
            <ContactForm />
          </div>
        </section>
      </div>
    </main>
  );
}
