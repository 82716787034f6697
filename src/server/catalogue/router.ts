import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { productsPage, sitemapProducts } from "./read-catalogue";
import { listProductsInput, productLookupInput } from "./schemas";

/** The storefront's catalogue, for everyone, through the one cached read path (catalogue.ts). */
export const catalogueRouter = createTRPCRouter({
  list: publicProcedure.input(listProductsInput).query(({ ctx, input }) => ctx.catalogue.list(input)),
  categories: publicProcedure.query(({ ctx }) => ctx.catalogue.categories()),
  byId: publicProcedure.input(productLookupInput).query(async ({ ctx, input }) => {
    const product = await ctx.catalogue.product(input.id);
    if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
    return product;
  }),
  related: publicProcedure.input(productLookupInput).query(({ ctx, input }) => ctx.catalogue.related(input.id)),
  /** The products page: one page and whether another follows. */
  page: publicProcedure.input(listProductsInput).query(productsPage),
  /** Every available product, for the sitemap. */
  sitemap: publicProcedure.query(sitemapProducts),
});
