/**
 * Who is signed in on a page load, for serving their role's template with their own values.
 *
 * The platform knows (it lives in the app's bundle; the proxy must not load the database), and
 * hands its lookup over on globalThis once it has started (`provideSignedInLookup`). Until then,
 * and wherever it cannot tell cheaply (Supabase mode, a session it does not know, an error), the
 * page is rendered for the caller as before: never served from a template without the caller's
 * own values.
 */
import type { PageViewerData } from "@/lib/page-viewer";
import { pageViewerData } from "@/server/auth/page-viewer";
import type { SessionUserWithCart } from "@/server/auth/session-user";
import type { PublicUrl } from "@/server/ports/storage";
import type { UserRole } from "@/lib/statuses";

/** What the platform tells the kept pages about page loads. */
export interface SignedInLookup {
  /** The signed-in user of a page load's Cookie header, with their cart count; null where that cannot be told here. */
  userOf(cookieHeader: string): Promise<SessionUserWithCart | null>;
  /** A stored file's URL in this run mode (the profile picture's). */
  publicUrl: PublicUrl;
}

/** A signed-in caller as a page shows them: their role picks the template, their values fill it. */
export interface SignedInViewer {
  role: UserRole;
  data: PageViewerData;
}

const LOOKUP_KEY = Symbol.for("our-world-shop.signed-in-lookup");
const globalForLookup = globalThis as typeof globalThis & { [LOOKUP_KEY]?: SignedInLookup };

/** The platform's way of telling who is signed in (called once it has started). */
export function provideSignedInLookup(lookup: SignedInLookup): void {
  globalForLookup[LOOKUP_KEY] = lookup;
}

/** The caller of a page load as their page shows them, or null: render the page as usual. */
export async function signedInViewer(cookieHeader: string): Promise<SignedInViewer | null> {
  const lookup = globalForLookup[LOOKUP_KEY];
  if (!lookup) return null;
  try {
    const found = await lookup.userOf(cookieHeader);
    return found ? { role: found.user.role, data: pageViewerData(found.user, found.cartCount, lookup.publicUrl) } : null;
  } catch (error) {
    console.error("[pages] could not tell who is signed in; rendering the page:", error);
    return null;
  }
}
