import type { Metadata } from "next";
import { PaymentOutcomePage } from "@/components/payments/payment-outcome-page";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.payments.cancelledTitle, robots: { index: false } };

/** Where PayFast sends a customer who cancelled on its page (cancel_url): the order stays payable. */
export default async function PaymentCancelledPage({ searchParams }: { searchParams: Promise<{ order?: string | string[] }> }) {
  return <PaymentOutcomePage searchParams={searchParams} returned={false} title={messages.payments.cancelledTitle} path="/checkout/cancelled" />;
}
