"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ORDER_REDIRECT_MS } from "@/lib/constants";
import { formatRand } from "@/lib/money";
import { messages, orderPageMessages } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import { placeOrderInput } from "@/server/checkout/schemas";
import { fulfilmentChoice, type FulfilmentChoice } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { InvoiceDetails } from "@/components/invoices/invoice-details";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { goToHostedPayment } from "@/components/payments/hosted-payment";
import { draftFee, FulfilmentPicker, initialDraft, type FulfilmentDraft } from "./fulfilment-picker";
import { ProofInput } from "./proof-input";

const m = messages.checkout;
const pm = messages.payments;
const fm = messages.fulfilment;

type Method = "payfast" | "bank_transfer";

/** What an order was placed with, kept on screen under the success message after the cart empties. */
interface OrderedSnapshot {
  lines: { id: string; name: string; quantity: number; lineTotal: string | number }[];
  fee: number;
  total: number;
}

/**
 * References this document has placed orders with. Back to checkout after an order shows the page
 * the router kept, whose reference is spent: it must never be shown as one to pay with again.
 */
const spentReferences = new Set<string>();
const unspent = (reference: string | null | undefined) => (reference && !spentReferences.has(reference) ? reference : null);

interface Props {
  /** checkout.start: the reference, and the bank account unless bank transfer is not set up. */
  start: RouterOutputs["checkout"]["start"];
}

/**
 * Checkout: the order summary, bank transfer details with the reference, and the proof upload;
 * while the shop's bank account is not set up (production), only a notice and no way to order.
 */
