"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { NavLink } from "@/server/auth/access";

/** The admin pages' navigation: compact tabs, the current page marked. */
export function AdminNav({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Admin" className="border-b border-line bg-white">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 py-2 sm:px-6">
        {links.map((link) => {
          const current = pathname.startsWith(link.href);
          return (
            <li key={link.href} className="shrink-0">
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={`block rounded-lg px-3 py-1.5 text-sm font-medium transition ${current ? "bg-brand-700 text-white" : "text-ink hover:bg-brand-50"}`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
