import { formatSlot } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { messages } from "@/lib/messages";
import type { MailData, ParsedMailShop } from "../schemas";
import { Details, MailButton, MailHeading, MailLayout, P, Panel } from "./layout";
import { orderManagementUrl } from "./new-order";

type OrderAlert = MailData<"new_order_alert">;
type BookingAlert = MailData<"new_booking_alert">;

const WHY = "This alert could not be delivered to your WhatsApp, so it comes by e-mail instead.";

/** Subject of a new-order alert that WhatsApp could not deliver. */
export function newOrderAlertSubject(data: OrderAlert, shop: ParsedMailShop): string {
  return `WhatsApp alert: new order ${data.reference} — ${shop.name}`;
}

/** The owner's new-order alert by e-mail, once, when WhatsApp could not deliver it. */
export function NewOrderAlertMail({ data, shop }: { data: OrderAlert; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`New order ${data.reference} from ${data.customerName}.`}>
      <MailHeading>New order {data.reference}</MailHeading>
      <P>{WHY}</P>
      <Panel>
        <Details
          rows={[
            ["Customer", data.customerName],
            ["Total", formatRand(data.total)],
            ["Payment", messages.whatsapp.howPaid(data.paymentMethod, data.proofUploaded)],
          ]}
        />
      </Panel>
      <MailButton href={orderManagementUrl(shop.siteUrl, data.reference)}>Open it in Order Management</MailButton>
    </MailLayout>
  );
}

/** Subject of a new-booking alert that WhatsApp could not deliver. */
export function newBookingAlertSubject(data: BookingAlert, shop: ParsedMailShop): string {
  return `WhatsApp alert: new booking, ${data.service}, ${formatSlot(data.startsAt)} — ${shop.name}`;
}

/** The owner's new-booking alert by e-mail, once, when WhatsApp could not deliver it. */
export function NewBookingAlertMail({ data, shop }: { data: BookingAlert; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`New booking: ${data.service} on ${formatSlot(data.startsAt)}.`}>
      <MailHeading>New booking</MailHeading>
      <P>{WHY}</P>
      <Panel>
        <Details
          rows={[
            ["Service", data.service],
            ["When (South African time)", formatSlot(data.startsAt)],
            ["Customer", data.customerName],
            ["Order", data.reference],
          ]}
        />
      </Panel>
      <MailButton href={orderManagementUrl(shop.siteUrl, data.reference)}>Open the order</MailButton>
    </MailLayout>
  );
}
