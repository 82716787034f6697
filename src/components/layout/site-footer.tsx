import Link from "next/link";
import { site } from "@/server/settings/site";

/** The footer: quick links and the business's contact details (spec §2). */
export function SiteFooter() {
  return (
    <footer className="mt-16 bg-brand-900 text-brand-50">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-3 sm:px-6">
        <div>
          <p className="text-lg font-bold text-white">{site.name}</p>
          <p className="mt-2 text-sm text-brand-100">{site.tagline}</p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Quick links</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li><Link className="hover:underline" href="/about">About</Link></li>
            <li><Link className="hover:underline" href="/contact">Contact</Link></li>
            <li><Link className="hover:underline" href="/products">Products</Link></li>
            <li><Link className="hover:underline" href="/terms">Terms &amp; Conditions</Link></li>
            <li><Link className="hover:underline" href="/privacy">Privacy Policy</Link></li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contact us</h2>
          <address className="mt-3 space-y-2 text-sm not-italic text-brand-100">
            <p>{site.address}</p>
            <p><a className="hover:underline" href={`tel:${site.phone.replace(/\s/g, "")}`}>{site.phone}</a></p>
            <p><a className="hover:underline" href={`mailto:${site.email}`}>{site.email}</a></p>
            <p>{site.hours}</p>
          </address>
        </div>
      </div>
      <p className="border-t border-brand-800 py-4 text-center text-xs text-brand-100">
        © {new Date().getFullYear()} {site.name}. Prices in South African rand.
      </p>
    </footer>
  );
}
