import type { MailData, ParsedMailShop } from "../schemas";
import { MailHeading, MailLayout, P } from "./layout";

type Data = MailData<"account_deleted">;

/** Subject of the account-deletion confirmation. */
export function accountDeletedSubject(_data: Data, shop: ParsedMailShop): string {
  return `Your ${shop.name} account has been deleted`;
}

/** To the former customer: what was deleted, and what is kept and why (docs/architecture.md#decisions-on-the-spec, POPIA). */
export function AccountDeletedMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`Your ${shop.name} account, profile and cart have been deleted.`}>
      <MailHeading>Your account has been deleted</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>As you asked, we have deleted your {shop.name} account, your profile and your cart. You can no longer sign in with this account.</P>
      <P>
        We keep the orders you placed, with the name and e-mail address you used for them, because the business must keep records of its sales for tax
        purposes.
      </P>
      <P>
        If you did not ask for this, please contact us at {shop.email} or {shop.phone}. You are welcome to create a new account at any time.
      </P>
    </MailLayout>
  );
}
