import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import type { MailData, ParsedMailShop } from "../schemas";
import { Details, EmailLink, MailButton, MailHeading, MailLayout, P, Panel } from "./layout";
import { orderManagementUrl } from "./new-order";
import { orderPath } from "@/lib/order-paths";

type Received = MailData<"payment_received">;
type Notice = MailData<"payment_notice">;

/** Subject of the customer's payment confirmation. */
export function paymentReceivedSubject(data: Received, shop: ParsedMailShop): string {
  if (data.refundDue) return `Your payment for order ${data.reference} will be refunded — ${shop.name}`;
  if (data.part === "balance") return `Balance received for order ${data.reference} — ${shop.name}`;
  if (data.part === "deposit") return `Deposit received for order ${data.reference} — ${shop.name}`;
  return `Payment received for order ${data.reference} — ${shop.name}`;
}

/** To the customer when the provider's payment is recorded. */
export function PaymentReceivedMail({ data, shop }: { data: Received; shop: ParsedMailShop }) {
  const amount = formatRand(data.amount);
  return (
    <MailLayout shop={shop} preview={`${data.provider} paid ${amount} for order ${data.reference}.`}>
      <MailHeading>
        {data.refundDue ? "We received a payment we will refund" : data.part === "balance" ? "Thank you: the balance is paid" : data.part === "deposit" ? "Thank you: your deposit is paid" : "Thank you: your order is paid"}
      </MailHeading>
      <P>Hello {data.customerName},</P>
      {data.refundDue ? (
        <P>
          {data.provider} paid us {amount} for order <strong>{data.reference}</strong>, but that order was no longer waiting for payment (it was cancelled or
          paid already). We will refund the payment and let you know; reply to this e-mail if you have any question.
        </P>
      ) : data.part ? (
        <P>
          {messages.payments.paidBy(data.provider)}: we have received {amount}, the {data.part} for order <strong>{data.reference}</strong>.{" "}
          {data.part === "balance"
            ? "Your booking is now paid in full; its tax invoice is on your order's page."
            : "Your booking is confirmed; the balance is paid later from your order's page."}
        </P>
      ) : (
        <P>
          {messages.payments.paidBy(data.provider)}: we have received {amount} for order <strong>{data.reference}</strong>. We are now preparing it for
          delivery and e-mail you when its status changes.
        </P>
      )}
      <MailButton href={`${shop.siteUrl}${orderPath(data.reference)}`}>View your order</MailButton>
    </MailLayout>
  );
}

/** Subject of the shop's notice of an online payment. */
export function paymentNoticeSubject(data: Notice, shop: ParsedMailShop): string {
  return data.refundDue
    ? `Refund due: ${data.provider} payment for order ${data.reference} — ${shop.name}`
    : `Order ${data.reference} paid by ${data.provider} (${formatRand(data.amount)}) — ${shop.name}`;
}

/** To the shop's order-notice address: how the order was paid, or that a payment must be refunded. */
export function PaymentNoticeMail({ data, shop }: { data: Notice; shop: ParsedMailShop }) {
  const amount = formatRand(data.amount);
  return (
    <MailLayout shop={shop} preview={`${data.customerName} paid ${amount} by ${data.provider} for order ${data.reference}.`}>
      <MailHeading>{data.refundDue ? `Refund due for order ${data.reference}` : `Order ${data.reference} is paid`}</MailHeading>
      <Panel>
        <Details
          rows={[
            ["Customer", data.customerName],
            ["E-mail", <EmailLink key="email" address={data.customerEmail} />],
            ["Reference", data.reference],
            ["Paid by", data.provider],
            [`${data.provider} payment id`, data.providerPaymentId],
            ["Amount", amount],
          ]}
        />
      </Panel>
      {data.refundDue ? (
        <P>The order was no longer waiting for payment when this payment arrived, so it was not applied. Refund it from your {data.provider} dashboard.</P>
      ) : (
        <P>{data.provider} confirmed the payment, so the order has moved to {messages.adminStatus.pending_delivery} by itself: no proof of payment to check.</P>
      )}
      <MailButton href={orderManagementUrl(shop.siteUrl, data.reference)}>Open in Order Management</MailButton>
    </MailLayout>
  );
}
