import type { MailData, ParsedMailShop } from "../schemas";
import { MailButton, MailHeading, MailLayout, P } from "./layout";

/*
 * The account mails of the local run modes (issue 34): a password reset link, the link that
 * confirms a new e-mail address, and the notice to the old address. The links are built from the
 * shop's own address (SITE_URL), never from the request that asked for them.
 */

/** The page a password reset link opens. */
export function passwordResetLink(shop: ParsedMailShop, token: string): string {
  return `${shop.siteUrl}/auth/reset?${new URLSearchParams({ token }).toString()}`;
}

/** The page an e-mail change link opens. */
export function emailChangeLink(shop: ParsedMailShop, token: string): string {
  return `${shop.siteUrl}/auth/confirm-email?${new URLSearchParams({ token }).toString()}`;
}

export function passwordResetSubject(_data: MailData<"password_reset">, shop: ParsedMailShop): string {
  return `Set a new password for your ${shop.name} account`;
}

export function PasswordResetMail({ data, shop }: { data: MailData<"password_reset">; shop: ParsedMailShop }) {
  const link = passwordResetLink(shop, data.token);
  return (
    <MailLayout shop={shop} preview="Someone asked to reset your password. The link works once, for one hour.">
      <MailHeading>Set a new password</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>Someone (we hope you) asked to reset the password of your {shop.name} account. Open this link to choose a new one:</P>
      <MailButton href={link}>Set a new password</MailButton>
      <P>Or copy this address into your browser: {link}</P>
      <P>The link works once, for one hour. Setting a new password signs out every other device signed in to your account.</P>
      <P>If you did not ask for this, ignore this mail: your password stays as it is.</P>
    </MailLayout>
  );
}

export function emailChangeConfirmSubject(_data: MailData<"email_change_confirm">, shop: ParsedMailShop): string {
  return `Confirm your new e-mail address for ${shop.name}`;
}

export function EmailChangeConfirmMail({ data, shop }: { data: MailData<"email_change_confirm">; shop: ParsedMailShop }) {
  const link = emailChangeLink(shop, data.token);
  return (
    <MailLayout shop={shop} preview={`Confirm ${data.newEmail} as your ${shop.name} address. The link works once, for one hour.`}>
      <MailHeading>Confirm your new e-mail address</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        You asked to use <strong>{data.newEmail}</strong> for your {shop.name} account. Open this link to confirm it:
      </P>
      <MailButton href={link}>Confirm my new address</MailButton>
      <P>Or copy this address into your browser: {link}</P>
      <P>The link works once, for one hour. Until you open it, your account keeps its current address.</P>
      <P>If you did not ask for this, ignore this mail.</P>
    </MailLayout>
  );
}

export function emailChangeNoticeSubject(_data: MailData<"email_change_notice">, shop: ParsedMailShop): string {
  return `A change of e-mail address was asked for your ${shop.name} account`;
}

export function EmailChangeNoticeMail({ data, shop }: { data: MailData<"email_change_notice">; shop: ParsedMailShop }) {
  return (
    <MailLayout shop={shop} preview={`Your ${shop.name} account may soon use another e-mail address.`}>
      <MailHeading>Your e-mail address is being changed</MailHeading>
      <P>Hello {data.customerName},</P>
      <P>
        Someone signed in to your {shop.name} account asked to change its e-mail address to <strong>{data.newEmail}</strong>. The change happens once
        the link we sent to that address is opened.
      </P>
      <P>
        If this was not you, please set a new password at once with &quot;Forgot password?&quot; on the sign-in page ({shop.siteUrl}/auth/forgot), and
        contact us at {shop.email} or {shop.phone}.
      </P>
    </MailLayout>
  );
}
