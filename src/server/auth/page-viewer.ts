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

/*
 * A page can also be rendered for a role with nobody's values: the role's navigation and
 * buttons, and VIEWER_SLOTS where a user's values go (src/lib/page-viewer.ts), to be filled in
 * later by whoever asked. Only this server process may ask, with a secret that never leaves it,
 * since such a page shows a visitor the role's links; anyone else gets the page for who they are.
 */

/** The request header that asks for a role's template: `<secret> <role>`. */
export const TEMPLATE_HEADER = "x-shop-page-template";

type TemplateRole = SessionUser["role"];

const SECRET_KEY = Symbol.for("our-world-shop.template-secret");

/** Random per process; on globalThis because the proxy and the pages are separate bundles. */
function templateSecret(): string {
  const globalForSecret = globalThis as typeof globalThis & { [SECRET_KEY]?: string };
  return (globalForSecret[SECRET_KEY] ??= crypto.randomUUID());
}

/** The request headers with which this process asks itself for `role`'s template. */
export function templateRequest(role: TemplateRole): Record<string, string> {
  return { [TEMPLATE_HEADER]: `${templateSecret()} ${role}` };
}

/** The role whose template this request asks for (from this process only), or null: render for the caller. */
export function templateRoleOf(headers: Headers): TemplateRole | null {
  const [secret, role] = (headers.get(TEMPLATE_HEADER) ?? "").split(" ");
  if (secret !== templateSecret()) return null;
  return role === "user" || role === "admin" ? role : null;
}
