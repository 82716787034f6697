import type { Ref } from "react";
import { FileInput } from "@/components/ui/file-input";

/** The proof-of-payment file field: checkout's, and an order switched to bank transfer after a cancelled online payment. */
export function ProofInput({ inputRef, disabled }: { inputRef: Ref<HTMLInputElement>; disabled: boolean }) {
  return (
    <div>
      <label htmlFor="proof" className="mb-1.5 block text-sm font-medium">
        Proof of payment (image or PDF from your banking app)
      </label>
      <FileInput
        id="proof"
        kind="proof"
        inputRef={inputRef}
        aria-describedby="proof-hint"
        disabled={disabled}
        className="block w-full text-sm file:mr-4 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-800"
      />
      <p id="proof-hint" className="mt-1 text-xs text-muted">
        JPEG, PNG, WebP, GIF or PDF, up to 5 MB.
      </p>
    </div>
  );
}
