import { BlockList, isIP } from "node:net";
import { timingSafeEqual } from "node:crypto";
import type { Checked, ClaimedPayment, HostedPayment, PayableOrder, PaymentCredentials, PaymentNotification, PaymentProvider, PaymentUrls } from "@/server/ports/payments";
import { checkoutSignature, notificationParamString, notificationSignature, type CheckoutField } from "./signature";

/** PayFast's live and test systems; PAYFAST_URL replaces both (a fake PayFast in the tests). */
export const PAYFAST_LIVE_URL = "https://www.payfast.co.za";
export const PAYFAST_SANDBOX_URL = "https://sandbox.payfast.co.za";

/**
 * The addresses PayFast sends notifications from, as its developer documentation publishes them
 * (ITN "security check two"); PAYFAST_ITN_SOURCES replaces the list.
 */
export const PAYFAST_ITN_SOURCES = ["197.97.145.144/28", "41.74.179.192/27", "102.216.36.0/28", "102.216.36.128/28", "144.126.193.139/32"];

export interface PayFastOptions {
  /** PAYFAST_URL: when set, used whatever the sandbox setting says. */
  url?: string;
  /** Addresses or CIDR ranges notifications may come from. */
  itnSources: readonly string[];
  /** For the validate post-back (the platform's fetch; a test's stub). */
  fetch?: typeof fetch;
  /** How long PayFast's validate endpoint may take. */
  validateTimeoutMs?: number;
}

/** `a.b.c.d`, `a.b.c.d/n`, an IPv6 address or range: a BlockList that matches them (IPv4-mapped IPv6 too). */
export function addressList(sources: readonly string[]): BlockList {
  const list = new BlockList();
  for (const source of sources) {
    const [address = "", prefix] = source.trim().split("/");
    const family = isIP(address);
    if (family === 0) throw new Error(`Not an address or CIDR range: ${JSON.stringify(source)}`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!/^[0-9]{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`Not a CIDR range: ${JSON.stringify(source)}`);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}

/** Whether `address` (as a socket reports it: IPv4, IPv6 or IPv4-mapped IPv6) is on `list`. */
export function addressAllowed(list: BlockList, address: string): boolean {
  const mapped = /^::ffff:([0-9.]+)$/i.exec(address)?.[1];
  const bare = mapped ?? address;
  const family = isIP(bare);
  if (family === 0) return false;
  return list.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/** Rands as PayFast writes them ("1250.00") to cents; null for anything else. */
export function amountToCents(amount: string): number | null {
  const match = /^(-?)([0-9]{1,10})(?:\.([0-9]{1,2}))?$/.exec(amount.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

/** Splits a customer's name as PayFast's form wants it (first and last; both optional). */
function nameParts(name: string): { first: string; last: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { first: words[0] ?? "", last: "" };
  return { first: words.slice(0, -1).join(" "), last: words.at(-1)! };
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** PayFast (developers.payfast.co.za: Checkout, ITN). */
export function createPayFast(options: PayFastOptions): PaymentProvider {
  const sources = addressList(options.itnSources);
  const doFetch = options.fetch ?? fetch;
  const base = (credentials: PaymentCredentials) => (options.url ?? (credentials.sandbox ? PAYFAST_SANDBOX_URL : PAYFAST_LIVE_URL)).replace(/\/+$/, "");

  return {
    id: "payfast",
    label: "PayFast",
    formOrigin: (credentials) => new URL(base(credentials)).origin,

    startPayment(order: PayableOrder, urls: PaymentUrls, credentials: PaymentCredentials): HostedPayment {
      const name = nameParts(order.customerName);
      const values: Partial<Record<CheckoutField, string>> = {
        merchant_id: credentials.merchantId,
        merchant_key: credentials.merchantKey,
        return_url: urls.returnUrl,
        cancel_url: urls.cancelUrl,
        notify_url: urls.notifyUrl,
        name_first: clip(name.first, 100),
        name_last: clip(name.last, 100),
        email_address: clip(order.customerEmail, 100),
        m_payment_id: order.id,
        amount: order.total,
        item_name: `Order ${order.reference}`,
        custom_str1: order.reference,
      };
      // Sent in the documented order, trimmed and without blanks: the fields are what is signed.
      const fields: [string, string][] = [];
      for (const [field, value] of Object.entries(values) as [CheckoutField, string][]) {
        const trimmed = value.trim();
        if (trimmed) fields.push([field, trimmed]);
      }
      fields.push(["signature", checkoutSignature(values, credentials.passphrase)]);
      return { action: `${base(credentials)}/eng/process`, fields };
    },

    authenticate(notification: PaymentNotification, credentials: PaymentCredentials): Checked<ClaimedPayment> {
      const fields = [...new URLSearchParams(notification.body)];
      const given = fields.find(([field]) => field === "signature")?.[1];
      if (!given) return { ok: false, reason: "no signature" };
      if (!sameText(given.toLowerCase(), notificationSignature(fields, credentials.passphrase))) return { ok: false, reason: "signature mismatch" };
      if (!addressAllowed(sources, notification.sourceAddress)) return { ok: false, reason: `sender ${notification.sourceAddress} is not one of PayFast's addresses` };

      const value = (name: string) => fields.find(([field]) => field === name)?.[1] ?? "";
      if (value("merchant_id") !== credentials.merchantId) return { ok: false, reason: "another merchant's notification" };
      const amountCents = amountToCents(value("amount_gross"));
      if (amountCents === null || amountCents <= 0) return { ok: false, reason: "no amount" };
      const providerPaymentId = value("pf_payment_id");
      if (!/^[0-9A-Za-z-]{1,100}$/.test(providerPaymentId)) return { ok: false, reason: "no PayFast payment id" };
      const orderId = value("m_payment_id");
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return { ok: false, reason: "unknown order" };
      const details = Object.fromEntries(fields.filter(([field]) => field !== "signature"));
      return {
        ok: true,
        value: {
          provider: "payfast",
          providerPaymentId,
          orderId: orderId.toLowerCase(),
          reference: value("custom_str1"),
          amountCents,
          complete: value("payment_status") === "COMPLETE",
          details,
        },
      };
    },

    async confirm(notification: PaymentNotification, credentials: PaymentCredentials): Promise<Checked<true>> {
      const fields = [...new URLSearchParams(notification.body)];
      try {
        const response = await doFetch(`${base(credentials)}/eng/query/validate`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: notificationParamString(fields),
          signal: AbortSignal.timeout(options.validateTimeoutMs ?? 10_000),
        });
        const answer = (await response.text()).trim();
        if (!response.ok) return { ok: false, reason: `PayFast's validate answered ${response.status}`, retry: true };
        return answer === "VALID" ? { ok: true, value: true } : { ok: false, reason: `PayFast's validate answered ${JSON.stringify(answer.slice(0, 40))}` };
      } catch (error) {
        return { ok: false, reason: `PayFast's validate could not be reached: ${error instanceof Error ? error.message : String(error)}`, retry: true };
      }
    },
  };
}
