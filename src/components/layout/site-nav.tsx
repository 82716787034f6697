"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import type { NavLink } from "@/server/auth/access";
import { api } from "@/trpc/react";
import { buttonClasses } from "@/components/ui/button";

interface Props {
  links: NavLink[];
  greeting: string | null;
  avatarUrl: string | null;
  /** Signed-in customers see how many items their cart holds. */
  showCartCount: boolean;
}

function CartCount() {
  const count = api.cart.count.useQuery(undefined, { staleTime: 5_000 });
  if (!count.data) return null;
  return (
    <span className="tabular ml-1.5 inline-flex min-w-6 items-center justify-center rounded-full bg-accent-600 px-1.5 text-xs font-bold text-white" data-testid="cart-count">
      <span className="sr-only">(</span>
      {count.data}
      <span className="sr-only"> items)</span>
    </span>
  );
}

/** The header's navigation: inline on wide screens, behind a menu button on phones. */
export function SiteNav({ links, greeting, avatarUrl, showCartCount }: Props) {
  const pathname = usePathname();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const signOut = api.auth.signOut.useMutation({
    onSettled: () => {
      router.push("/");
      router.refresh();
    },
    onError: (error) => console.error("Sign out failed:", error.message),
  });

  const isCurrent = (href: string) => (href === "/" ? pathname === "/" : pathname.startsWith(href));
  const linkClass = (href: string) =>
    `rounded-lg px-3 py-2 text-sm font-medium transition ${isCurrent(href) ? "bg-brand-50 text-brand-800" : "text-ink hover:bg-brand-50"}`;

  const account = greeting ? (
    <>
      {avatarUrl ? (
        <Link href="/profile" className="shrink-0 rounded-full" aria-label="Your profile">
          {/* eslint-disable-next-line @next/next/no-img-element -- a small avatar from the shop's own storage */}
          <img src={avatarUrl} alt="" width={32} height={32} className="h-8 w-8 rounded-full object-cover" data-testid="nav-avatar" />
        </Link>
      ) : null}
      <span className="px-3 py-2 text-sm text-muted" data-testid="greeting">
        Welcome, <span className="font-semibold text-ink">{greeting}</span>
      </span>
      <button type="button" className={buttonClasses("outline", "min-h-10 py-2")} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign Out
      </button>
    </>
  ) : (
    <>
      <Link href="/auth/signin" className={linkClass("/auth/signin")}>
        Sign In
      </Link>
      <Link href="/auth/signup" className={buttonClasses("accent", "min-h-10 py-2")}>
        Sign Up
      </Link>
    </>
  );

  return (
    <>
      <button
        type="button"
        className="rounded-lg p-2 text-ink hover:bg-brand-50 md:hidden"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={() => setOpen((v) => !v)}
      >
        <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
        </svg>
      </button>
      <nav
        id="site-menu"
        aria-label="Main"
        className={`${open ? "flex" : "hidden"} absolute inset-x-0 top-full flex-col gap-1 border-b border-line bg-white p-4 shadow-md md:static md:flex md:flex-row md:items-center md:border-0 md:bg-transparent md:p-0 md:shadow-none`}
      >
        <ul className="flex flex-col gap-1 md:flex-row md:items-center">
          {links.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                className={`block ${linkClass(link.href)}`}
                aria-current={isCurrent(link.href) ? "page" : undefined}
                onClick={() => setOpen(false)}
              >
                {link.label}
                {link.href === "/cart" && showCartCount ? <CartCount /> : null}
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-2 flex flex-col gap-2 border-t border-line pt-3 md:mt-0 md:ml-3 md:flex-row md:items-center md:border-0 md:pt-0">
          {account}
        </div>
      </nav>
    </>
  );
}
