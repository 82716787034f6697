import Link from "next/link";
import { site } from "@/server/settings/site";
import { navLinksFor } from "@/server/auth/access";
import { liveClientConfig } from "@/server/platform";
import { getRequestContext } from "@/trpc/request-context";
import { CartCount, LiveUpdates, LogoutButton } from "@/components/signed-in";
import { SiteNav } from "./site-nav";

/** The sticky header: brand, the role's navigation, the greeting and sign-in/out (spec §2). */
export async function SiteHeader() {
  const { user, storage } = await getRequestContext();
  const live = liveClientConfig();
  // Rendered here, on the server, and handed to the nav: visitors get none of it.
  const account = user ? (
    <>
      <Link href="/profile" className="shrink-0 rounded-full" aria-label="Your profile">
        {/* eslint-disable-next-line @next/next/no-img-element -- a small avatar from the shop's own storage */}
        <img
          src={user.avatarPath ? storage.publicUrl({ bucket: "avatars", path: user.avatarPath }) : "/avatar-placeholder.svg"}
          alt=""
          width={32}
          height={32}
          className="h-8 w-8 rounded-full object-cover"
          data-testid="nav-avatar"
        />
      </Link>
      <span className="px-3 py-2 text-sm text-muted" data-testid="greeting">
        Welcome, <span className="font-semibold text-ink">{user.displayName}</span>
      </span>
      <LogoutButton label="Sign Out" className="min-h-10 py-2" />
    </>
  ) : null;
  return (
    <header className="sticky top-0 z-40 border-b border-line bg-white/95 backdrop-blur">
      <div className="relative mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold text-brand-800">
          <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
            <circle cx="16" cy="16" r="15" fill="#0f5e57" />
            <path d="M5 17c4-5 9-5 11 0s7 5 11 0" stroke="#fbbf24" strokeWidth="2.5" fill="none" strokeLinecap="round" />
            <circle cx="16" cy="10" r="3" fill="#fbbf24" />
          </svg>
          {site.name}
        </Link>
        <SiteNav
          links={navLinksFor(user)}
          cartBadge={user?.role === "user" ? <CartCount /> : null}
          account={account}
        />
        {user ? <LiveUpdates config={live} viewer={{ id: user.id, role: user.role }} /> : null}
      </div>
    </header>
  );
}
