"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ORDER_REDIRECT_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { placeOrderInput } from "@/server/checkout/schemas";
import type { FulfilmentChoice } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { goToHostedPayment } from "@/components/payments/hosted-payment";
import { depositOf, type Deposit } from "./deposit";
import { draftFee, fulfilmentChoiceOf, initialDraft, type FulfilmentDraft } from "./fulfilment-picker";

const m = messages.checkout;
const pm = messages.payments;

export type PaymentMethod = "payfast" | "bank_transfer";

/** checkout.start: the reference, and the bank account unless bank transfer is not set up. */
export type CheckoutStart = RouterOutputs["checkout"]["start"];

/** What an order was placed with, kept on screen under the success message after the cart empties. */
export interface OrderedSnapshot {
  lines: { id: string; name: string; quantity: number; lineTotal: string | number }[];
  fee: number;
  total: number;
  deposit?: Deposit | null;
}

/**
 * References this document has placed orders with. Back to checkout after an order shows the page
 * the router kept, whose reference is spent: it must never be shown as one to pay with again.
 */
const spentReferences = new Set<string>();
const unspent = (reference: string | null | undefined) => (reference && !spentReferences.has(reference) ? reference : null);

/**
 * Checkout's state: the cart and its total, delivery or collection, the reference to pay with,
 * the way to pay, and placing the order (bank transfer with a proof, or Pay now), with the
 * messages that say what went wrong. The panels only render what this returns.
 */
export function useCheckout(start: CheckoutStart) {
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
  const [method, setMethod] = useState<PaymentMethod>(start.bank === null && start.payNow ? "payfast" : "bank_transfer");

  const lines = cart.data?.lines ?? [];
  const empty = lines.length === 0;
  // Delivery or collection (docs/architecture.md#delivery-and-collection): asked once the owner has set it up; the days follow the cart.
  const fulfilment = api.fulfilment.options.useQuery(undefined, { enabled: !empty && !placedReference });
  const [draft, setDraft] = useState<FulfilmentDraft | null>(null);
  const options = fulfilment.data?.configured ? fulfilment.data : null;
  const current = options ? (draft ?? initialDraft(options)) : null;
  const day = current && options && !options.days.includes(current.day) ? (options.days[0] ?? "") : (current?.day ?? "");
  const fee = options && current ? draftFee(options, current) : 0;
  const total = Number(cart.data?.total ?? 0) + fee;
  const deposit = depositOf(cart.data, fee);
  const cartKey = lines.map((line) => `${line.id}:${line.quantity}`).join(",");
  useEffect(() => {
    if (cartKey) void utils.fulfilment.options.invalidate();
  }, [cartKey, utils]);

  /** place_order's choice, or the message that says what is missing (the procedure's own schema). */
  function fulfilmentOf(): { choice: FulfilmentChoice | null } | { error: string } {
    if (!options || !current) return { choice: null };
    return fulfilmentChoiceOf({ ...current, day });
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

  const snapshot = (): OrderedSnapshot => ({ lines, fee, total, deposit });

  /** Bank transfer: the proof and the reference, checked with the procedure's own schema, then sent. */
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
    if (!proof && deposit?.dueNow !== 0) return flash.show(m.proofRequired, "error");
    sending.current = snapshot();
    place.mutate(form);
  }

  /** Pay now: the order is placed, then the browser goes to the provider's hosted page. */
  function payOnline() {
    if (processing || placedReference) return;
    if (empty || !currentReference) return flash.show(m.cartEmptyOrSignedOut, "error");
    const chosen = fulfilmentOf();
    if ("error" in chosen) return flash.show(chosen.error, "error");
    sending.current = snapshot();
    payNow.mutate({ reference: currentReference, idempotencyKey, fulfilment: chosen.choice });
  }

  return {
    /** The cart as it is now ("loading" until the first answer), or what was ordered once placed. */
    cart: cart.isPending ? ("loading" as const) : cart.isError ? ("failed" as const) : ("ready" as const),
    lines,
    empty,
    fee,
    total,
    deposit,
    ordered,
    lastOrder: lastOrder.data ?? null,
    /** The delivery or collection question, while there is something to ask it for. */
    fulfilment: options && current && !empty && !placedReference ? { options, draft: { ...current, day }, onChange: chooseFulfilment } : null,
    method,
    setMethod,
    message: flash.message,
    processing,
    redirecting: payNow.isPending || Boolean(placedReference),
    placedReference,
    currentReference,
    /** Whether an order can be sent now: a cart, a reference, nothing sent or being sent. */
    canOrder: !(processing || empty || !currentReference || Boolean(placedReference)),
    fileInput,
    submit,
    payOnline,
  };
}

export type Checkout = ReturnType<typeof useCheckout>;
