"use client";

import { messages } from "@/lib/messages";
import { AddPictures } from "./add-pictures";
import { PictureItem } from "./picture-item";
import { useProductPictures, type Show } from "./use-product-pictures";

const mp = messages.productPictures;

/** A product's pictures in Product Management (issue 37): in order, with alt text, one the card's; add more. */
export function ProductPictures({ productId, productName, show }: { productId: string; productName: string; show: Show }) {
  const actions = useProductPictures(productId, show);
  const { pictures } = actions;
  return (
    <section aria-label={mp.galleryLabel(productName)} className="rounded-2xl border border-line bg-white">
      {pictures.isPending ? (
        <p role="status" className="p-3">
          {mp.loading}
        </p>
      ) : pictures.isError ? (
        <p role="alert" className="p-3 text-danger">
          {mp.fetchFailed}
        </p>
      ) : (
        <>
          <ol className="divide-y divide-line" aria-label="Pictures, in order">
            {pictures.data.map((picture, index) => (
              <PictureItem key={`${picture.id}:${picture.alt}`} picture={picture} index={index} count={pictures.data.length} actions={actions} />
            ))}
          </ol>
          <div className="border-t border-line">
            <AddPictures productId={productId} count={pictures.data.length} actions={actions} show={show} />
          </div>
        </>
      )}
    </section>
  );
}
