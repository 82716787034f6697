import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake PayFast for the tests, on loopback, written from PayFast's developer documentation
 * (Checkout, ITN) and independent of the shop's own signing code:
 *
 * - `POST /eng/process`: the hosted payment page. Checks the checkout form's signature (the
 *   non-blank fields in the documented order, PHP urlencode, the merchant's passphrase, MD5) and
 *   the merchant's key; then, as a paying customer would, the payment is taken: a signed ITN is
 *   posted to `notify_url` and the browser is sent to `return_url`. With `cancel=1` in the query
 *   After `cancelNext()` (or `POST /__control/cancel-next`, for the browser tests) the next customer
 *   cancels instead: back to `cancel_url`, no ITN.
 * - `POST /eng/query/validate`: answers VALID for the exact data of an ITN it sent, else INVALID
 *   (or what `validateAnswer` says).
 */

/** The sandbox's published test merchant (developers.payfast.co.za, "Sandbox"). */
export const SANDBOX_MERCHANT = { merchantId: "10000100", merchantKey: "46f0cd694581a", passphrase: "jt7NOE43FZPn" } as const;

/** PHP's urlencode(), written differently from the shop's: encodeURIComponent, then what it leaves that PHP encodes. */
export function referenceUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** The documented order of the checkout variables. */
const CHECKOUT_ORDER = [
  "merchant_id", "merchant_key", "return_url", "cancel_url", "notify_url",
  "name_first", "name_last", "email_address", "cell_number",
  "m_payment_id", "amount", "item_name", "item_description",
  "custom_int1", "custom_int2", "custom_int3", "custom_int4", "custom_int5",
  "custom_str1", "custom_str2", "custom_str3", "custom_str4", "custom_str5",
  "email_confirmation", "confirmation_address", "payment_method",
];

export function referenceCheckoutSignature(fields: Record<string, string>, passphrase: string): string {
  const parts = CHECKOUT_ORDER.filter((name) => (fields[name] ?? "").trim() !== "").map((name) => `${name}=${referenceUrlencode(fields[name]!.trim())}`);
  if (passphrase.trim() !== "") parts.push(`passphrase=${referenceUrlencode(passphrase.trim())}`);
  return md5(parts.join("&"));
}

/** An ITN's signed string: every field but the signature, in order, blanks included. */
export function referenceItnString(fields: [string, string][]): string {
  return fields
    .filter(([name]) => name !== "signature")
    .map(([name, value]) => `${name}=${referenceUrlencode(value)}`)
    .join("&");
}

export function referenceItnSignature(fields: [string, string][], passphrase: string): string {
  const base = referenceItnString(fields);
  return md5(passphrase.trim() === "" ? base : `${base}&passphrase=${referenceUrlencode(passphrase.trim())}`);
}

export interface ItnOptions {
  paymentStatus?: string;
  amountGross?: string;
  passphrase?: string;
  pfPaymentId?: string;
  /** Fields changed after signing (a tampered notification). */
  tamper?: Record<string, string>;
  extra?: [string, string][];
}

export class FakePayFast {
  readonly #server: http.Server;
  readonly #sent = new Set<string>();
  #nextPaymentId = 1_089_250;
  #cancelNext = false;
  /** What /eng/query/validate answers; null: VALID for data it sent, INVALID otherwise. */
  validateAnswer: string | null = null;
  /** Every ITN it posted and the shop's answer. */
  readonly notifications: { body: string; status: number }[] = [];
  /** Checkout forms refused, with why. */
  readonly refusals: string[] = [];

  private constructor(
    readonly merchant: { merchantId: string; merchantKey: string; passphrase: string },
    readonly url: string,
    server: http.Server,
  ) {
    this.#server = server;
  }

