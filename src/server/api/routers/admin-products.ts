import { TRPCError } from "@trpc/server";
import { availabilityInput, categoryNameInput, createProductInput, productIdInput, updateProductInput } from "@/lib/admin-schemas";
import { messages } from "@/lib/messages";
import { revalidateCatalogue } from "@/server/admin/revalidate";
import { adminProcedure, createTRPCRouter } from "@/server/api/trpc";
import { productImageUrl } from "@/server/catalogue/catalogue-queries";
import { sqlState } from "@/server/db/sql-errors";
import type { StoredObject } from "@/server/ports/storage";
import { readImageUpload } from "@/server/uploads/read-upload";

const m = messages.admin;
const BUCKET = "products-services" as const;

function fail(message: string, cause: unknown): never {
  if (cause instanceof TRPCError) throw cause;
  throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message, cause });
}

export const adminProductsRouter = createTRPCRouter({
  /** Every product, available or not, newest first. */
  list: adminProcedure.query(async ({ ctx }) => {
    try {
      const rows = await ctx.db.transaction((trx) =>
        trx
          .selectFrom("products as p")
          .innerJoin("categories as c", "c.id", "p.category_id")
          .select(["p.id", "p.name", "p.description", "p.price", "p.image_path", "p.available", "p.created_at", "p.category_id", "c.name as category"])
          .orderBy("p.created_at", "desc")
          .execute(),
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        price: Number(row.price),
        priceText: row.price,
        categoryId: row.category_id,
        imageUrl: row.image_path?.startsWith("/") ? row.image_path : row.image_path ? ctx.storage.publicUrl({ bucket: BUCKET, path: row.image_path }) : productImageUrl(null),
        available: row.available,
        category: row.category,
        createdAt: new Date(row.created_at),
      }));
    } catch (error) {
      fail(m.fetchProductsFailed, error);
    }
  }),

  categories: adminProcedure.query(({ ctx }) =>
    ctx.db.transaction((trx) => trx.selectFrom("categories").select(["id", "name"]).orderBy("name").execute()),
  ),

  addCategory: adminProcedure.input(categoryNameInput).mutation(async ({ ctx, input }) => {
    try {
      const category = await ctx.db.transaction((trx) =>
        trx.insertInto("categories").values({ name: input.name }).returning(["id", "name"]).executeTakeFirstOrThrow(),
      );
      revalidateCatalogue();
      return { category, message: m.categoryAdded(category.name) };
    } catch (error) {
      if (sqlState(error) === "23505") throw new TRPCError({ code: "CONFLICT", message: m.categoryExists(input.name), cause: error });
      fail(m.addCategoryFailed, error);
    }
  }),

  /** Adds a product: the image is checked by content, stored at products-services/{timestamp}_{filename}. */
  create: adminProcedure.input(createProductInput).mutation(async ({ ctx, input }) => {
    const upload = await readImageUpload(input.image);
    const image: StoredObject = { bucket: BUCKET, path: `${Date.now()}_${upload.fileName}` };
    try {
      await ctx.storage.upload(ctx.db, image, upload.bytes, upload.type);
    } catch (error) {
      fail(m.addProductFailed, error);
    }
    try {
      const product = await ctx.db.transaction((trx) =>
        trx
          .insertInto("products")
          .values({ name: input.name, description: input.description, price: input.price, category_id: input.categoryId, image_path: image.path })
          .returning(["id", "name"])
          .executeTakeFirstOrThrow(),
      );
      revalidateCatalogue();
      return { id: product.id, message: m.productAdded(product.name) };
    } catch (error) {
      await ctx.storage.remove(ctx.db, image).catch((cause: unknown) => console.error("[admin] could not remove an unused image:", cause));
      fail(m.addProductFailed, error);
    }
  }),

  /** Edits a product; a new image replaces the old one (which is then removed from storage). */
  update: adminProcedure.input(updateProductInput).mutation(async ({ ctx, input }) => {
    const upload = input.image ? await readImageUpload(input.image) : undefined;
    const image: StoredObject | undefined = upload ? { bucket: BUCKET, path: `${Date.now()}_${upload.fileName}` } : undefined;
    if (upload && image) {
      try {
        await ctx.storage.upload(ctx.db, image, upload.bytes, upload.type);
      } catch (error) {
        fail(m.updateProductFailed, error);
      }
    }
    try {
      const result = await ctx.db.transaction(async (trx) => {
        const before = await trx.selectFrom("products").select("image_path").where("id", "=", input.id).executeTakeFirst();
        if (!before) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
        const product = await trx
          .updateTable("products")
          .set({
            name: input.name,
            description: input.description,
            price: input.price,
            category_id: input.categoryId,
            ...(image ? { image_path: image.path } : {}),
          })
          .where("id", "=", input.id)
          .returning("name")
          .executeTakeFirstOrThrow();
        return { name: product.name, oldImage: before.image_path };
      });
      if (image && result.oldImage && !result.oldImage.startsWith("/")) {
        await ctx.storage.remove(ctx.db, { bucket: BUCKET, path: result.oldImage }).catch((cause: unknown) => console.error("[admin] old image not removed:", cause));
      }
      revalidateCatalogue();
      return { message: m.productUpdated(result.name) };
    } catch (error) {
      if (image) await ctx.storage.remove(ctx.db, image).catch(() => {});
      fail(m.updateProductFailed, error);
    }
  }),

  setAvailability: adminProcedure.input(availabilityInput).mutation(async ({ ctx, input }) => {
    try {
      const product = await ctx.db.transaction((trx) =>
        trx.updateTable("products").set({ available: input.available }).where("id", "=", input.id).returning("name").executeTakeFirst(),
      );
      if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
      revalidateCatalogue();
      return { message: m.availabilityChanged(product.name, input.available) };
    } catch (error) {
      fail(m.updateAvailabilityFailed, error);
    }
  }),

  /** Deletes a product; past orders keep their copy (name and price), carts lose the line. */
  delete: adminProcedure.input(productIdInput).mutation(async ({ ctx, input }) => {
    try {
      const product = await ctx.db.transaction((trx) =>
        trx.deleteFrom("products").where("id", "=", input.id).returning(["name", "image_path"]).executeTakeFirst(),
      );
      if (!product) throw new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });
      if (product.image_path && !product.image_path.startsWith("/")) {
        await ctx.storage.remove(ctx.db, { bucket: BUCKET, path: product.image_path }).catch((cause: unknown) => console.error("[admin] image not removed:", cause));
      }
      revalidateCatalogue();
      return { message: m.productDeleted(product.name) };
    } catch (error) {
      fail(m.deleteProductFailed, error);
    }
  }),
});
