import { formatRand } from "@/lib/money";
import { mailTheme as t } from "../mail-theme";
import type { MailData, ParsedMailShop } from "../schemas";
import { FulfilmentDetails } from "./fulfilment-details";
import { Details, ItemsTable, MailButton, MailHeading, MailLayout, MailSubheading, P, Panel } from "./layout";
import { orderPath } from "@/lib/order-paths";
import { formatSlot, formatTime } from "@/lib/days";

type Data = MailData<"order_received">;

/** Subject of the customer's order confirmation. */
export function orderReceivedSubject(data: Data, shop: ParsedMailShop): string {
  return `Order ${data.reference} received — ${shop.name}`;
}

/** To the customer when an order is placed: what they ordered, how to pay, what happens next. */
export function OrderReceivedMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  const total = formatRand(data.total);
  // What is paid now: the deposit of an order with bookings asking one, else the total.
  const dueNow = formatRand(data.deposit ?? data.total);
  return (
    <MailLayout shop={shop} preview={`We have received your order ${data.reference} (${total}).`}>
      <MailHeading>Thank you for your order</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        We have received your order <strong>{data.reference}</strong>. Here is what you ordered:
      </P>
      <ItemsTable items={data.items} total={data.total} />
      <Bookings items={data.items} />
      <FulfilmentDetails fulfilment={data.fulfilment} />

      <Balance data={data} />
      {data.deposit === 0 ? null : data.paymentMethod === "payfast" ? (
        <PayingOnline data={data} shop={shop} total={dueNow} />
      ) : (
        <PayingByEft data={data} shop={shop} total={dueNow} />
      )}
      <MailButton href={`${shop.siteUrl}${orderPath(data.reference)}`}>View your order</MailButton>
    </MailLayout>
  );
}

/** The booked times (South African), with the calendar file attached to the mail. */
function Bookings({ items }: { items: Data["items"] }) {
  const booked = items.filter((item) => item.startsAt && item.endsAt);
  if (booked.length === 0) return null;
  return (
    <>
      <MailSubheading>Your bookings</MailSubheading>
      {booked.map((item, index) => (
        <P key={index}>
          {item.name}: {formatSlot(item.startsAt!)} to {formatTime(item.endsAt!)} (South African time).
        </P>
      ))}
      <P>The calendar file attached to this e-mail adds them to your calendar.</P>
    </>
  );
}

/** An order with bookings asking a deposit: what is due now and the balance later, with its own reference. */
function Balance({ data }: { data: Data }) {
  if (data.deposit === undefined || data.balance === undefined || !data.balanceReference) return null;
  return (
    <>
      <MailSubheading>Deposit and balance</MailSubheading>
      <P>
        {data.deposit === 0 ? "Nothing is due now." : `Due now: a deposit of ${formatRand(data.deposit)}.`} The balance of {formatRand(data.balance)} is paid
        later with the reference <strong>{data.balanceReference}</strong>, by EFT or online, from your order&apos;s page.
      </P>
    </>
  );
}

/** "Pay now": the payment happens on PayFast's page; this mail says what follows it. */
function PayingOnline({ data, total }: { data: Data; shop: ParsedMailShop; total: string }) {
  return (
    <>
      <MailSubheading>Paying online</MailSubheading>
      <P>
        You chose to pay {total} now through PayFast. As soon as PayFast confirms your payment we e-mail you, and your order goes on to be prepared and
        delivered.
      </P>
      <P>
        If you left PayFast&apos;s page before paying, you can pay from your order&apos;s page or your purchase history: pay now, or pay by bank transfer with the reference{" "}
        {data.reference} and upload your proof of payment.
      </P>
    </>
  );
}

function PayingByEft({ data, shop, total }: { data: Data; shop: ParsedMailShop; total: string }) {
  return (
    <>
      <MailSubheading>Paying by EFT</MailSubheading>
      <P>Pay the total into our account by EFT and use the payment reference, so that we can match your payment to your order.</P>
      <Panel tone="accent">
        <Details
          tone="accent"
          rows={[
            ["Account name", shop.bank.accountName],
            ["Bank", shop.bank.bankName],
            ["Account number", shop.bank.accountNumber],
            ["Branch code", shop.bank.branchCode],
            ["Account type", shop.bank.accountType],
            ["Payment reference", data.reference],
            ["Amount", total],
          ]}
        />
      </Panel>

      <MailSubheading>What happens next</MailSubheading>
      <ol style={{ margin: "0 0 20px", paddingLeft: "22px", color: t.ink, fontSize: "16px", lineHeight: "24px" }}>
        {data.proofUploaded ? (
          <li style={{ marginBottom: "8px" }}>
            We have your proof of payment. If you have not made the EFT yet, pay {total} with the reference {data.reference}.
          </li>
        ) : (
          <li style={{ marginBottom: "8px" }}>
            Pay {total} by EFT with the reference {data.reference}, then upload your proof of payment on our website.
          </li>
        )}
        <li style={{ marginBottom: "8px" }}>We check that your payment has reached our account, then prepare and deliver your order.</li>
        <li style={{ marginBottom: "8px" }}>We e-mail you each time your order&apos;s status changes. Your purchase history shows it too.</li>
      </ol>
    </>
  );
}
