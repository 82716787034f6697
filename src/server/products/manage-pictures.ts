import { TRPCError } from "@trpc/server";
import { MAX_PRODUCT_PICTURES } from "@/lib/constants";
import { messages } from "@/lib/messages";
import type { TRPCContext } from "@/server/api/trpc";
import { findProductPictures } from "@/server/catalogue/picture-queries";
import { sqlErrorCode } from "@/server/db/sql-errors";
import { readUpload } from "@/server/storage/read-upload";
import { removeQuietly, storeThenWrite, timestampedName, type StorageDeps } from "@/server/storage/store-upload";
import { deletePictureRow, insertPicture, movePictureRow, setCardPictureRow, updatePictureAlt } from "./picture-queries";

const mp = messages.productPictures;
const BUCKET = "products-services" as const;

type Ctx = Pick<TRPCContext, "db" | "storage" | "catalogue">;

/** The SQL functions' refusals (020_catalogue.sql) in the shop's words; undefined for anything else. */
function refusal(error: unknown): TRPCError | undefined {
  switch (sqlErrorCode(error)) {
    case "too_many_pictures":
      return new TRPCError({ code: "BAD_REQUEST", message: mp.tooMany(MAX_PRODUCT_PICTURES), cause: error });
    case "last_picture":
      return new TRPCError({ code: "BAD_REQUEST", message: mp.lastPicture, cause: error });
    case "picture_not_found":
      return new TRPCError({ code: "NOT_FOUND", message: mp.pictureNotFound, cause: error });
    case "product_not_found":
      return new TRPCError({ code: "NOT_FOUND", message: messages.catalogue.productNotFound, cause: error });
    default:
      return undefined;
  }
}

async function refused<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw refusal(error) ?? error;
  }
}

/** Removes pictures' files after the rows that named them are gone (seeded art in /public stays). */
export async function removePictureFiles(deps: StorageDeps, paths: Iterable<string | null>): Promise<void> {
  for (const path of new Set(paths)) {
    if (path && !path.startsWith("/")) await removeQuietly(deps, { bucket: BUCKET, path }, "a removed product picture");
  }
}

/** A product's pictures in order, for Product Management. */
export function listPictures({ ctx, input }: { ctx: Ctx; input: { productId: string } }) {
  return ctx.db.transaction((trx) => findProductPictures(trx, ctx.storage.publicUrl, input.productId));
}

/** Adds a picture: checked by content and re-encoded as every upload, stored before the row that names it. */
export async function addPicture({ ctx, input }: { ctx: Ctx; input: { productId: string; picture: File; alt: string } }) {
  const upload = await readUpload(input.picture, "product");
  const object = { bucket: BUCKET, path: timestampedName(upload.fileName) };
  const id = await storeThenWrite(
    ctx,
    { object, bytes: upload.bytes, contentType: upload.type },
    (trx) => insertPicture(trx, input.productId, object.path, input.alt),
    (cause) => refusal(cause) ?? cause,
  );
  ctx.catalogue.changed();
  return { id, message: mp.added };
}

export async function savePictureAlt({ ctx, input }: { ctx: Ctx; input: { id: string; alt: string } }) {
  const saved = await ctx.db.transaction((trx) => updatePictureAlt(trx, input.id, input.alt));
  if (!saved) throw new TRPCError({ code: "NOT_FOUND", message: mp.pictureNotFound });
  ctx.catalogue.changed();
  return { message: mp.altSaved };
}

/** Moves a picture one place up or down (at either end nothing moves). */
export async function movePicture({ ctx, input }: { ctx: Ctx; input: { id: string; direction: "up" | "down" } }) {
  const moved = await refused(ctx.db.transaction((trx) => movePictureRow(trx, input.id, input.direction === "up")));
  if (moved) ctx.catalogue.changed();
  return { message: mp.moved };
}

/** Makes a picture the one the product's card (and cart, and order lines) show. */
export async function setCardPicture({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  await refused(ctx.db.transaction((trx) => setCardPictureRow(trx, input.id)));
  ctx.catalogue.changed();
  return { message: mp.cardChosen };
}

/** Removes a picture, then its file; a product keeps at least one. */
export async function removePicture({ ctx, input }: { ctx: Ctx; input: { id: string } }) {
  const path = await refused(ctx.db.transaction((trx) => deletePictureRow(trx, input.id)));
  await removePictureFiles(ctx, [path]);
  ctx.catalogue.changed();
  return { message: mp.removed };
}
