import type { MetadataRoute } from "next";
import { connection } from "next/server";
import { env } from "@/env";
import { caller } from "@/trpc/caller";

/** The shop's public pages and every available product; built at request time, never at build. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  await connection();
  const origin = env.SITE_URL ?? "http://localhost:3000";
  const products = await caller.catalogue.sitemap();
  const pages = ["", "/products", "/about", "/contact", "/terms", "/privacy"].map((path) => ({
    url: `${origin}${path}`,
    changeFrequency: "weekly" as const,
    priority: path === "" ? 1 : 0.8,
  }));
  return [
    ...pages,
    ...products.map((product) => ({
      url: `${origin}/products/${product.id}`,
      lastModified: product.createdAt,
      changeFrequency: "monthly" as const,
      priority: 0.6,
    })),
  ];
}
