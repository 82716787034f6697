"use client";

import Image from "next/image";
import { useState } from "react";
import { messages } from "@/lib/messages";
import type { ProductPicture } from "@/server/catalogue/picture-queries";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import type { ProductPictures } from "./use-product-pictures";

const mp = messages.productPictures;

/** One of a product's pictures in Product Management: its alt text, its place, the card's or not, remove. */
export function PictureItem({ picture, index, count, actions }: { picture: ProductPicture; index: number; count: number; actions: ProductPictures }) {
  const [alt, setAlt] = useState(picture.alt);
  const position = index + 1;
  const { busy } = actions;
  const first = index === 0;
  const last = index === count - 1;

  function saveAlt(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) actions.saveAlt.mutate({ id: picture.id, alt });
  }

  return (
    <li className="flex flex-col gap-3 p-3 lg:flex-row lg:items-end">
      <div className="relative aspect-[4/3] w-28 shrink-0 overflow-hidden rounded-lg bg-brand-50">
        <Image src={picture.url} alt={picture.alt} fill sizes="112px" unoptimized={picture.url.endsWith(".svg")} className="object-cover" />
      </div>
      <form onSubmit={saveAlt} noValidate className="flex min-w-0 flex-1 items-end gap-2">
        <TextField label={mp.altLabel(position)} value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={200} className="min-w-0 flex-1" />
        <Button type="submit" variant="outline" aria-label={mp.saveAlt(position)} disabled={busy || alt === picture.alt}>
          Save
        </Button>
      </form>
      <div className="flex flex-wrap items-center gap-2">
        {picture.isCard ? (
          <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800">{mp.cardPicture}</span>
        ) : (
          <Button variant="outline" aria-label={mp.useOnCard(position)} disabled={busy} onClick={() => actions.setCard.mutate({ id: picture.id })}>
            Use on card
          </Button>
        )}
        {/* Never disabled at either end: the button keeps its focus as the list changes around it. */}
        <Button variant="outline" aria-label={mp.moveUp(position)} aria-disabled={first} onClick={() => !first && !busy && actions.move.mutate({ id: picture.id, direction: "up" })}>
          <span aria-hidden="true">↑</span>
        </Button>
        <Button variant="outline" aria-label={mp.moveDown(position)} aria-disabled={last} onClick={() => !last && !busy && actions.move.mutate({ id: picture.id, direction: "down" })}>
          <span aria-hidden="true">↓</span>
        </Button>
        <Button
          variant="danger"
          aria-label={mp.remove(position)}
          disabled={busy || count === 1}
          onClick={() => window.confirm(mp.removeConfirm(position)) && actions.remove.mutate({ id: picture.id })}
        >
          Remove
        </Button>
      </div>
    </li>
  );
}
