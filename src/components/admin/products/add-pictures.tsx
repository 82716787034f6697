"use client";

import { useId, useRef, useState } from "react";
import { MAX_PRODUCT_PICTURES } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { UPLOAD_ACCEPT, uploadProblem } from "@/lib/upload-rules";
import { addPictureInput } from "@/server/products/picture-schemas";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import type { ProductPictures, Show } from "./use-product-pictures";

const mp = messages.productPictures;

interface Chosen {
  key: string;
  file: File;
  alt: string;
}

/**
 * Adds several pictures at once: each chosen file is checked in the browser as any upload is, gets
 * its alt text, and is sent on its own request (the server re-encodes each), one after another.
 */
export function AddPictures({ productId, count, actions, show }: { productId: string; count: number; actions: ProductPictures; show: Show }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  function choose(event: React.ChangeEvent<HTMLInputElement>) {
    const files = [...(event.currentTarget.files ?? [])];
    const found = files.length + count > MAX_PRODUCT_PICTURES ? mp.tooMany(MAX_PRODUCT_PICTURES) : (files.map((file) => uploadProblem(file, "image")).find(Boolean) ?? null);
    setProblem(found);
    if (found) event.currentTarget.value = "";
    setChosen(found ? [] : files.map((file, index) => ({ key: `${index}:${file.name}:${file.size}`, file, alt: "" })));
  }

  async function upload(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    if (chosen.length === 0) return show(mp.pictureRequired, "error");
    const forms = chosen.map(({ file, alt }) => {
      const form = new FormData();
      form.set("productId", productId);
      form.set("picture", file);
      form.set("alt", alt);
      return form;
    });
    // The procedure's own schema first, for every picture: nothing is sent while one is wrong.
    for (const form of forms) {
      const checked = addPictureInput.safeParse(form);
      if (!checked.success) return show(checked.error.issues[0]?.message ?? mp.altRequired, "error");
    }
    setSending(true);
    let sent = 0;
    try {
      for (const form of forms) {
        await actions.add.mutateAsync(form);
        sent++;
      }
      show(sent === 1 ? mp.added : mp.addedSeveral(sent), "success");
      setChosen([]);
      if (input.current) input.current.value = "";
    } catch (error) {
      // The pictures sent before the refusal are added: only the rest stay chosen.
      setChosen((all) => all.slice(sent));
      show(error instanceof Error && error.message ? error.message : mp.addFailed, "error");
    } finally {
      setSending(false);
      void actions.refresh();
    }
  }

  const setAlt = (key: string, alt: string) => setChosen((all) => all.map((each) => (each.key === key ? { ...each, alt } : each)));
  return (
    <form onSubmit={upload} noValidate className="space-y-3 p-3" aria-label="Add pictures">
      <div>
        <label htmlFor={`${id}-files`} className="mb-1.5 block text-sm font-medium">
          Add pictures (up to {MAX_PRODUCT_PICTURES} in all)
        </label>
        <input
          ref={input}
          id={`${id}-files`}
          type="file"
          multiple
          accept={UPLOAD_ACCEPT.image}
          onChange={choose}
          disabled={sending}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          className="block w-full text-sm"
        />
        {problem ? (
          <p id={`${id}-problem`} role="alert" className="mt-1 text-sm text-danger">
            {problem}
          </p>
        ) : null}
      </div>
      {chosen.map((each) => (
        <TextField key={each.key} label={mp.altLabelNew(each.file.name)} value={each.alt} onChange={(e) => setAlt(each.key, e.target.value)} maxLength={200} disabled={sending} />
      ))}
      {chosen.length > 0 ? (
        <Button type="submit" disabled={sending || actions.busy}>
          {sending ? "Adding..." : chosen.length === 1 ? "Add picture" : `Add ${chosen.length} pictures`}
        </Button>
      ) : null}
    </form>
  );
}
