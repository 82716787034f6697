"use client";

import { pageMessages } from "@/lib/page-messages";
import { Button } from "@/components/ui/button";

/**
 * What a page that failed on the server shows: a plain "try again" (the database may be back a
 * moment later; the shop reconnects by itself), never the error's details.
 */
export function PageError({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6" role="alert">
      <h1 className="text-3xl font-bold">{pageMessages.pageFailedTitle}</h1>
      <p className="mt-3 text-muted">{pageMessages.pageFailed}</p>
      <Button className="mt-8" onClick={onRetry}>
        Try again
      </Button>
    </main>
  );
}
