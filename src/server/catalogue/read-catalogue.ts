import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import type { TRPCContext } from "@/server/api/trpc";
import type { CatalogueProduct } from "./catalogue-queries";
import type { ListProductsInput } from "./schemas";

type Ctx = Pick<TRPCContext, "catalogue">;

/** The most products a sitemap lists (the sitemap protocol's own limit per file is 50,000). */
export const MAX_SITEMAP_PRODUCTS = 50_000;

/** One page of the shop's products, and whether another follows (read one more than a page, not counted). */
export async function productsPage({ ctx, input }: { ctx: Ctx; input: ListProductsInput }): Promise<{ products: CatalogueProduct[]; hasNext: boolean }> {
  const perPage = input?.perPage ?? PRODUCTS_PER_PAGE;
  const products = await ctx.catalogue.list(input ?? {}, perPage + 1);
  return { products: products.slice(0, perPage), hasNext: products.length > perPage };
}

/** Every available product's id and date, for the sitemap. */
export async function sitemapProducts({ ctx }: { ctx: Ctx }): Promise<{ id: string; createdAt: string }[]> {
  const products = await ctx.catalogue.list({}, MAX_SITEMAP_PRODUCTS);
  return products.map((product) => ({ id: product.id, createdAt: product.createdAt }));
}
