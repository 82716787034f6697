import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import { createTRPCRouter, publicProcedure } from "@/server/api/trpc";
import { findProduct, listCategoryNames, listProducts, relatedProducts } from "@/server/catalogue/catalogue-queries";
import { listProductsInput, productIdInput } from "@/server/catalogue/catalogue-schemas";

export const catalogueRouter = createTRPCRouter({
  list: publicProcedure
    .input(listProductsInput)
    .query(({ ctx, input }) => ctx.db.transaction((trx) => listProducts(trx, input))),

  categories: publicProcedure.query(({ ctx }) => ctx.db.transaction((trx) => listCategoryNames(trx))),

  byId: publicProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = await ctx.db.transaction((trx) => findProduct(trx, input.id));
    if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
    return product;
  }),

  related: publicProcedure
    .input(productIdInput)
    .query(({ ctx, input }) => ctx.db.transaction((trx) => relatedProducts(trx, input.id))),
});
