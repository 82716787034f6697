import { Link } from "@/components/ui/link";
import { formatRand } from "@/lib/money";
import { messages, orderPageMessages } from "@/lib/messages";
import { orderPath } from "@/lib/order-paths";
import type { Deposit } from "./deposit";
import type { Checkout, OrderedSnapshot } from "./use-checkout";

const fm = messages.fulfilment;

type Props = Pick<Checkout, "cart" | "lines" | "empty" | "fee" | "total" | "deposit" | "ordered" | "lastOrder">;

/** Checkout's order summary: the cart's lines, the delivery fee and the total; once ordered, what was ordered. */
export function OrderSummary({ cart, lines, empty, fee, total, deposit, ordered, lastOrder }: Props) {
  return (
    <section aria-labelledby="summary-heading" className="rounded-3xl border border-line bg-white p-6">
      <h2 id="summary-heading" className="text-xl font-bold">
        Order summary
      </h2>
      {ordered ? (
        <div data-testid="ordered-summary">
          <SummaryLines lines={ordered.lines} fee={ordered.fee} total={ordered.total} deposit={ordered.deposit} />
        </div>
      ) : cart === "loading" ? (
        <p role="status" className="mt-4">
          {messages.loading}
        </p>
      ) : cart === "failed" ? (
        <p role="alert" className="mt-4 text-danger">
          {messages.cart.loadFailed}
        </p>
      ) : empty ? (
        <>
          <p className="mt-4 text-muted">{messages.cart.empty}</p>
          {lastOrder ? (
            <p className="mt-4 text-sm" data-testid="last-order">
              <Link href={orderPath(lastOrder.reference)} className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
                {orderPageMessages.lastOrder(lastOrder.reference)}
              </Link>
            </p>
          ) : null}
        </>
      ) : (
        <SummaryLines lines={lines} fee={fee} total={total} deposit={deposit} feeTestId="delivery-fee" />
      )}
    </section>
  );
}

/** The lines, the delivery fee (when there is one) and the total: the cart's now, or the order's as it was placed. */
function SummaryLines({ lines, fee, total, deposit, feeTestId }: OrderedSnapshot & { feeTestId?: string }) {
  return (
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
        <p className="flex justify-between gap-4 border-t border-line py-3" data-testid={feeTestId}>
          <span>{fm.deliveryFee}</span>
          <span className="tabular font-medium">{formatRand(fee)}</span>
        </p>
      ) : null}
      <p className="mt-4 flex justify-between border-t border-line pt-4 text-lg font-bold">
        <span>Total</span>
        <span className="tabular text-accent-700" data-testid="checkout-total">
          {formatRand(total)}
        </span>
      </p>
      {deposit ? <DepositLines deposit={deposit} /> : null}
    </>
  );
}

/** An order with bookings that ask a deposit: what is paid now, and the balance paid later from the order's page (checkout, and accepting a quote). */
export function DepositLines({ deposit: { dueNow, later } }: { deposit: Deposit }) {
  const b = messages.bookings;
  return (
    <div className="mt-3 space-y-1 text-sm" data-testid="checkout-deposit">
      <p className="flex justify-between font-semibold">
        <span>{b.dueNow}</span>
        <span className="tabular" data-testid="checkout-due-now">
          {formatRand(dueNow)}
        </span>
      </p>
      <p className="flex justify-between text-muted">
        <span>{b.balanceLater}</span>
        <span className="tabular">{formatRand(later)}</span>
      </p>
      <p className="text-muted">{dueNow === 0 ? b.nothingDueNow : b.depositNote}</p>
    </div>
  );
}
