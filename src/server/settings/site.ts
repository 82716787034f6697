import "server-only";

import { env } from "@/env";

/**
 * The shop's name and how it describes itself, in one place (SHOP_NAME and SHOP_TAGLINE override
 * the first two). The business's details the owner edits (bank account, contact details) are the
 * shop settings: `settings/shop-settings.ts`, docs/architecture.md#shop-settings.
 */
export const site = {
  name: env.SHOP_NAME ?? "Our World Services",
  tagline: env.SHOP_TAGLINE ?? "My World. Your World. Our World.",
  description:
    "Cleaning and laundry, risk consulting and recruitment, embroidery and branding, office supplies and stationery, and home-made food, from one trusted local team.",
} as const;
