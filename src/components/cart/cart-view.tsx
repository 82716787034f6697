"use client";

import Image from "next/image";
import { Link } from "@/components/ui/link";
import { formatRand } from "@/lib/money";
import { messages, quoteMessages } from "@/lib/messages";
import { stockLabel } from "@/lib/stock";
import { PersonalisationList } from "@/components/orders/personalisation-list";
import { BookingHold } from "@/components/bookings/booking-hold";
import { api } from "@/trpc/react";
import { buttonClasses } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

/** The cart: lines with quantity controls and line totals, the total, and the way to checkout. */
export function CartView() {
  const utils = api.useUtils();
  const cart = api.cart.list.useQuery();
  const flash = useFlashMessage();
  const mutationOptions = {
    onSuccess: ({ message }: { message: string }) => flash.show(message, "success"),
    onError: (error: { message: string }) => flash.show(error.message, "error"),
    onSettled: () => utils.cart.invalidate(),
  };
  const increase = api.cart.increase.useMutation(mutationOptions);
  const decrease = api.cart.decrease.useMutation(mutationOptions);
  const remove = api.cart.remove.useMutation(mutationOptions);
  const busy = increase.isPending || decrease.isPending || remove.isPending;

  if (cart.isPending) return <p role="status">{messages.loading}</p>;
  if (cart.isError) return <p role="alert" className="text-danger">{messages.cart.loadFailed}</p>;

  const { lines, total } = cart.data;
  if (lines.length === 0) {
    return (
      <div className="rounded-3xl border border-dashed border-line bg-white px-6 py-14 text-center">
        <p className="text-xl font-semibold">{messages.cart.empty}</p>
        <Link href="/products" className={buttonClasses("primary", "mt-6")}>
          Browse products
        </Link>
        <StatusMessage message={flash.message} className="mt-6" />
      </div>
    );
  }

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <ul className="space-y-4 lg:col-span-2" aria-label="Cart items">
        {lines.map((line) => (
          <li key={line.id} className="flex gap-4 rounded-2xl border border-line bg-white p-4">
            <div className="relative aspect-[4/3] w-28 shrink-0 overflow-hidden rounded-xl bg-brand-50 sm:w-36">
              {line.imageUrl ? (
                <Image src={line.imageUrl} alt={line.name} fill sizes="144px" unoptimized={line.imageUrl.endsWith(".svg")} className="object-cover" />
              ) : null}
            </div>
            <div className="flex flex-1 flex-col gap-2">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <Link href={`/products/${line.productId}`} className="font-semibold hover:underline">
                  {line.name}
                </Link>
                <p className="tabular font-bold" aria-label={`Line total for ${line.name}`}>
                  {formatRand(line.lineTotal)}
                </p>
              </div>
              <p className="tabular text-sm text-muted">{formatRand(line.price)} each</p>
              <PersonalisationList entries={line.personalisation} />
              {line.slotStartsAt && line.holdExpiresAt ? <BookingHold startsAt={line.slotStartsAt} holdExpiresAt={line.holdExpiresAt} /> : null}
              {!line.available ? <p className="text-sm font-medium text-danger">{messages.cart.unavailable}</p> : null}
              {line.available && line.stock !== null && line.quantity > line.stock ? <p className="text-sm font-medium text-danger">{stockLabel(line.stock)}</p> : null}
              <div className="mt-auto flex flex-wrap items-center gap-3">
                {/* A booking is one line per time: no quantity to change. */}
                {line.slotStartsAt ? null : <div className="flex items-center rounded-xl border border-line" role="group" aria-label={`Quantity of ${line.name}`}>
                  <button
                    type="button"
                    className="h-10 w-10 rounded-l-xl text-lg hover:bg-brand-50 disabled:opacity-50"
                    onClick={() => decrease.mutate({ lineId: line.id })}
                    disabled={busy}
                    aria-label={`Decrease quantity of ${line.name}`}
                  >
                    −
                  </button>
                  <span className="tabular w-10 text-center" data-testid="quantity">
                    {line.quantity}
                  </span>
                  <button
                    type="button"
                    className="h-10 w-10 rounded-r-xl text-lg hover:bg-brand-50 disabled:opacity-50"
                    onClick={() => increase.mutate({ lineId: line.id })}
                    disabled={busy || !line.available || (line.stock !== null && line.quantity >= line.stock)}
                    aria-label={`Increase quantity of ${line.name}`}
                  >
                    +
                  </button>
                </div>}
                <button
                  type="button"
                  className="text-sm font-medium text-danger underline-offset-2 hover:underline"
                  onClick={() => remove.mutate({ lineId: line.id })}
                  disabled={busy}
                >
                  Remove<span className="sr-only"> {line.name}</span>
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <aside className="h-fit space-y-4 rounded-3xl border border-line bg-white p-6" aria-label="Cart summary">
        <div className="flex items-center justify-between text-lg">
          <span className="font-semibold">Total</span>
          <span className="tabular font-bold text-accent-700" data-testid="cart-total">
            {formatRand(total)}
          </span>
        </div>
        <p className="text-sm text-muted">Pay by bank transfer and upload your proof of payment at checkout.</p>
        <Link href="/checkout" className={buttonClasses("accent", "w-full")}>
          Proceed to Checkout
        </Link>
        <Link href="/quotes/new?from=cart" className={buttonClasses("outline", "w-full")}>
          {quoteMessages.askForTheseButton}
        </Link>
        <StatusMessage message={flash.message} />
      </aside>
    </div>
  );
}
