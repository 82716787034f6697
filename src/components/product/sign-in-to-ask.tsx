"use client";

import Link from "next/link";
import { messages } from "@/lib/messages";
import { signInHref } from "@/lib/sign-in-paths";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { useHydrated } from "@/components/ui/use-hydrated";

/** A visitor's "E-mail me when it is back": says to sign in first and offers the way back to this product. */
export function SignInToAsk({ productId }: { productId: string }) {
  const hydrated = useHydrated();
  const flash = useFlashMessage();
  return (
    <div className="space-y-3">
      <Button variant="outline" className="w-full sm:w-auto" disabled={!hydrated} onClick={() => flash.show(messages.stockNotices.signInToAsk, "info")}>
        {messages.stockNotices.ask}
      </Button>
      <StatusMessage message={flash.message} />
      {flash.message ? (
        <Link href={signInHref(`/products/${productId}`)} className="inline-block text-sm font-semibold text-brand-700 underline">
          {messages.stockNotices.signIn}
        </Link>
      ) : null}
    </div>
  );
}
