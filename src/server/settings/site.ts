import "server-only";

import { env } from "@/env";

/**
 * The business's own details, in one place. Each default can be overridden by the environment
 * variable named beside it (see .env.example).
 */
export const site = {
  name: env.SHOP_NAME ?? "Our World Services",
  tagline: env.SHOP_TAGLINE ?? "My World. Your World. Our World.",
  description:
    "Cleaning and laundry, risk consulting and recruitment, embroidery and branding, office supplies and stationery, and home-made food, from one trusted local team.",
  email: env.SHOP_EMAIL ?? "hello@ourworldservices.co.za",
  phone: env.SHOP_PHONE ?? "+27 11 555 0142",
  address: env.SHOP_ADDRESS ?? "12 Market Street, Johannesburg, 2001",
  hours: env.SHOP_HOURS ?? "Mon–Fri 08:00–17:00, Sat 08:00–13:00",
  bank: {
    accountName: env.BANK_ACCOUNT_NAME ?? "Our World Services (Pty) Ltd",
    bankName: env.BANK_NAME ?? "First National Bank",
    accountNumber: env.BANK_ACCOUNT_NUMBER ?? "62812345678",
    branchCode: env.BANK_BRANCH_CODE ?? "250655",
  },
} as const;
