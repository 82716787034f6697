import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import type { MailData, ParsedMailShop } from "../schemas";
import { fulfilmentRows } from "./fulfilment-details";
import { Details, EmailLink, MailButton, MailHeading, MailLayout, P, Panel } from "./layout";

type Data = MailData<"new_order">;

/** Subject of the shop's new-order notice. */
export function newOrderSubject(data: Data, shop: ParsedMailShop): string {
  return `New order ${data.reference} from ${data.customerName} (${formatRand(data.total)}) — ${shop.name}`;
}

/**
 * The order in Order Management, found by its reference. The page reads the search from `q`
 * (src/app/admin/orders/page.tsx), the name its search form submits.
 */
export function orderManagementUrl(siteUrl: string, reference: string): string {
  return `${siteUrl}/admin/orders?q=${encodeURIComponent(reference)}`;
}

/** To the shop's order-notice address when an order is placed. */
export function NewOrderMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  const total = formatRand(data.total);
  return (
    <MailLayout shop={shop} preview={`${data.customerName} placed order ${data.reference} for ${total}.`}>
      <MailHeading>New order {data.reference}</MailHeading>
      <Panel>
        <Details
          rows={[
            ["Customer", data.customerName],
            ["E-mail", <EmailLink key="email" address={data.customerEmail} />],
            ["Reference", data.reference],
            ["Items", String(data.itemCount)],
            ["Total", total],
            ["Payment", data.paymentMethod === "payfast" ? "Pay now (PayFast)" : "Bank transfer with proof of payment"],
            ...(data.fulfilment ? fulfilmentRows(data.fulfilment) : []),
          ]}
        />
      </Panel>
      {data.paymentMethod === "payfast" ? (
        <P>
          The customer is paying online through PayFast. The order moves on from {messages.adminStatus.pending_payment} by itself once PayFast confirms the
          payment; we send you a notice then.
        </P>
      ) : (
        <P>
          The order is {messages.adminStatus.pending_payment} until you have checked the proof of payment against the bank statement (look for the reference{" "}
          {data.reference}).
        </P>
      )}
      <MailButton href={orderManagementUrl(shop.siteUrl, data.reference)}>Open in Order Management</MailButton>
    </MailLayout>
  );
}
