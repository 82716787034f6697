import type { SignedInLookup } from "@/server/kept-pages/signed-in-viewers";
import { headerCookieJar } from "@/server/ports/cookies";
import { createRequestServices } from "./request-services";
import type { ShopProcess } from "./shop-process";

/**
 * Who is signed in on a page load, for the kept pages' templates (src/server/kept-pages/): the
 * local session (kept in memory), the profile and the cart count (kept too), through the same
 * request services a page gets. Null where the page must be rendered for the caller: no valid
 * session, or Supabase mode (its sessions are Supabase's to check, which the rendered page does).
 */
export function signedInLookup(shop: ShopProcess): SignedInLookup {
  return {
    async userOf(cookieHeader) {
      if (shop.config.mode === "supabase") return null;
      const headers = new Headers({ cookie: cookieHeader });
      // Read only: the proxy has already renewed the token if it needed it.
      const { auth } = createRequestServices(shop, headerCookieJar(headers), headers);
      const user = await auth.currentUser();
      return user ? shop.sessionUsers.withCartCount(user) : null;
    },
    publicUrl: shop.publicUrl,
  };
}
