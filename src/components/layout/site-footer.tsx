import { Link } from "@/components/ui/link";
import { connection } from "next/server";
import { goLiveMessages } from "@/lib/messages";
import { caller } from "@/trpc/caller";
import { site } from "@/server/settings/site";

/**
 * The footer: quick links and the business's contact details from the shop settings (spec §2);
 * in production a detail still at its demo value is left out (settings.published gives it blank).
 */
export async function SiteFooter() {
  // Per request, never at build time (the layout is dynamic anyway; this keeps the footer so on its own).
  await connection();
  const { contact } = await caller.settings.published();
  return (
    <footer className="render-when-near mt-16 [--render-near-height:32rem] bg-brand-900 text-brand-50 print:hidden">
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
          <address className="mt-3 space-y-2 text-sm not-italic text-brand-100" data-testid="footer-contact">
            {contact.address ? <p>{contact.address}</p> : null}
            {contact.phone ? <p><a className="hover:underline" href={`tel:${contact.phone.replace(/[^+0-9]/g, "")}`}>{contact.phone}</a></p> : null}
            {contact.email ? <p><a className="hover:underline" href={`mailto:${contact.email}`}>{contact.email}</a></p> : null}
            {contact.hours ? <p>{contact.hours}</p> : null}
            {!contact.phone && !contact.email && !contact.address ? (
              <p><Link className="hover:underline" href="/contact">{goLiveMessages.footerContactLink}</Link></p>
            ) : null}
          </address>
        </div>
      </div>
      <p className="border-t border-brand-800 py-4 text-center text-xs text-brand-100">
        © {new Date().getFullYear()} {site.name}. Prices in South African rand.
      </p>
    </footer>
  );
}
