"use client";

import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { loadPage } from "@/components/ui/load-page";

/** Signs out and returns home; a failure is only logged (spec §8). */
export function LogoutButton({ label = "Logout", className = "" }: { label?: string; className?: string }) {
  const signOut = api.auth.signOut.useMutation({
    onError: (error) => console.error("Sign out failed:", error.message),
    // A new document: nothing of the signed-in pages stays in this tab's memory.
    onSettled: () => loadPage("/"),
  });
  return (
    <Button variant="outline" className={className} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      {label}
    </Button>
  );
}