  static async start(merchant: { merchantId: string; merchantKey: string; passphrase: string } = SANDBOX_MERCHANT, port = 0): Promise<FakePayFast> {
    const handlers: { fake?: FakePayFast } = {};
    const server = http.createServer((request, response) => void handlers.fake!.handle(request, response));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    handlers.fake = new FakePayFast(merchant, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
    return handlers.fake;
  }

  /** The next customer cancels on the hosted page instead of paying. */
  cancelNext(): void {
    this.#cancelNext = true;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * An ITN as PayFast posts it for a checkout form's fields (the documented ITN variables, in
   * their order), signed with the merchant's passphrase unless `options` says otherwise.
   */
  itnFor(form: Record<string, string>, options: ItnOptions = {}): [string, string][] {
    const fields: [string, string][] = [
      ["m_payment_id", form.m_payment_id ?? ""],
      ["pf_payment_id", options.pfPaymentId ?? String(this.#nextPaymentId++)],
      ["payment_status", options.paymentStatus ?? "COMPLETE"],
      ["item_name", form.item_name ?? ""],
      ["item_description", form.item_description ?? ""],
      ["amount_gross", options.amountGross ?? form.amount ?? ""],
      ["amount_fee", (-Math.round(Number(options.amountGross ?? form.amount) * 3.5) / 100).toFixed(2)],
      ["amount_net", (Number(options.amountGross ?? form.amount) - Math.round(Number(options.amountGross ?? form.amount) * 3.5) / 100).toFixed(2)],
      ["custom_str1", form.custom_str1 ?? ""],
      ["custom_str2", ""],
      ["custom_str3", ""],
      ["custom_str4", ""],
      ["custom_str5", ""],
      ["custom_int1", ""],
      ["custom_int2", ""],
      ["custom_int3", ""],
      ["custom_int4", ""],
      ["custom_int5", ""],
      ["name_first", form.name_first ?? ""],
      ["name_last", form.name_last ?? ""],
      ["email_address", form.email_address ?? ""],
      ["merchant_id", this.merchant.merchantId],
      ...(options.extra ?? []),
    ];
    const signature = referenceItnSignature(fields, options.passphrase ?? this.merchant.passphrase);
    this.#sent.add(referenceItnString(fields));
    const tampered = fields.map(([name, value]): [string, string] => [name, options.tamper?.[name] ?? value]);
    return [...tampered, ["signature", signature]];
  }

  /** The urlencoded body of an ITN, as PayFast posts it. */
  static body(fields: [string, string][]): string {
    return fields.map(([name, value]) => `${name}=${referenceUrlencode(value)}`).join("&");
  }

  async notify(notifyUrl: string, fields: [string, string][]): Promise<number> {
    const body = FakePayFast.body(fields);
    const response = await fetch(notifyUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
    await response.text();
    this.notifications.push({ body, status: response.status });
    return response.status;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const path = new URL(request.url ?? "/", this.url).pathname;
    if (request.method === "POST" && path === "/eng/query/validate") {
      const answer = this.validateAnswer ?? (this.#sent.has(body) ? "VALID" : "INVALID");
      response.writeHead(200, { "content-type": "text/plain" }).end(answer);
      return;
    }
    // The browser tests' remote control (the fake runs in the e2e server's process).
    if (request.method === "POST" && path === "/__control/cancel-next") {
      this.cancelNext();
      response.writeHead(204).end();
      return;
    }
    if (request.method === "POST" && path === "/eng/process") {
      const form = Object.fromEntries(new URLSearchParams(body));
      const problem =
        form.merchant_id !== this.merchant.merchantId || form.merchant_key !== this.merchant.merchantKey
          ? "Merchant is invalid"
          : form.signature !== referenceCheckoutSignature(form, this.merchant.passphrase)
            ? "Signature mismatch"
            : !/^[0-9]+\.[0-9]{2}$/.test(form.amount ?? "")
              ? "Amount is invalid"
              : null;
      if (problem) {
        this.refusals.push(problem);
        response.writeHead(400, { "content-type": "text/html" }).end(`<h1>${problem}</h1>`);
        return;
      }
      if (this.#cancelNext) {
        this.#cancelNext = false;
        response.writeHead(302, { location: form.cancel_url! }).end();
        return;
      }
      // PayFast notifies the merchant's server, then returns the customer.
      await this.notify(form.notify_url!, this.itnFor(form));
      response.writeHead(302, { location: form.return_url! }).end();
      return;
    }
    response.writeHead(404).end();
  }
}
