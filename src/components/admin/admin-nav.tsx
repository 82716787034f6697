"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { messages } from "@/lib/messages";
import type { NavLink } from "@/server/auth/access";
import { NoticeSoundSwitch } from "./notices/notice-sound-switch";
import { NOTICE_PAGES, useUnseenNotices, type NoticeKind } from "./notices/unseen-notices";

const KIND_OF_PAGE = new Map<string, NoticeKind>(Object.entries(NOTICE_PAGES).map(([kind, href]) => [href, kind as NoticeKind]));

/**
 * The admin pages' navigation: compact tabs, the current page marked, new orders and messages
 * counted. On a phone every tab is on screen at once (a grid of thumb-sized tabs, no strip to
 * scroll) with the sound switch on the row under it; from `sm` one row, the switch at its end.
 * The tabs are whatever `links` holds, in its order.
 */
export function AdminNav({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  const unseen = useUnseenNotices();
  return (
    <nav aria-label="Admin" className="border-b border-line bg-white print:hidden">
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-3 py-2 sm:flex-row sm:items-center sm:gap-2 sm:px-6">
        <ul className="grid min-w-0 flex-1 grid-cols-3 gap-1 sm:flex sm:flex-wrap">
          {links.map((link) => {
            const current = pathname.startsWith(link.href);
            const kind = KIND_OF_PAGE.get(link.href);
            const count = kind ? unseen[kind].length : 0;
            return (
              <li key={link.href} className="min-w-0 sm:shrink-0">
                <Link
                  href={link.href}
                  aria-current={current ? "page" : undefined}
                  className={`flex min-h-11 items-center justify-center gap-1.5 rounded-lg px-2 text-center text-sm leading-tight font-medium transition sm:min-h-9 sm:px-3 ${current ? "bg-brand-700 text-white" : "text-ink hover:bg-brand-50"}`}
                >
                  {link.label}
                  {/* Read out as "Orders 2 new"; the flex gap does the spacing on screen. */}
                  {count > 0 ? " " : null}
                  {count > 0 ? (
                    <span data-testid={`unseen-${kind}`} className="tabular rounded-full bg-accent-600 px-1.5 text-xs leading-5 font-semibold text-white">
                      {count > 99 ? "99+" : count}
                      <span className="sr-only"> {messages.adminNotices.unseen}</span>
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="flex justify-end">
          <NoticeSoundSwitch />
        </div>
      </div>
    </nav>
  );
}
