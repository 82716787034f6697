"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const mp = messages.productPictures;

export type Show = ReturnType<typeof useFlashMessage>["show"];

/**
 * A product's pictures in Product Management: the list and every change to it, each saying what
 * it did (or why not) and reading the list again, with the products' (their card pictures).
 */
export function useProductPictures(productId: string, show: Show) {
  const utils = api.useUtils();
  const pictures = api.adminProducts.pictures.useQuery({ productId });
  const refresh = () => Promise.all([utils.adminProducts.pictures.invalidate({ productId }), utils.adminProducts.list.invalidate()]);
  const said = (failure: string) => ({
    onSuccess: ({ message }: { message: string }) => show(message, "success"),
    onError: (error: { message: string }) => show(error.message || failure, "error"),
    onSettled: refresh,
  });
  const saveAlt = api.adminProducts.savePictureAlt.useMutation(said(mp.updateFailed));
  const move = api.adminProducts.movePicture.useMutation(said(mp.updateFailed));
  const setCard = api.adminProducts.setCardPicture.useMutation(said(mp.updateFailed));
  const remove = api.adminProducts.removePicture.useMutation(said(mp.removeFailed));
  // Adding sends one picture a request and speaks once for them all (add-pictures.tsx).
  const add = api.adminProducts.addPicture.useMutation();
  const busy = saveAlt.isPending || move.isPending || setCard.isPending || remove.isPending || add.isPending;
  return { pictures, saveAlt, move, setCard, remove, add, busy, refresh };
}

export type ProductPictures = ReturnType<typeof useProductPictures>;
