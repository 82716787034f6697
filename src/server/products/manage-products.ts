import { TRPCError } from "@trpc/server";
import { messages, quoteMessages } from "@/lib/messages";
import type { QuoteMode } from "@/lib/statuses";
import type { TRPCContext } from "@/server/api/trpc";
import type { Tx } from "@/server/db/as-caller";
import { sqlState } from "@/server/db/sql-errors";
import type { StoredObject } from "@/server/ports/storage";
import { readUpload } from "@/server/storage/read-upload";
import { removeQuietly, storeThenWrite, timestampedName } from "@/server/storage/store-upload";
import { removePictureFiles } from "./manage-pictures";
import { picturePaths } from "./picture-queries";
import { deleteProductRow, insertCategory, insertProduct, listAllProducts, listCategories, setProductAvailability, setProductQuoteMode, updateProductRow, type ProductValues } from "./product-queries";

const m = messages.admin;
const BUCKET = "products-services" as const;

type Ctx = Pick<TRPCContext, "db" | "storage" | "catalogue">;

const notFound = () => new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound });

/** An uploaded product image's place: products-services/{timestamp}_{filename}. */
function imageObject(fileName: string): StoredObject {
  return { bucket: BUCKET, path: timestampedName(fileName) };
}

/** Seeded art lives in /public and is never removed; uploads live in storage. */
async function removeOldImage(ctx: Ctx, path: string | null) {
  if (path && !path.startsWith("/")) await removeQuietly(ctx, { bucket: BUCKET, path }, "a replaced product image");
}

export async function listProducts({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listAllProducts(trx, ctx.storage.publicUrl));
}

export function categories({ ctx }: { ctx: Ctx }) {
  return ctx.db.transaction((trx) => listCategories(trx));
}

export async function addCategory({ ctx, input }: { ctx: Ctx; input: { name: string } }) {
  try {
    const category = await ctx.db.transaction((trx) => insertCategory(trx, input.name));
    ctx.catalogue.changed();
    return { category, message: m.categoryAdded(category.name) };
  } catch (error) {
    if (sqlState(error) === "23505") throw new TRPCError({ code: "CONFLICT", message: m.categoryExists(input.name), cause: error });
    throw error;
  }
}

/** Adds a product: the image is checked by content and stored before the row that names it. */
export async function createProduct({ ctx, input }: { ctx: Ctx; input: ProductValues & { image: File } }) {
  const upload = await readUpload(input.image, "product");
  const image = imageObject(upload.fileName);
  const product = await storeThenWrite(ctx, { object: image, bytes: upload.bytes, contentType: upload.type }, (trx) => insertProduct(trx, input, image.path));
  ctx.catalogue.changed();
  return { id: product.id, message: m.productAdded(product.name) };
}

/** Edits a product; a new image replaces the old one (which is then removed from storage). */
export async function updateProduct({ ctx, input }: { ctx: Ctx; input: ProductValues & { id: string; image: File | null } }) {
  const write = (imagePath?: string) => async (trx: Tx) => {
    const result = await updateProductRow(trx, input.id, input, imagePath);
    if (!result) throw notFound();
    return result;
  };
  let result: { name: string; oldImage: string | null };
  if (input.image) {
    const upload = await readUpload(input.image, "product");
    const image = imageObject(upload.fileName);
    result = await storeThenWrite(ctx, { object: image, bytes: upload.bytes, contentType: upload.type }, write(image.path));
    await removeOldImage(ctx, result.oldImage);
  } else {
    result = await ctx.db.transaction(write());
  }
  ctx.catalogue.changed();
  return { message: m.productUpdated(result.name) };
}

/** The owner's "Request a quote" setting of a product: the shop's pages show it at once. */
export async function setQuoteMode({ ctx, input }: { ctx: Ctx; input: { id: string; quoteMode: QuoteMode } }) {
  const product = await ctx.db.transaction((trx) => setProductQuoteMode(trx, input.id, input.quoteMode));
  if (!product) throw notFound();
  ctx.catalogue.changed();
  return { message: quoteMessages.modeSaved(product.name) };
}

export async function setAvailability({ ctx, input }: { ctx: Ctx; input: { id: string; available: boolean } }) {
  const product = await ctx.db.transaction((trx) => setProductAvailability(trx, input.id, input.available));
  if (!product) throw notFound();
  ctx.catalogue.changed();
  return { message: m.availabilityChanged(product.name, input.available) };
}

/** Deletes a product and its pictures' files; past orders keep their copy (name and price), carts lose the line. */
export async function deleteProduct({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const product = await ctx.db.transaction(async (trx) => {
    const pictures = await picturePaths(trx, input.id);
    const row = await deleteProductRow(trx, input.id);
    return row && { ...row, pictures };
  });
  if (!product) throw notFound();
  await removePictureFiles(ctx, [product.image_path, ...product.pictures]);
  ctx.catalogue.changed();
  return { message: m.productDeleted(product.name) };
}
