import { Link } from "@/components/ui/link";
import type { GoLiveItem } from "@/lib/constants";
import { goLiveMessages as m } from "@/lib/messages";
import type { GoLiveStatus } from "@/server/settings/go-live";

/** Where each item is fixed: a field of Shop settings (ids set by its forms), or the page that explains it. */
const FIX_AT: Record<GoLiveItem, string | null> = {
  bank: "/admin/settings#settings-bank-account-number",
  phone: "/admin/settings#settings-phone",
  email: "/admin/settings#settings-email",
  address: "/admin/settings#settings-address",
  informationOfficer: "/admin/settings#settings-information-officer",
  invoiceDetails: "/admin/settings#invoice-legal-name",
  collection: "/admin/settings#collection-address",
  payfastSandbox: "/admin/settings#payfast-sandbox",
  // Set on the server, not in the shop: the item says how.
  siteUrl: null,
  mail: "/admin/outbox",
  whatsapp: "/admin/settings#whatsapp-settings",
};

/** The go-live checklist at the top of Shop settings: every setting still demo or missing, each with where to fix it. */
export function GoLiveChecklist({ status }: { status: GoLiveStatus }) {
  const { items, production } = status;
  return (
    <section id="go-live" aria-labelledby="go-live-heading" className="rounded-3xl border border-accent-500 bg-accent-100/40 p-6" data-testid="go-live">
      <h2 id="go-live-heading" className="text-xl font-bold">
        {m.title}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm" data-testid="go-live-done">
          {m.done}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-muted">
            {m.intro} {production ? null : m.developmentNote}
          </p>
          <ul className="mt-4 divide-y divide-line" aria-label={m.title}>
            {items.map((item) => {
              const href = FIX_AT[item];
              return (
                <li key={item} className="flex flex-wrap items-start justify-between gap-2 py-3" data-testid={`go-live-${item}`}>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">{m.items[item].title}</p>
                    <p className="text-sm text-muted">{m.items[item].detail}</p>
                  </div>
                  {href ? (
                    <Link href={href} className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 underline hover:bg-brand-50" aria-label={`${m.fix}: ${m.items[item].title}`}>
                      {m.fix}
                    </Link>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
