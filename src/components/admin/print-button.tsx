"use client";

/** Prints the page (the run sheet): the browser's own print dialog. */
export function PrintButton() {
  return (
    <button type="button" onClick={() => window.print()} className="rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white">
      Print
    </button>
  );
}
