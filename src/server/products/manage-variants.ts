import { TRPCError } from "@trpc/server";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { sqlErrorCode, sqlState } from "@/server/db/sql-errors";
import { readVariants, saveOptions, savePersonalisationFields, updateVariant } from "./product-queries";
import type { SaveOptionsInput, SavePersonalisationInput, SaveVariantsInput } from "./schemas";
import { variantLabel } from "@/lib/variants";

const v = messages.admin.variants;

type Ctx = Pick<TRPCContext, "db" | "catalogue">;

const notFound = () => new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });

/** A product's options and variants, as the admin's "Options and stock" panel edits them. */
export async function productVariants({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const found = await ctx.db.transaction((trx) => readVariants(trx, input.id));
  if (!found) throw notFound();
  return found;
}

/**
 * Sets a product's options; its variants become their combinations (save_product_options():
 * kept combinations keep their price, SKU and stock; removed ones leave carts).
 */
export async function setOptions({ ctx, input }: { ctx: Ctx; input: SaveOptionsInput }) {
  try {
    const result = await ctx.db.transaction(async (trx) => {
      const count = await saveOptions(trx, input.productId, input.options);
      const product = await readVariants(trx, input.productId);
      return { count, name: product?.name ?? "" };
    });
    ctx.catalogue.changed();
    return { message: v.optionsSaved(result.name, result.count) };
  } catch (error) {
    const code = sqlErrorCode(error);
    if (code === "product_not_found") throw notFound();
    if (code === "too_many_variants") throw new TRPCError({ code: "BAD_REQUEST", message: v.tooManyVariants, cause: error });
    throw error;
  }
}

/** Saves the variants' SKU, price, availability, stock, low-stock mark and picture, all or none. */
export async function setVariants({ ctx, input }: { ctx: Ctx; input: SaveVariantsInput }) {
  try {
    const name = await ctx.db.transaction(async (trx) => {
      const product = await readVariants(trx, input.productId);
      if (!product) throw notFound();
      for (const variant of input.variants) {
        const updated = await updateVariant(trx, input.productId, variant);
        if (updated.result === "unknown") throw new TRPCError({ code: "CONFLICT", message: v.variantUnknown });
        if (updated.result === "pictureUnknown") throw new TRPCError({ code: "CONFLICT", message: v.pictureUnknown });
        if (updated.result === "stockChanged") {
          const label = variantLabel(product.variants.find((row) => row.id === variant.id)?.optionValues ?? [], product.name);
          throw new TRPCError({ code: "CONFLICT", message: v.stockChanged(label, updated.now) });
        }
      }
      return product.name;
    });
    ctx.catalogue.changed();
    return { message: v.variantsSaved(name) };
  } catch (error) {
    if (sqlState(error) === "23505") {
      const taken = input.variants.find((variant) => variant.sku && String((error as { detail?: unknown }).detail ?? "").toLowerCase().includes(variant.sku.toLowerCase()));
      throw new TRPCError({ code: "CONFLICT", message: v.skuTaken(taken?.sku ?? ""), cause: error });
    }
    throw error;
  }
}

/** Sets what the product asks customers to add to their line (texts, a logo), all or none. */
export async function setPersonalisation({ ctx, input }: { ctx: Ctx; input: SavePersonalisationInput }) {
  const name = await ctx.db.transaction(async (trx) => {
    const product = await readVariants(trx, input.productId);
    if (!product) throw notFound();
    if (!(await savePersonalisationFields(trx, input.productId, input.fields))) throw new TRPCError({ code: "CONFLICT", message: v.variantUnknown });
    return product.name;
  });
  ctx.catalogue.changed();
  return { message: v.personalisationSaved(name) };
}
