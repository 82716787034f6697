import { createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { listCatalogue, listCategories, productById, productsPage, productsRelatedTo, sitemapProducts } from "./read-catalogue";
import { productPictures } from "./read-pictures";
import { listProductsInput, productLookupInput } from "./schemas";

/** The storefront's catalogue, for everyone, through the one cached read path (catalogue.ts). */
export const catalogueRouter = createTRPCRouter({
  list: publicProcedure.input(listProductsInput).query(listCatalogue),
  categories: publicProcedure.query(listCategories),
  byId: publicProcedure.input(productLookupInput).query(productById),
  related: publicProcedure.input(productLookupInput).query(productsRelatedTo),
  /** One product's pictures, for its page's gallery. */
  pictures: publicProcedure.input(productLookupInput).query(productPictures),
  /** The products page: one page and whether another follows. */
  page: publicProcedure.input(listProductsInput).query(productsPage),
  /** Every available product, for the sitemap. */
  sitemap: publicProcedure.query(sitemapProducts),
});
