import { messages } from "@/lib/messages";
import type { OrderStatus } from "@/lib/statuses";
import { mailTheme as t } from "../mail-theme";
import type { MailData, ParsedMailShop } from "../schemas";
import { MailButton, MailHeading, MailLayout, P, Panel } from "./layout";
import { orderPath } from "@/lib/order-paths";

type Data = MailData<"status_changed">;

/** What each status means for the customer, said once here (the status names are messages.orderStatus). */
const meaning: Record<OrderStatus, string> = {
  pending_payment: "We are checking that your payment has reached our account.",
  pending_delivery: "We have received your payment and are preparing your order for delivery.",
  complete: "Your order has been delivered. Thank you for shopping with us.",
  cancelled: "Your order has been cancelled.",
};

const statusColour: Record<OrderStatus, string> = {
  pending_payment: t.accent700,
  pending_delivery: t.brand800,
  complete: t.success,
  cancelled: t.danger,
};

/** Subject of a status update, with the status in the customer's words. */
export function statusChangedSubject(data: Data, shop: ParsedMailShop): string {
  return `Order ${data.reference}: ${messages.orderStatus[data.status]} — ${shop.name}`;
}

/** To the customer when an admin changes the order's status. */
export function StatusChangedMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  const status = messages.orderStatus[data.status];
  return (
    <MailLayout shop={shop} preview={`Order ${data.reference} is now ${status}.`}>
      <MailHeading>Your order has been updated</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        The status of your order <strong>{data.reference}</strong> is now:
      </P>
      <Panel>
        <P style={{ margin: 0, fontSize: "20px", lineHeight: "28px", fontWeight: 700, color: statusColour[data.status] }}>{status}</P>
      </Panel>
      <P>{meaning[data.status]}</P>
      {data.status === "cancelled" ? (
        <P>
          If you have already paid for it, or think this is a mistake, please contact us at {shop.email} or {shop.phone}.
        </P>
      ) : null}
      {data.document ? (
        <P>
          {data.document.kind === "invoice" ? "Your invoice" : "Your credit note"} <strong>{data.document.number}</strong> is ready:{" "}
          <a href={`${shop.siteUrl}/invoices/${data.document.id}`} style={{ color: t.brand800 }}>
            download it as a PDF
          </a>{" "}
          (sign in first if asked).
        </P>
      ) : null}
      <MailButton href={`${shop.siteUrl}${orderPath(data.reference)}`}>View your order</MailButton>
    </MailLayout>
  );
}
