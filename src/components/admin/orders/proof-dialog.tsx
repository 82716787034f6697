"use client";

import { useEffect, useRef } from "react";

/** A proof of payment to show large: the file, its order's reference, and for a PDF its first page as an image (if made). */
export interface ProofToShow {
  url: string;
  reference: string;
  kind: "image" | "pdf";
  preview: string | null;
}

/**
 * A proof of payment, large, in the browser's own modal `<dialog>`: opened with showModal() as it
 * mounts, so the browser keeps focus inside it, closes it on Escape and gives focus back to the
 * thumbnail that opened it. Every way of closing (Close, Escape, a click on the backdrop) ends in
 * the dialog's close event, which tells `onClose`.
 */
export function ProofDialog({ proof, onClose }: { proof: ProofToShow; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    // Not closed on unmount: a dialog taken out of the page leaves the top layer by itself (and
    // React's development double effect would otherwise close it as it opens).
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const close = () => dialog.current?.close();

  return (
    <dialog
      ref={dialog}
      aria-label={`Proof of payment for ${proof.reference}`}
      onClose={onClose}
      // The box below fills the dialog, so a click whose target is the dialog itself landed on its ::backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
      className="m-auto max-h-[calc(100%_-_2rem)] max-w-[min(48rem,calc(100%_-_2rem))] rounded-2xl bg-white text-ink backdrop:bg-black/70"
    >
      <div className="space-y-3 p-4">
        {proof.kind === "image" || proof.preview ? (
          /* eslint-disable-next-line @next/next/no-img-element -- a private, access-checked file */
          <img
            src={proof.kind === "pdf" ? proof.preview! : proof.url}
            alt={`Proof of payment for ${proof.reference}${proof.kind === "pdf" ? " (PDF, first page)" : ""}`}
            className="max-h-[75vh] w-auto"
          />
        ) : (
          <p className="text-sm text-muted">This proof of payment is a PDF. Open it to view it.</p>
        )}
        <div className="flex gap-3">
          <button type="button" autoFocus onClick={close} className="rounded-xl border border-line px-4 py-2 text-sm font-medium">
            Close
          </button>
          {proof.kind === "pdf" ? (
            <a href={proof.url} target="_blank" rel="noopener noreferrer" className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
              Open<span className="sr-only"> the PDF proof of payment for {proof.reference}</span>
            </a>
          ) : null}
        </div>
      </div>
    </dialog>
  );
}
