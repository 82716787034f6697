"use client";

import { Link } from "@/components/ui/link";
import { createContext, useContext } from "react";
import { isPageViewerData, VIEWER_DATA_ID, VIEWER_SLOTS, type PageViewerData } from "@/lib/page-viewer";

/**
 * The signed-in viewer's values, from the server (a page rendered for them) or null (a role's
 * template: the values are in the page it was filled into, see src/lib/page-viewer.ts).
 */
const ViewerContext = createContext<PageViewerData | null>(null);

export function ViewerProvider({ viewer, children }: { viewer: PageViewerData | null; children: React.ReactNode }) {
  return <ViewerContext.Provider value={viewer}>{children}</ViewerContext.Provider>;
}

let inPage: PageViewerData | null | undefined;

/** The values a filled template was served with (read once: they belong to this page load). */
function viewerInPage(): PageViewerData | null {
  if (inPage === undefined) {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(document.getElementById(VIEWER_DATA_ID)?.textContent ?? "null");
    } catch {
      // Not there, or not ours: render the slots' fallback below.
    }
    inPage = isPageViewerData(parsed) ? parsed : null;
  }
  return inPage;
}

/**
 * The signed-in viewer's own values: the server's where it rendered them; in a filled template,
 * the values its response carries (in the browser), or null while the template itself is
 * rendered on the server, when components put VIEWER_SLOTS where the values go.
 */
export function useViewer(): PageViewerData | null {
  const fromServer = useContext(ViewerContext);
  if (fromServer) return fromServer;
  return typeof document === "undefined" ? null : viewerInPage();
}

/** The header's profile picture (a link to the profile) and greeting. */
export function AccountSummary() {
  const viewer = useViewer();
  return (
    <>
      <Link href="/profile" className="shrink-0 rounded-full" aria-label="Your profile">
        {/* eslint-disable-next-line @next/next/no-img-element -- a small avatar from the shop's own storage */}
        <img
          src={viewer ? viewer.avatarUrl : VIEWER_SLOTS.avatarUrl}
          alt=""
          width={32}
          height={32}
          className="h-8 w-8 rounded-full object-cover"
          data-testid="nav-avatar"
        />
      </Link>
      <span className="px-3 py-2 text-sm text-muted" data-testid="greeting">
        Welcome, <span className="font-semibold text-ink">{viewer ? viewer.displayName : VIEWER_SLOTS.displayName}</span>
      </span>
    </>
  );
}
