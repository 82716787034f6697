import { AVATAR_PLACEHOLDER, type PageViewerData } from "@/lib/page-viewer";
import type { PublicUrl } from "@/server/ports/storage";
import type { SessionUser } from "./session-user";

/** A signed-in user's own values as their pages show them (the header's picture, greeting, cart badge). */
export function pageViewerData(user: SessionUser, cartCount: number, publicUrl: PublicUrl): PageViewerData {
  return {
    id: user.id,
    displayName: user.displayName,
    avatarUrl: user.avatarPath ? publicUrl({ bucket: "avatars", path: user.avatarPath }) : AVATAR_PLACEHOLDER,
    cartCount: user.role === "admin" ? 0 : cartCount,
  };
}
