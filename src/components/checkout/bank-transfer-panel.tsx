import { Link } from "@/components/ui/link";
import { messages, orderPageMessages } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { BankTransferDetails } from "./bank-transfer-details";
import { ProofInput } from "./proof-input";
import type { Checkout, CheckoutStart } from "./use-checkout";

const m = messages.checkout;

type Props = {
  bank: NonNullable<CheckoutStart["bank"]>;
  /** "demo": the demo account, which works outside production and is labelled so. */
  demo: boolean;
  checkout: Pick<Checkout, "currentReference" | "placedReference" | "processing" | "canOrder" | "fileInput" | "submit" | "message">;
};

/** Bank transfer: the account and reference to pay to, then the proof of payment upload that places the order. */
export function BankTransferPanel({ bank, demo, checkout }: Props) {
  const { currentReference, placedReference, processing } = checkout;
  return (
    <>
      {demo ? (
        <p className="rounded-lg border border-accent-500 bg-accent-100 px-4 py-3 text-sm font-medium text-ink" data-testid="demo-bank">
          <span className="mr-2 rounded-full bg-accent-600 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white">Demo</span>
          {m.demoBankDetails}
        </p>
      ) : null}
      <BankTransferDetails bank={bank} reference={currentReference} />
      {currentReference && !placedReference ? (
        <p className="text-sm text-muted">Use the reference above with your transfer, then upload your proof of payment.</p>
      ) : null}
      <form onSubmit={checkout.submit} className="space-y-4" noValidate>
        <ProofInput inputRef={checkout.fileInput} disabled={processing} />
        <Button type="submit" variant="accent" className="w-full" disabled={!checkout.canOrder}>
          {processing ? "Processing..." : "Complete Payment"}
        </Button>
        <StatusMessage message={checkout.message} />
        {placedReference ? (
          <Link href={orderPath(placedReference)} className="inline-block text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
            {orderPageMessages.view} {placedReference}
          </Link>
        ) : null}
      </form>
    </>
  );
}
