import { pageViewerData } from "@/server/auth/page-viewer";
import type { SignedInViewer } from "@/server/http/signed-in-pages";
import { headerCookieJar } from "@/server/ports/cookies";
import { createRequestServices } from "./request-services";
import type { ShopProcess } from "./shop-process";

/**
 * Who is signed in on a page load, for the proxy's kept templates: the local session (kept in
 * memory), the profile and the cart count (kept too), through the same request services a page
 * gets. Null where the page must be rendered for the caller: no valid session, or Supabase mode
 * (its sessions are Supabase's to check, which the rendered page does).
 */
export function signedInViewers(shop: ShopProcess) {
  return async (cookieHeader: string): Promise<SignedInViewer | null> => {
    if (shop.config.mode === "supabase") return null;
    const headers = new Headers({ cookie: cookieHeader });
    // Read only: the proxy has already renewed the token if it needed it.
    const { auth } = createRequestServices(shop, headerCookieJar(headers), headers);
    const user = await auth.currentUser();
    if (!user) return null;
    const found = await shop.sessionUsers.withCartCount(user);
    return found ? { role: found.user.role, data: pageViewerData(found.user, found.cartCount, shop.publicUrl) } : null;
  };
}
