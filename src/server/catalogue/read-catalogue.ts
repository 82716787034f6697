import { TRPCError } from "@trpc/server";
import { PRODUCTS_PER_PAGE } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import type { CatalogueProduct, CatalogueProductDetail } from "./catalogue-queries";
import type { ListProductsInput, ProductLookupInput } from "./schemas";

type Ctx = Pick<TRPCContext, "catalogue">;

/** The most products a sitemap lists (the sitemap protocol's own limit per file is 50,000). */
export const MAX_SITEMAP_PRODUCTS = 50_000;

/** The products of one page of the shop (category, search, sort), as the storefront lists them. */
export function listCatalogue({ ctx, input }: { ctx: Ctx; input: ListProductsInput }): Promise<CatalogueProduct[]> {
  return ctx.catalogue.list(input);
}

/** The category tabs: the names of the categories that have available products. */
export function listCategories({ ctx }: { ctx: Ctx }): Promise<string[]> {
  return ctx.catalogue.categories();
}

/** One product's page; NOT_FOUND for an id the shop does not have. */
export async function productById({ ctx, input }: { ctx: Ctx; input: ProductLookupInput }): Promise<CatalogueProductDetail> {
  const product = await ctx.catalogue.product(input.id);
  if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
  return product;
}

/** The few other available products, newest first, shown under one product. */
export function productsRelatedTo({ ctx, input }: { ctx: Ctx; input: ProductLookupInput }): Promise<CatalogueProduct[]> {
  return ctx.catalogue.related(input.id);
}

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
