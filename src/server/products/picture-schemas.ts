import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";

const mp = messages.productPictures;

/** A picture's alt text: what it shows, for people who cannot see it (product_images.alt's check). */
export const pictureAltText = z.string().trim().min(1, mp.altRequired).max(200, mp.altTooLong);

export const productPicturesInput = z.object({ productId: z.uuid(messages.catalogue.productNotFound) });

/** Add a picture (multipart: the picture is a file), one per request: each is re-encoded on its own. */
export const addPictureInput = z
  .instanceof(FormData)
  .transform((form) => ({ productId: form.get("productId"), picture: form.get("picture"), alt: form.get("alt") ?? "" }))
  .pipe(
    z.object({
      productId: z.uuid(messages.catalogue.productNotFound),
      picture: z.custom<File>((value) => value instanceof File && (value.size > 0 || value.name !== ""), mp.pictureRequired),
      alt: pictureAltText,
    }),
  );

export const pictureIdInput = z.object({ id: z.uuid(mp.pictureNotFound) });
export const pictureAltInput = pictureIdInput.extend({ alt: pictureAltText });
export const movePictureInput = pictureIdInput.extend({ direction: z.enum(["up", "down"]) });