export function CheckoutView({ start }: Props) {
  const { reference } = start;
  const router = useRouter();
  const utils = api.useUtils();
  const cart = api.cart.list.useQuery();
  const flash = useFlashMessage();
  const fileInput = useRef<HTMLInputElement>(null);
  // One key for this checkout: a retry or a double click makes the same single order.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [placedReference, setPlacedReference] = useState<string | null>(null);
  const [ordered, setOrdered] = useState<OrderedSnapshot | null>(null);
  // Taken as the order is sent: the cart may be emptied (live) before the answer arrives.
  const sending = useRef<OrderedSnapshot | null>(null);
  // Bank transfer stays the first choice where it can take orders; "Pay now" is offered beside it.
  const [method, setMethod] = useState<Method>(start.bank === null && start.payNow ? "payfast" : "bank_transfer");

  const lines = cart.data?.lines ?? [];
  const empty = lines.length === 0;
  // Delivery or collection (docs/architecture.md#delivery-and-collection): asked once the owner has set it up; the days follow the cart.
  const fulfilment = api.fulfilment.options.useQuery(undefined, { enabled: !empty && !placedReference });
  const [draft, setDraft] = useState<FulfilmentDraft | null>(null);
  const options = fulfilment.data?.configured ? fulfilment.data : null;
  const current = options ? (draft ?? initialDraft(options)) : null;
  const day = current && options && !options.days.includes(current.day) ? (options.days[0] ?? "") : (current?.day ?? "");
  const fee = options && current ? draftFee(options, current) : 0;
  const cartKey = lines.map((line) => `${line.id}:${line.quantity}`).join(",");
  useEffect(() => {
    if (cartKey) void utils.fulfilment.options.invalidate();
  }, [cartKey, utils]);

  /** place_order's choice, or the message that says what is missing (the procedure's own schema). */
  function fulfilmentOf(): { choice: FulfilmentChoice | null } | { error: string } {
    if (!options || !current) return { choice: null };
    if (!current.method) return { error: fm.required };
    const checked = fulfilmentChoice.safeParse(
      current.method === "delivery"
        ? { method: "delivery", day, areaId: current.areaId, address: current.address, keepAddress: current.keepAddress }
        : { method: "collection", day },
    );
    return checked.success ? { choice: checked.data } : { error: checked.error.issues[0]?.message ?? fm.required };
  }

  /** A new choice answers a refusal of the last one: its message goes (it no longer describes the form). */
  function chooseFulfilment(next: FulfilmentDraft) {
    setDraft(next);
    if (flash.message?.tone === "error") flash.clear();
  }

  function refused(message: string) {
    flash.show(message || m.failed, "error");
    // A day taken or closed meanwhile: offer the days as they are now.
    void utils.fulfilment.options.invalidate();
  }

  /** The order is placed: its reference is spent, and what was ordered stays on screen until the move. */
  function placed(placedWith: string) {
    spentReferences.add(placedWith);
    setPlacedReference(placedWith);
    setOrdered((snapshot) => snapshot ?? sending.current);
    void utils.checkout.start.invalidate();
    void utils.orders.invalidate();
  }

  const place = api.checkout.placeOrder.useMutation({
    onSuccess: (result) => {
      placed(result.reference);
      flash.show(result.message, "success", { persist: true });
      void utils.cart.invalidate();
      setTimeout(() => router.push("/products"), ORDER_REDIRECT_MS);
    },
    onError: (error) => refused(error.message),
  });

  const payNow = api.payments.payNow.useMutation({
    onSuccess: (payment) => {
      placed(payment.reference);
      flash.show(pm.redirecting, "info", { persist: true });
      void utils.cart.invalidate();
      goToHostedPayment(payment);
    },
    onError: (error) => refused(error.message),
  });

  const processing = place.isPending || payNow.isPending;
  // The page loaded with an empty cart, so nothing was reserved: once the cart fills (live, from
  // another tab), ask for the reservation.
  // A spent reference (Back to this page after an order) counts as none: a fresh one is asked for.
  const startReference = unspent(reference);
  const reserved = api.checkout.start.useQuery(undefined, { enabled: startReference === null && !empty && !placedReference });
  // An empty cart has nothing to pay for: no reference is shown as one to pay with.
  const currentReference = placedReference ?? (empty ? null : (startReference ?? unspent(reserved.data?.reference)));
  // With nothing to pay for, the customer's last order (e.g. the one just placed, after Back): where to see and pay it.
  const lastOrder = api.orders.latest.useQuery(undefined, { enabled: empty && !placedReference && !cart.isPending });

  const snapshot = (): OrderedSnapshot => ({ lines, fee, total: Number(cart.data?.total ?? 0) + fee });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (processing || placedReference) return;
    if (empty || !currentReference) return flash.show(m.cartEmptyOrSignedOut, "error");
    const form = new FormData();
    const proof = fileInput.current?.files?.[0];
    if (proof) form.set("proof", proof);
    form.set("reference", currentReference);
    form.set("idempotencyKey", idempotencyKey);
    const chosen = fulfilmentOf();
    if ("error" in chosen) return flash.show(chosen.error, "error");
    if (chosen.choice) form.set("fulfilment", JSON.stringify(chosen.choice));
    // The procedure's own schema, so the form says what the server would, before uploading.
    const checked = placeOrderInput.safeParse(form);
    if (!checked.success) return flash.show(checked.error.issues[0]?.message ?? m.proofRequired, "error");
    sending.current = snapshot();
    place.mutate(form);
  }

  function payOnline() {
    if (processing || placedReference) return;
    if (empty || !currentReference) return flash.show(m.cartEmptyOrSignedOut, "error");
    const chosen = fulfilmentOf();
    if ("error" in chosen) return flash.show(chosen.error, "error");
    sending.current = snapshot();
    payNow.mutate({ reference: currentReference, idempotencyKey, fulfilment: chosen.choice });
  }

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <section aria-labelledby="summary-heading" className="rounded-3xl border border-line bg-white p-6">
        <h2 id="summary-heading" className="text-xl font-bold">
          Order summary
        </h2>
        {ordered ? (
          <OrderedSummary ordered={ordered} />
        ) : cart.isPending ? (
          <p role="status" className="mt-4">
            {messages.loading}
          </p>
        ) : cart.isError ? (
          <p role="alert" className="mt-4 text-danger">
            {messages.cart.loadFailed}
          </p>
        ) : empty ? (
          <>
            <p className="mt-4 text-muted">{messages.cart.empty}</p>
            {lastOrder.data ? (
              <p className="mt-4 text-sm" data-testid="last-order">
                <Link href={orderPath(lastOrder.data.reference)} className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
                  {orderPageMessages.lastOrder(lastOrder.data.reference)}
                </Link>
              </p>
            ) : null}
          </>
        ) : (
          <>
            <ul className="mt-4 divide-y divide-line">
              {lines.map((line) => (
                <li key={line.id} className="flex justify-between gap-4 py-3">
                  <span>
                    {line.name} <span className="text-muted">× {line.quantity}</span>
                  </span>
                  <span className="tabular font-medium">{formatRand(line.lineTotal)}</span>
                </li>
              ))}
            </ul>
            {fee > 0 ? (
              <p className="flex justify-between gap-4 border-t border-line py-3" data-testid="delivery-fee">
                <span>{fm.deliveryFee}</span>
                <span className="tabular font-medium">{formatRand(fee)}</span>
              </p>
            ) : null}
            <p className="mt-4 flex justify-between border-t border-line pt-4 text-lg font-bold">
              <span>Total</span>
              <span className="tabular text-accent-700" data-testid="checkout-total">
                {formatRand(Number(cart.data?.total ?? 0) + fee)}
              </span>
            </p>
          </>
        )}
      </section>

      <section aria-labelledby="payment-heading" className="space-y-6 rounded-3xl border border-line bg-white p-6">
        {options && current && !empty && !placedReference ? (
          <FulfilmentPicker options={options} draft={{ ...current, day }} onChange={chooseFulfilment} disabled={processing} />
        ) : null}
        <h2 id="payment-heading" className="text-xl font-bold">
          {start.payNow ? "Payment" : pm.bankTransferOption}
        </h2>
        {start.payNow ? (
          <fieldset className="space-y-2" disabled={processing || Boolean(placedReference)}>
            <legend className="sr-only">How would you like to pay?</legend>
            {(
              [
                ["payfast", pm.payNowOption],
                ["bank_transfer", pm.bankTransferOption],
              ] as const
            )
              .filter(([value]) => value === "payfast" || start.bank !== null)
              .map(([value, label]) => (
                <label
                  key={value}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input type="radio" name="payment-method" value={value} checked={method === value} onChange={() => setMethod(value)} className="size-4 accent-brand-700" />
                  <span className="font-medium">{label}</span>
                </label>
              ))}
          </fieldset>
        ) : null}
        {/* A business's details for its tax invoice, whichever way it pays. */}
        {start.payNow || start.bank !== null ? <InvoiceDetails /> : null}
        {method === "payfast" ? (
          <div className="space-y-4" data-testid="pay-now">
            <p className="text-sm text-muted">{pm.payNowHint}</p>
            <Button variant="accent" className="w-full" onClick={payOnline} disabled={processing || empty || !currentReference || Boolean(placedReference)}>
              {payNow.isPending || placedReference ? pm.redirecting : pm.payNowButton}
            </Button>
            <StatusMessage message={flash.message} />
          </div>
        ) : start.bank === null ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-danger" data-testid="bank-not-set-up">
            {m.bankTransferNotSetUp}
          </p>
        ) : (
          <>
            {start.bankTransfer === "demo" ? (
              <p className="rounded-lg border border-accent-500 bg-accent-100 px-4 py-3 text-sm font-medium text-ink" data-testid="demo-bank">
                <span className="mr-2 rounded-full bg-accent-600 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white">Demo</span>
                {m.demoBankDetails}
              </p>
            ) : null}
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="bank-details">
              <dt className="text-muted">Account name</dt>
              <dd className="font-medium">{start.bank.accountName}</dd>
              <dt className="text-muted">Bank</dt>
              <dd className="font-medium">{start.bank.bankName}</dd>
              <dt className="self-center text-muted">Account number</dt>
              <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span id="bank-account-number" className="tabular font-medium select-all" data-testid="bank-account-number">
                  {start.bank.accountNumber}
                </span>
                <CopyButton value={start.bank.accountNumber} what="account number" targetId="bank-account-number" />
              </dd>
              <dt className="text-muted">Branch code</dt>
              <dd className="tabular font-medium">{start.bank.branchCode}</dd>
              <dt className="text-muted">Account type</dt>
              <dd className="font-medium">{start.bank.accountType}</dd>
              <dt className="self-center text-muted">Reference</dt>
              {currentReference ? (
                <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span id="payment-reference" className="tabular font-bold text-brand-800 select-all" data-testid="payment-reference">
                    {currentReference}
                  </span>
                  <CopyButton value={currentReference} what="reference" targetId="payment-reference" />
                </dd>
              ) : (
                <dd className="text-muted">{m.referencePending}</dd>
              )}
            </dl>
            {currentReference && !placedReference ? (
              <p className="text-sm text-muted">Use the reference above with your transfer, then upload your proof of payment.</p>
            ) : null}
            <form onSubmit={submit} className="space-y-4" noValidate>
              <ProofInput inputRef={fileInput} disabled={processing} />
              <Button type="submit" variant="accent" className="w-full" disabled={processing || empty || !currentReference || Boolean(placedReference)}>
                {processing ? "Processing..." : "Complete Payment"}
              </Button>
              <StatusMessage message={flash.message} />
              {placedReference ? (
                <Link href={orderPath(placedReference)} className="inline-block text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
                  {orderPageMessages.view} {placedReference}
                </Link>
              ) : null}
            </form>
          </>
        )}
      </section>
    </div>
  );
}

/** The order just placed, as it was in the cart: shown under the success message until the move to /products. */
function OrderedSummary({ ordered }: { ordered: OrderedSnapshot }) {
  return (
    <div data-testid="ordered-summary">
      <ul className="mt-4 divide-y divide-line">
        {ordered.lines.map((line) => (
          <li key={line.id} className="flex justify-between gap-4 py-3">
            <span>
              {line.name} <span className="text-muted">× {line.quantity}</span>
            </span>
            <span className="tabular font-medium">{formatRand(line.lineTotal)}</span>
          </li>
        ))}
      </ul>
      {ordered.fee > 0 ? (
        <p className="flex justify-between gap-4 border-t border-line py-3">
          <span>{fm.deliveryFee}</span>
          <span className="tabular font-medium">{formatRand(ordered.fee)}</span>
        </p>
      ) : null}
      <p className="mt-4 flex justify-between border-t border-line pt-4 text-lg font-bold">
        <span>Total</span>
        <span className="tabular text-accent-700" data-testid="checkout-total">
          {formatRand(ordered.total)}
        </span>
      </p>
    </div>
  );
}
