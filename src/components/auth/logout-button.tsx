"use client";

import { useRouter } from "next/navigation";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";

/** Signs out and returns home; a failure is only logged (spec §8). */
export function LogoutButton({ label = "Logout", className = "" }: { label?: string; className?: string }) {
  const router = useRouter();
  const signOut = api.auth.signOut.useMutation({
    onError: (error) => console.error("Sign out failed:", error.message),
    onSettled: () => {
      router.push("/");
      router.refresh();
    },
  });
  return (
    <Button variant="outline" className={className} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      {label}
    </Button>
  );
}
