import { messages } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import type { Checkout } from "./use-checkout";

const pm = messages.payments;

/** Pay now (PayFast): the hint and the one button that places the order and goes to the provider's page. */
export function PayNowPanel({ checkout }: { checkout: Pick<Checkout, "payOnline" | "canOrder" | "redirecting" | "message"> }) {
  return (
    <div className="space-y-4" data-testid="pay-now">
      <p className="text-sm text-muted">{pm.payNowHint}</p>
      <Button variant="accent" className="w-full" onClick={checkout.payOnline} disabled={!checkout.canOrder}>
        {checkout.redirecting ? pm.redirecting : pm.payNowButton}
      </Button>
      <StatusMessage message={checkout.message} />
    </div>
  );
}
