"use client";

import { useId, useState } from "react";
import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { api } from "@/trpc/react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

/** PNG, JPEG, WebP or PDF (the server checks by content; SVG and GIF are refused). */
const ACCEPT = "image/png,image/jpeg,image/webp,application/pdf,.png,.jpg,.jpeg,.webp,.pdf";

/** A file for a line's personalisation (a logo): uploaded when chosen, then named by the line. */
export function PersonalisationFile({ label, onUploaded }: { label: string; onUploaded: (path: string) => void }) {
  const id = useId();
  const flash = useFlashMessage();
  const [attached, setAttached] = useState<string | null>(null);
  const upload = api.cart.uploadFile.useMutation({
    onSuccess: ({ path, fileName }) => {
      setAttached(fileName);
      onUploaded(path);
      flash.show(messages.cart.fileAttached(fileName), "success");
    },
    onError: (error) => {
      setAttached(null);
      onUploaded("");
      flash.show(error.message || messages.cart.uploadFailed, "error");
    },
  });
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        disabled={upload.isPending}
        className="block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-line file:bg-white file:px-3 file:py-2"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (!file) return;
          const form = new FormData();
          form.set("file", file);
          upload.mutate(form);
        }}
      />
      {upload.isPending ? <p className="mt-1 text-sm text-muted">{messages.loading}</p> : null}
      {attached ? <p className="mt-1 text-sm text-muted" data-testid="attached-file">{attached}</p> : null}
      <StatusMessage message={flash.message} />
    </div>
  );
}
