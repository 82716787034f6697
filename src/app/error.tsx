"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";
import { PageError } from "@/components/layout/page-error";

/** A page that failed on the server (inside the site's header and footer): retrying renders it anew. */
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  return (
    <PageError
      onRetry={() =>
        startTransition(() => {
          router.refresh();
          reset();
        })
      }
    />
  );
}
