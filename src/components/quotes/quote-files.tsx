"use client";

import { useId } from "react";
import { quoteMessages as m } from "@/lib/messages";
import { QUOTE_LIMITS } from "@/server/quotes/schemas";
import { api } from "@/trpc/react";

/** PNG, JPEG, WebP or PDF (the server checks by content; SVG and GIF are refused). */
const ACCEPT = "image/png,image/jpeg,image/webp,application/pdf,.png,.jpg,.jpeg,.webp,.pdf";

export interface AttachedFile {
  path: string;
  fileName: string;
}

/**
 * A request's files (up to 5): each uploaded when chosen (quotes.uploadFile: checked by content,
 * stored privately), listed with a way to take it off again; the request then names them.
 */
export function QuoteFiles({ files, onChange, onProblem }: { files: AttachedFile[]; onChange: (files: AttachedFile[]) => void; onProblem: (message: string) => void }) {
  const id = useId();
  const upload = api.quotes.uploadFile.useMutation({
    onSuccess: (file) => onChange([...files, file]),
    onError: (error) => onProblem(error.message || m.uploadFailed),
  });
  const full = files.length >= QUOTE_LIMITS.files;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-ink">
        {m.filesLabel}
      </label>
      <input
        id={id}
        type="file"
        accept={ACCEPT}
        disabled={upload.isPending || full}
        className="block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-line file:bg-white file:px-3 file:py-2"
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          if (!file) return;
          const form = new FormData();
          form.set("file", file);
          upload.mutate(form);
          input.value = "";
        }}
      />
      {upload.isPending ? <p className="mt-1 text-sm text-muted">{m.uploading}</p> : null}
      {files.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm" data-testid="quote-files">
          {files.map((file) => (
            <li key={file.path} className="flex items-center gap-3">
              <span>{file.fileName}</span>
              <button type="button" className="text-brand-700 underline" onClick={() => onChange(files.filter((other) => other.path !== file.path))}>
                {m.removeFile}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
