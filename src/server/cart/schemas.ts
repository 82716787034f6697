import { z } from "@/lib/zod";

export const productRefInput = z.object({ productId: z.uuid("Unknown product.") });
export type ProductRefInput = z.infer<typeof productRefInput>;
