import { z } from "zod";

export const productRefInput = z.object({ productId: z.uuid("Unknown product.") });
