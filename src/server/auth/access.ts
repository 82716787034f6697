import type { SessionUser } from "./session-user";

/** The guarded areas of the shop (spec §2, docs/architecture.md#decisions-on-the-spec). */
export type Area = "signed-in" | "customer" | "admin";

/**
 * Who may enter an area, and where everyone else goes: visitors to sign in; admins away from
 * cart and checkout to their dashboard; non-admins away from admin pages to their profile.
 */
export function accessDecision(user: Pick<SessionUser, "role"> | null, area: Area): { allowed: true } | { allowed: false; redirectTo: string } {
  if (!user) return { allowed: false, redirectTo: "/auth/signin" };
  if (area === "customer" && user.role === "admin") return { allowed: false, redirectTo: "/admin/dashboard" };
  if (area === "admin" && user.role !== "admin") return { allowed: false, redirectTo: "/profile" };
  return { allowed: true };
}

export interface NavLink {
  href: string;
  label: string;
}

/** The admin pages both navigations name, each by one name (spec §2: the header's Dashboard and Orders). */
const PRODUCT_DASHBOARD: NavLink = { href: "/admin/dashboard", label: "Dashboard" };
const ORDER_MANAGEMENT: NavLink = { href: "/admin/orders", label: "Orders" };

/** The navigation bar's links for a caller (spec §2). */
export function navLinksFor(user: Pick<SessionUser, "role"> | null): NavLink[] {
  const links: NavLink[] = [
    { href: "/", label: "Home" },
    { href: "/about", label: "About" },
    { href: "/contact", label: "Contact" },
  ];
  if (user?.role === "admin") {
    links.push(PRODUCT_DASHBOARD, ORDER_MANAGEMENT);
  } else {
    links.push({ href: "/products", label: "Products" }, { href: "/cart", label: "Cart" });
  }
  return links;
}

/**
 * The admin pages' own navigation, above each of them: every admin page, the ones the header
 * leaves out too (the spec's header has Dashboard and Orders; more would not fit at tablet width).
 */
export const ADMIN_LINKS: [NavLink, ...NavLink[]] = [
  { href: "/admin/overview", label: "Overview" },
  PRODUCT_DASHBOARD,
  ORDER_MANAGEMENT,
  { href: "/admin/bookings", label: "Bookings" },
  { href: "/admin/quotes", label: "Quotes" },
  { href: "/admin/messages", label: "Messages" },
  { href: "/admin/outbox", label: "Outbox" },
  { href: "/admin/settings", label: "Shop settings" },
];
