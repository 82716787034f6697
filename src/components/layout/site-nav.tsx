"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { NavLink } from "@/server/auth/access";
import { buttonClasses } from "@/components/ui/button";

interface Props {
  links: NavLink[];
  /** The signed-in user's avatar, greeting and Sign Out, rendered on the server; null for visitors. */
  account: ReactNode;
  /** The cart link's item count (signed-in customers only). */
  cartBadge: ReactNode;
}

/**
 * The header's navigation: inline on wide screens, behind a menu button on phones. The
 * signed-in parts come in as rendered nodes, so a visitor's page loads no tRPC or React Query.
 *
 * The phone's menu is an HTML popover the button opens by itself: a tap works from the first
 * paint, before the page's scripts have run (on a throttled phone they take another second or
 * more), and the browser closes it on a tap outside or Escape. React follows its state for the
 * button's label and icon, and opens the menu itself where a browser has no popovers (Safari
 * before 17).
 */
export function SiteNav({ links, account, cartBadge }: Props) {
  const pathname = usePathname();
  const menu = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const nav = menu.current;
    if (!nav || !("showPopover" in nav)) return;
    const follow = () => setOpen(nav.matches(":popover-open"));
    // It may have been opened before React took the page.
    follow();
    nav.addEventListener("toggle", follow);
    return () => nav.removeEventListener("toggle", follow);
  }, []);
  // Another page closes it (the account's links navigate without a word to the menu).
  useEffect(() => {
    const nav = menu.current;
    if (nav && "hidePopover" in nav && nav.matches(":popover-open")) nav.hidePopover();
  }, [pathname]);
  const hasPopovers = () => Boolean(menu.current && "showPopover" in menu.current);
  const toggleWithoutPopovers = () => {
    if (!hasPopovers()) setOpen((v) => !v);
  };
  const close = () => {
    if (!hasPopovers()) setOpen(false);
    else if (menu.current?.matches(":popover-open")) menu.current.hidePopover();
  };

  const isCurrent = (href: string) => (href === "/" ? pathname === "/" : pathname.startsWith(href));
  const linkClass = (href: string) =>
    `rounded-lg px-3 py-2 text-sm font-medium transition ${isCurrent(href) ? "bg-brand-50 text-brand-800" : "text-ink hover:bg-brand-50"}`;

  const accountOrSignIn = account ?? (
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
        popoverTarget="site-menu"
        onClick={toggleWithoutPopovers}
      >
        <span className="sr-only">{open ? "Close menu" : "Open menu"}</span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
        </svg>
      </button>
      {/* Open, a popover sits in the top layer, fixed below the header (min-h-17); the browser's
          own popover styles (centred, bordered) are overridden, and on wide screens it is the
          inline navigation, never a popover. */}
      <nav
        ref={menu}
        id="site-menu"
        aria-label="Main"
        popover="auto"
        className={`${open ? "flex" : "hidden"} fixed inset-x-0 top-17 bottom-auto m-0 h-auto w-full max-w-none flex-col gap-1 overflow-visible border-0 border-b border-line bg-white p-4 text-ink shadow-md [&:popover-open]:flex md:static md:flex md:w-auto md:flex-row md:items-center md:border-0 md:bg-transparent md:p-0 md:shadow-none`}
      >
        <ul className="flex flex-col gap-1 md:flex-row md:items-center">
          {links.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                className={`block ${linkClass(link.href)}`}
                aria-current={isCurrent(link.href) ? "page" : undefined}
                onClick={close}
              >
                {link.label}
                {link.href === "/cart" ? cartBadge : null}
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-2 flex flex-col gap-2 border-t border-line pt-3 md:mt-0 md:ml-3 md:flex-row md:items-center md:border-0 md:pt-0">
          {accountOrSignIn}
        </div>
      </nav>
    </>
  );
}
