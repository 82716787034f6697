import { Link } from "@/components/ui/link";
import { site } from "@/server/settings/site";
import { navLinksFor } from "@/server/auth/access";
import { getPageViewer } from "@/server/auth/guards";
import { liveClientConfig } from "@/server/platform/live-config";
import { LogoutButton } from "@/components/auth/logout-button";
import { AccountSummary, CartCount, LiveUpdates } from "@/components/signed-in";
import { SiteNav } from "./site-nav";

/**
 * The sticky header: brand, the role's navigation, the greeting and sign-in/out (spec §2). The
 * signed-in user's own values (picture, name, cart count) come from ViewerProvider (the layout),
 * so a role's template renders the same header with slots for them.
 */
export async function SiteHeader() {
  const viewer = await getPageViewer();
  const role = viewer.kind === "signed-in" ? viewer.role : null;
  const live = liveClientConfig();
  // Rendered here, on the server, and handed to the nav: visitors get none of it.
  const account = role ? (
    <>
      <AccountSummary />
      <LogoutButton label="Sign Out" className="min-h-10 py-2" />
    </>
  ) : null;
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-white/95 backdrop-blur print:hidden">
      {/* The row's final height from the first paint (12 px padding + the 44 px account and buttons):
          a first frame painted while the header was still arriving had the logo 6 px higher, and it
          moved when the rest came (the browser test caught 0.00004 of layout shift). */}
      <div className="relative mx-auto flex min-h-17 max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold text-brand-800">
          <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
            <circle cx="16" cy="16" r="15" fill="#0f5e57" />
            <path d="M5 17c4-5 9-5 11 0s7 5 11 0" stroke="#fbbf24" strokeWidth="2.5" fill="none" strokeLinecap="round" />
            <circle cx="16" cy="10" r="3" fill="#fbbf24" />
          </svg>
          {site.name}
        </Link>
        <SiteNav links={navLinksFor(role ? { role } : null)} cartBadge={role === "user" ? <CartCount /> : null} account={account} />
        {role ? <LiveUpdates config={live} role={role} /> : null}
      </div>
    </header>
  );
}
