import { Fragment } from "react";
import { mailTheme as t } from "../mail-theme";
import type { MailData, ParsedMailShop } from "../schemas";
import { Details, EmailLink, MailHeading, MailLayout, P, Panel } from "./layout";

type Data = MailData<"contact_message">;

/** Subject of a contact-form message. */
export function contactMessageSubject(data: Data, shop: ParsedMailShop): string {
  return `Message from ${data.name} — ${shop.name} contact form`;
}

/** To the shop: a message from the contact form. Replying answers the sender (Reply-To). */
export function ContactMessageMail({ data, shop }: { data: Data; shop: ParsedMailShop }) {
  // Line breaks as <br>, so both the HTML and the plain-text part keep the sender's paragraphs.
  const lines = data.message.split(/\r\n|\r|\n/);
  return (
    <MailLayout shop={shop} preview={`${data.name} wrote through the contact form.`}>
      <MailHeading>New message from the contact form</MailHeading>
      <Details
        rows={[
          ["Name", data.name],
          ["E-mail", <EmailLink key="email" address={data.email} />],
          ["Phone", data.phone ? data.phone : "not given"],
        ]}
      />
      <Panel>
        <P style={{ margin: 0 }}>
          {lines.map((text, index) => (
            <Fragment key={index}>
              {index > 0 ? <br /> : null}
              {text}
            </Fragment>
          ))}
        </P>
      </Panel>
      <P style={{ color: t.muted, fontSize: "14px" }}>Reply to this e-mail to answer {data.name} directly.</P>
    </MailLayout>
  );
}
