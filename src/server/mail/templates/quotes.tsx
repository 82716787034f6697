import { Fragment } from "react";
import { formatDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import type { MailData, ParsedMailShop } from "../schemas";
import { Details, EmailLink, MailButton, MailHeading, MailLayout, P, Panel } from "./layout";
import { quotePath } from "@/lib/order-paths";

type Requested = MailData<"quote_requested">;
type Sent = MailData<"quote_sent">;
type ChangeAsked = MailData<"quote_change_asked">;

const link = (shop: ParsedMailShop, path: string) => new URL(path, shop.siteUrl).toString();

/** A customer's own words, line breaks kept in both the HTML and the plain text. */
function Words({ text }: { text: string }) {
  return (
    <Panel>
      <P style={{ margin: 0 }}>
        {text.split(/\r\n|\r|\n/).map((line, index) => (
          <Fragment key={index}>
            {index > 0 ? <br /> : null}
            {line}
          </Fragment>
        ))}
      </P>
    </Panel>
  );
}

/** Subject of the shop's mail about a new quote request. */
export function quoteRequestedSubject(data: Requested, shop: ParsedMailShop): string {
  return `Quote request from ${data.customerName} — ${shop.name}`;
}

/** To the shop: a customer asked for a quote; the inbox has it. */
export function QuoteRequestedMail({ data, shop }: { data: Requested; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`${data.customerName} asked for a quote.`}>
      <MailHeading>New quote request</MailHeading>
      <Details
        rows={[
          ["Customer", data.customerName],
          ["E-mail", <EmailLink key="email" address={data.customerEmail} />],
          ["Company", data.company ?? "not given"],
          ["Preferred date", data.preferredDate ? formatDay(data.preferredDate) : "not given"],
          ["Products named", String(data.itemCount)],
          ["Files", String(data.fileCount)],
        ]}
      />
      <Words text={data.description} />
      <MailButton href={link(shop, `/admin/quotes/${data.requestId}`)}>Price it in the quote inbox</MailButton>
    </MailLayout>
  );
}

/** Subject of the customer's mail with their quote. */
export function quoteSentSubject(data: Sent, shop: ParsedMailShop): string {
  return data.version > 1 ? `Your revised quote ${data.number} from ${shop.name}` : `Your quote ${data.number} from ${shop.name}`;
}

/** To the customer: their quote (or its revision) is ready, with the link to accept, decline or ask for a change. */
export function QuoteSentMail({ data, shop }: { data: Sent; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`Quote ${data.number}: ${formatRand(data.total)}, valid until ${formatDay(data.validUntil)}.`}>
      <MailHeading>{data.version > 1 ? `Your revised quote ${data.number}` : `Your quote ${data.number}`}</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>Your quote is ready. Open it to accept it, ask us for a change or decline it.</P>
      <Details
        rows={[
          ["Quote", data.version > 1 ? `${data.number} (version ${data.version})` : data.number],
          ["Total", formatRand(data.total)],
          ["Valid until", formatDay(data.validUntil)],
        ]}
      />
      <MailButton href={link(shop, quotePath(data.requestId))}>Open your quote</MailButton>
    </MailLayout>
  );
}

/** Subject of the shop's mail about a change asked for. */
export function quoteChangeAskedSubject(data: ChangeAsked, shop: ParsedMailShop): string {
  return `Change asked for quote ${data.number} by ${data.customerName} — ${shop.name}`;
}

/** To the shop: the customer asked for a change to their quote; a revision answers it. */
export function QuoteChangeAskedMail({ data, shop }: { data: ChangeAsked; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`${data.customerName} asked for a change to quote ${data.number}.`}>
      <MailHeading>A change to quote {data.number}</MailHeading>
      <Details
        rows={[
          ["Customer", data.customerName],
          ["E-mail", <EmailLink key="email" address={data.customerEmail} />],
          ["Version", String(data.version)],
        ]}
      />
      <Words text={data.message} />
      <MailButton href={link(shop, `/admin/quotes/${data.requestId}`)}>Send a revised quote</MailButton>
    </MailLayout>
  );
}
