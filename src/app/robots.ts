import type { MetadataRoute } from "next";
import { env } from "@/env";

export default function robots(): MetadataRoute.Robots {
  const origin = env.SITE_URL ?? "http://localhost:3000";
  return {
    rules: { userAgent: "*", allow: "/", disallow: ["/admin/", "/cart", "/checkout", "/profile", "/api/", "/files/payments/"] },
    sitemap: `${origin}/sitemap.xml`,
  };
}
