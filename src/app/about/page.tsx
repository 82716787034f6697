import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { SERVICES } from "@/lib/business-content";
import { site } from "@/server/settings/site";

export const metadata: Metadata = {
  title: "About us",
  description: `Who ${site.name} is: our vision, our mission, what we offer and why customers choose us.`,
  openGraph: { title: `About us · ${site.name}` },
};

const REASONS = [
  ["One team, many services", "Cleaning on Monday, branded shirts on Wednesday and pies for Friday's meeting: one supplier you already trust."],
  ["Local and accountable", "We are a small South African business. You deal with the people who do the work, and we answer the phone."],
  ["Fair, clear prices", "Prices in rands on every product, no hidden fees. Pay by EFT and upload your proof of payment in seconds."],
  ["Careful people", "Every team member is vetted, trained and insured, because they work in your home and your office."],
] as const;

export default function AboutPage() {
  return (
    <main className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-widest text-brand-700">About {site.name}</p>
        <h1 className="mt-3 text-3xl font-bold sm:text-5xl">My World. Your World. Our World.</h1>
      </header>

      <section aria-labelledby="who-heading" className="mt-12 grid gap-8 md:grid-cols-3">
        <h2 id="who-heading" className="text-2xl font-bold">
          Who we are
        </h2>
        <div className="space-y-4 text-lg leading-relaxed text-muted md:col-span-2">
          <p>
            {site.name} began as a two-person cleaning team and grew, one customer request at a time, into a multi-service business:
            cleaning and laundry, risk consulting and recruitment, embroidery and branding, office supply and stationery, and food
            made in our own kitchen.
          </p>
          <p>We serve households, small businesses and office parks, and we still treat every job as if it were for family.</p>
        </div>
      </section>

      <div className="mt-12 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="vision-heading" className="rounded-3xl bg-brand-800 p-8 text-white">
          <h2 id="vision-heading" className="text-2xl font-bold">
            Our vision
          </h2>
          <p className="mt-3 text-brand-50">
            To be the neighbourhood&apos;s most trusted partner for everyday services, where one call takes care of your home, your
            team and your table.
          </p>
        </section>
        <section aria-labelledby="mission-heading" className="rounded-3xl bg-accent-100 p-8">
          <h2 id="mission-heading" className="text-2xl font-bold text-ink">
            Our mission
          </h2>
          <p className="mt-3 text-ink">
            To deliver reliable, good-value services with care; to create decent local jobs; and to make doing business with us
            simple, from the first quote to the final invoice.
          </p>
        </section>
      </div>

      <section aria-labelledby="offer-heading" className="mt-12">
        <h2 id="offer-heading" className="text-2xl font-bold">
          What we offer
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {SERVICES.map((service) => (
            <li key={service.name} className="rounded-2xl border border-line bg-white p-5">
              <h3 className="font-semibold">{service.name}</h3>
              <p className="mt-2 text-sm text-muted">{service.summary}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="why-heading" className="mt-12">
        <h2 id="why-heading" className="text-2xl font-bold">
          Why choose us
        </h2>
        <dl className="mt-6 grid gap-6 sm:grid-cols-2">
          {REASONS.map(([title, text]) => (
            <div key={title} className="border-l-4 border-accent-500 pl-4">
              <dt className="font-semibold">{title}</dt>
              <dd className="mt-1 text-muted">{text}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="mt-12 flex flex-wrap gap-3">
        <Link href="/products" className={buttonClasses("accent")}>
          Browse our products
        </Link>
        <Link href="/contact" className={buttonClasses("outline")}>
          Get in touch
        </Link>
      </div>
    </main>
  );
}
