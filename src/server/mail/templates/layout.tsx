import type { CSSProperties, ReactNode } from "react";
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import { formatRand, toCents } from "@/lib/money";
import { mailTheme as t } from "../mail-theme";
import type { ParsedMailShop } from "../schemas";

/**
 * The frame and building blocks every mail shares. Styles are inline (mail clients drop <style>
 * and never load CSS); layout tables come from React Email's components, which Outlook needs.
 */

const text: CSSProperties = { color: t.ink, fontSize: "16px", lineHeight: "24px", margin: "0 0 16px" };
const small: CSSProperties = { color: t.muted, fontSize: "13px", lineHeight: "20px", margin: "0 0 4px" };
const cell: CSSProperties = { padding: "8px 6px", borderBottom: `1px solid ${t.line}`, fontSize: "15px", color: t.ink, verticalAlign: "top" };
const headCell: CSSProperties = { ...cell, color: t.muted, fontSize: "13px", fontWeight: 600, textAlign: "left" };
const numeric: CSSProperties = { textAlign: "right", whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" };

/** The page, the header band with the shop's name, and the footer with its contact details. */
export function MailLayout({ shop, preview, children }: { shop: ParsedMailShop; preview: string; children: ReactNode }) {
  return (
    <Html lang="en-ZA" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: t.surface, margin: 0, padding: "24px 0", fontFamily: t.fontFamily }}>
        <Container style={{ maxWidth: "600px", backgroundColor: t.white, border: `1px solid ${t.line}`, borderRadius: "12px", overflow: "hidden" }}>
          <Section style={{ backgroundColor: t.brand700, padding: "20px 28px" }}>
            <Text style={{ color: t.white, fontSize: "20px", lineHeight: "28px", fontWeight: 700, margin: 0 }}>{shop.name}</Text>
          </Section>
          <Section style={{ padding: "28px 28px 12px", fontFamily: t.fontFamily }}>{children}</Section>
          <Section style={{ padding: "0 28px 24px" }}>
            <Hr style={{ borderColor: t.line, margin: "8px 0 16px" }} />
            <Text style={small}>{shop.name}</Text>
            <Text style={small}>
              <Link href={`mailto:${shop.email}`} style={{ color: t.brand700 }}>
                {shop.email}
              </Link>
              {" · "}
              {shop.phone}
            </Text>
            <Text style={small}>
              <Link href={shop.siteUrl} style={{ color: t.brand700 }}>
                {shop.siteUrl}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The mail's heading. */
export function MailHeading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h1" style={{ color: t.brand800, fontSize: "24px", lineHeight: "32px", fontWeight: 700, margin: "0 0 16px" }}>
      {children}
    </Heading>
  );
}

/** A section heading inside a mail. */
export function MailSubheading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h2" style={{ color: t.brand800, fontSize: "18px", lineHeight: "26px", fontWeight: 700, margin: "24px 0 8px" }}>
      {children}
    </Heading>
  );
}

/** A paragraph of body text. */
export function P({ children, style }: { children: ReactNode; style?: CSSProperties }) {
  return <Text style={{ ...text, ...style }}>{children}</Text>;
}

/** The primary call to action, styled as the site's primary button. */
export function MailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: "8px 0 20px" }}>
      <Button
        href={href}
        style={{ backgroundColor: t.brand700, color: t.white, borderRadius: "10px", padding: "12px 20px", fontSize: "15px", fontWeight: 600, textDecoration: "none" }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** A tinted panel: brand for facts (a status, a message), accent for what to act on (paying). */
export function Panel({ tone = "brand", children }: { tone?: "brand" | "accent"; children: ReactNode }) {
  const colours = tone === "brand" ? { backgroundColor: t.brand50, border: `1px solid ${t.brand200}` } : { backgroundColor: t.accent100, border: `1px solid ${t.accent100}` };
  return <Section style={{ ...colours, borderRadius: "10px", padding: "14px 18px", margin: "0 0 20px" }}>{children}</Section>;
}

/**
 * Label–value pairs (bank details, a message's sender). Each pair is one line in HTML and in the
 * plain-text part alike ("Account number: 62812345678"), so the text is easy to copy from.
 */
export function Details({ rows, tone }: { rows: readonly (readonly [label: string, value: ReactNode])[]; tone?: "accent" }) {
  const labelColour = tone === "accent" ? t.accent700 : t.muted;
  return (
    <>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ ...text, margin: "0 0 6px" }}>
          <span style={{ color: labelColour }}>{label}:</span> <strong style={{ color: t.brand800 }}>{value}</strong>
        </Text>
      ))}
    </>
  );
}

/** Marks the items table, which the plain-text part lays out as columns (see render.tsx). */
export const ITEMS_TABLE_CLASS = "order-items";

/** An e-mail address as a Details row's value: a mailto link in the brand colour (the shop's notices). */
export function EmailLink({ address }: { address: string }) {
  return (
    <Link href={`mailto:${address}`} style={{ color: t.brand700 }}>
      {address}
    </Link>
  );
}

/** An order's lines with quantity, unit price and line total, and the order's total. */
export function ItemsTable({ items, total }: { items: readonly { name: string; quantity: number; unitPrice: number }[]; total: number }) {
  return (
    <table className={ITEMS_TABLE_CLASS} role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse", margin: "0 0 20px" }}>
      <thead>
        <tr>
          <th style={headCell}>Item</th>
          <th style={{ ...headCell, ...numeric }}>Qty</th>
          <th style={{ ...headCell, ...numeric }}>Unit price</th>
          <th style={{ ...headCell, ...numeric }}>Line total</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          <tr key={index}>
            <td style={cell}>{item.name}</td>
            <td style={{ ...cell, ...numeric }}>{item.quantity}</td>
            <td style={{ ...cell, ...numeric }}>{formatRand(item.unitPrice)}</td>
            <td style={{ ...cell, ...numeric }}>{formatRand(lineTotal(item))}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={3} style={{ ...cell, borderBottom: "none", fontWeight: 700 }}>
            Total
          </td>
          <td style={{ ...cell, ...numeric, borderBottom: "none", fontWeight: 700, color: t.brand800 }}>{formatRand(total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** A line's total in rands, computed in whole cents so 3 × R0.10 is R0.30, not R0.30000000000000004. */
export function lineTotal(item: { quantity: number; unitPrice: number }): number {
  return (toCents(item.unitPrice) * item.quantity) / 100;
}
