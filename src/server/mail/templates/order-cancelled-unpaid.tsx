import { formatRand } from "@/lib/money";
import type { MailData, ParsedMailShop } from "../schemas";
import { MailButton, MailHeading, MailLayout, P } from "./layout";

type Data = MailData<"order_cancelled_unpaid">;

/** Subject of the unpaid-order cancellation. */
export function orderCancelledUnpaidSubject(data: Data, shop: ParsedMailShop): string {
  return `Order ${data.reference} cancelled — ${shop.name}`;
}

/** To the customer when the unpaid-order policy cancels an order. */
export function OrderCancelledUnpaidMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  const days = `${data.days} day${data.days === 1 ? "" : "s"}`;
  return (
    <MailLayout shop={shop} preview={`Order ${data.reference} was cancelled because it was not paid within ${days}.`}>
      <MailHeading>Your order has been cancelled</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        We have cancelled your order <strong>{data.reference}</strong> ({formatRand(data.total)}) because we did not receive payment for it within {days} of
        ordering.
      </P>
      <P>
        If you have paid, please contact us at {shop.email} or {shop.phone} with your proof of payment and the reference {data.reference}, and we will sort
        it out.
      </P>
      <P>You are welcome to order again at any time.</P>
      <MailButton href={`${shop.siteUrl}/products`}>Visit the shop</MailButton>
    </MailLayout>
  );
}
