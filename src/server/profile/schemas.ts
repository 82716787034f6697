import { z } from "@/lib/zod";
import { messages } from "@/lib/messages";

/** A new profile picture (multipart). */
export const avatarInput = z
  .instanceof(FormData)
  .transform((form) => ({ image: form.get("image") }))
  .pipe(z.object({ image: z.custom<File>((value) => value instanceof File && value.size > 0, messages.profile.uploadFailed) }));
