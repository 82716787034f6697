import type { Metadata } from "next";
import { PaymentOutcomePage } from "@/components/payments/payment-outcome-page";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.payments.returnTitle, robots: { index: false } };

/** Where PayFast sends the customer after paying (return_url): paid, or waiting for PayFast's notification. */
export default async function PaymentReturnPage({ searchParams }: { searchParams: Promise<{ order?: string | string[] }> }) {
  return <PaymentOutcomePage searchParams={searchParams} returned title={messages.payments.returnTitle} path="/checkout/return" />;
}
