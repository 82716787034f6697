"use client";

import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { useHydrated } from "@/components/ui/use-hydrated";

const m = messages.stockNotices;

/**
 * A signed-in customer's "E-mail me when it is back" on a sold-out variant: asks (their explicit
 * request, kept until its one mail), or takes it back once asked.
 */
export function BackInStockButton({ variantId }: { variantId: string }) {
  const hydrated = useHydrated();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const requested = api.stockNotices.requested.useQuery({ variantIds: [variantId] });
  const asked = requested.data?.includes(variantId) ?? false;
  const done = {
    onSuccess: ({ message }: { message: string }) => {
      flash.show(message, "success");
      void utils.stockNotices.requested.invalidate();
    },
    onError: (error: { message: string }) => flash.show(error.message, "error"),
  };
  const ask = api.stockNotices.ask.useMutation(done);
  const withdraw = api.stockNotices.withdraw.useMutation(done);
  const busy = !hydrated || requested.isPending || ask.isPending || withdraw.isPending;

  return (
    <div className="space-y-3">
      <Button
        variant="outline"
        className="w-full sm:w-auto"
        aria-pressed={asked}
        disabled={busy}
        onClick={() => (asked ? withdraw.mutate({ variantId }) : ask.mutate({ variantId }))}
      >
        {asked ? m.withdraw : m.ask}
      </Button>
      {asked && !flash.message ? <p className="text-sm text-muted">{m.asked}</p> : null}
      <StatusMessage message={flash.message} />
    </div>
  );
}
