import type { MailData, ParsedMailShop } from "../schemas";
import { Details, MailButton, MailHeading, MailLayout, P } from "./layout";

type LowStock = MailData<"low_stock">;
type BackInStock = MailData<"back_in_stock">;

function productLink(shop: ParsedMailShop, productId: string): string {
  return new URL(`/products/${productId}`, shop.siteUrl).toString();
}

/** Subject of the admins' low-stock mail. */
export function lowStockSubject(data: LowStock, shop: ParsedMailShop): string {
  return `Low stock: ${data.productName} — ${data.stock} left — ${shop.name}`;
}

/** To the shop: a counted variant came to its low-stock mark (once per crossing). */
export function LowStockMail({ data, shop }: { data: LowStock; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`${data.productName} is down to ${data.stock}.`}>
      <MailHeading>Running low on stock</MailHeading>
      <Details
        rows={[
          ["Item", data.productName],
          ["SKU", data.sku ?? "none"],
          ["In stock", String(data.stock)],
          ["Low-stock mark", String(data.lowStockAt)],
        ]}
      />
      <P>You will be told again only after it has been restocked above the mark and comes down to it once more.</P>
      <MailButton href={productLink(shop, data.productId)}>See the product</MailButton>
    </MailLayout>
  );
}

/** Subject of the customer's back-in-stock mail. */
export function backInStockSubject(data: BackInStock, shop: ParsedMailShop): string {
  return `${data.productName} is back in stock at ${shop.name}`;
}

/** To a customer who asked: the sold-out variant is back. One mail, then the request is gone. */
export function BackInStockMail({ data, shop }: { data: BackInStock; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`${data.productName} is back in stock.`}>
      <MailHeading>Back in stock</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        You asked us to tell you when <strong>{data.productName}</strong> is back. It is in stock again now, while it lasts.
      </P>
      <MailButton href={productLink(shop, data.productId)}>See it in the shop</MailButton>
      <P>This is the only mail we send about it: your request has now been deleted.</P>
    </MailLayout>
  );
}
