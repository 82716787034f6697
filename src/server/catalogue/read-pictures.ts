import type { TRPCContext } from "@/server/api/trpc";
import type { ProductPicture } from "./picture-queries";
import type { ProductLookupInput } from "./schemas";

/** One product's pictures in the owner's order, for its page's gallery ([] for an unknown id: its page is a 404). */
export function productPictures({ ctx, input }: { ctx: Pick<TRPCContext, "catalogue">; input: ProductLookupInput }): Promise<ProductPicture[]> {
  return ctx.catalogue.pictures(input.id);
}
