/**
 * WhatsApp commands for tests/api/model.test.ts (issue 40, docs/whatsapp.md): a customer ticks
 * or unticks "Send my order updates on WhatsApp"; replies STOP (in its usual variants) or asks a
 * question; someone posts a forged webhook (wrong or no signature) or a handshake with the wrong
 * verify token; WhatsApp reports statuses of a sent message out of order and twice; the outbox
 * worker runs against a fake Cloud API. The model keeps each customer's live consent and says
 * what each must do; the worker step checks the rule that matters most: nothing goes to WhatsApp
 * without a live consent, and each notice goes once.
 */
import fc from "fast-check";
import { sql } from "kysely";
import { expect } from "vitest";
import { messages } from "@/lib/messages";
import type { OutgoingMail } from "@/server/ports/mail";
import { deliverDue } from "@/server/mail/outbox";
import { mailShopFrom } from "@/server/mail/shop";
import { handleNotification, verificationAnswer } from "@/server/messaging/webhook";
import { createWhatsAppChannel } from "@/server/platform/adapters/whatsapp/cloud-api";
import { shopSettingsFor } from "@/server/settings/shop-settings";
import { expectOk } from "./answers";
import { asCustomer, expectSignInRequired, signedOut, Step, type ShopCommand } from "./step";
import type { RealShop } from "./real-shop";
import { CUSTOMERS, type ShopModel } from "./shop-model";

const customer = fc.nat({ max: CUSTOMERS - 1 });

/** Each customer's WhatsApp number (E.164), the same for every account they hold in a run. */
export function modelPhone(index: number): string {
  return `+2782777${String(index).padStart(4, "0")}`;
}

/** The customer's live consent, or null: given by the account they hold now, not withdrawn. */
function liveConsent(model: Readonly<ShopModel>, index: number): string | null {
  const customer = model.customers[index]!;
  const consent = model.consents[index];
  return consent && !customer.deleted && consent.accountId === customer.id ? consent.phone : null;
}

/** What the database holds of consents and the outbox: a refused webhook must change neither. */
async function fingerprint(real: RealShop) {
  const { rows } = await sql<{ consents: string; outbox: string; messages: string }>`
    select (select count(*) || ':' || count(withdrawn_at) from public.messaging_consents) as consents,
           (select count(*) || ':' || count(delivery_status) from public.mail_outbox) as outbox,
           (select count(*)::text from public.contact_messages) as messages`.execute(real.db.kysely);
  return rows[0];
}

class ChooseWhatsApp extends Step {
  constructor(
    readonly customer: number,
    readonly given: boolean,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const customer = model.customers[this.customer]!;
    const input = this.given
      ? { kind: "whatsapp_updates" as const, given: true as const, phone: `0${modelPhone(this.customer).slice(3)}`, source: "profile" as const }
      : { kind: "whatsapp_updates" as const, given: false as const };
    const result = await asCustomer(real, this.customer, what, (caller) => caller.messaging.setConsent(input));
    if (signedOut(customer)) return expectSignInRequired(result, what);
    expect(expectOk(result, what).message, what).toBe(this.given ? messages.consent.saved : messages.consent.withdrawn);
    model.consents[this.customer] = this.given ? { accountId: customer.id, phone: modelPhone(this.customer) } : null;
    const mine = expectOk(await asCustomer(real, this.customer, `${what}: reads`, (caller) => caller.messaging.myConsents()), `${what}: reads`);
    expect(mine.whatsappUpdates?.phone ?? null, what).toBe(liveConsent(model, this.customer));
  }
  toString() {
    return `customer ${this.customer} ${this.given ? "ticks" : "unticks"} order updates on WhatsApp`;
  }
}

/** An inbound message from the customer's number: STOP in one of its spellings, or a question. */
class ReplyOnWhatsApp extends Step {
  constructor(
    readonly customer: number,
    readonly text: string,
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const phone = modelPhone(this.customer);
    const stopping = this.text !== "When will my order arrive?";
    const confirmationsBefore = await stopConfirmations(real, phone);
    const { body, signature } = real.whatsapp.signed(real.whatsapp.inbound(phone.slice(1), this.text, "Model Customer"));
    const result = await handleNotification(real.db.kysely, real.whatsapp.settings, body, signature);
    expect(result.status, what).toBe(200);
    const wasLive = liveConsent(model, this.customer) !== null;
    if (stopping) {
      // Withdrawn at once, confirmed once: only when there was something to withdraw.
      expect(await stopConfirmations(real, phone), what).toBe(confirmationsBefore + (wasLive ? 1 : 0));
      model.consents[this.customer] = null;
    } else {
      model.contactMessages += 1;
    }
    const live = await real.db.kysely
      .selectFrom("messaging_consents")
      .select("id")
      .where("phone", "=", phone)
      .where("kind", "=", "whatsapp_updates")
      .where("withdrawn_at", "is", null)
      .execute();
    expect(live.length > 0, `${what}: a live consent in the database`).toBe(liveConsent(model, this.customer) !== null);
  }
  toString() {
    return `customer ${this.customer} writes "${this.text}" on WhatsApp`;
  }
}

async function stopConfirmations(real: RealShop, phone: string): Promise<number> {
  const rows = await real.db.kysely.selectFrom("mail_outbox").select("id").where("template", "=", "whatsapp_stopped").where("recipient", "=", phone).execute();
  return rows.length;
}

/** Someone other than Meta: a STOP with a wrong or no signature, or the handshake with a wrong token. */
class ForgedWebhook extends Step {
  constructor(
    readonly customer: number,
    readonly forgery: "wrong signature" | "no signature" | "wrong verify token",
  ) {
    super();
  }
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const before = await fingerprint(real);
    if (this.forgery === "wrong verify token") {
      const params = new URLSearchParams({ "hub.mode": "subscribe", "hub.verify_token": `${real.whatsapp.settings.verifyToken}x`, "hub.challenge": "12345" });
      expect(verificationAnswer(params, real.whatsapp.settings).status, what).toBe(403);
    } else {
      const { body } = real.whatsapp.signed(real.whatsapp.inbound(modelPhone(this.customer).slice(1), "STOP"));
      const signature = this.forgery === "no signature" ? null : `sha256=${"0".repeat(64)}`;
      expect((await handleNotification(real.db.kysely, real.whatsapp.settings, body, signature)).status, what).toBe(401);
    }
    expect(await fingerprint(real), what).toEqual(before);
  }
  toString() {
    return `a forged webhook for customer ${this.customer}: ${this.forgery}`;
  }
}

/**
 * The outbox worker runs (WhatsApp on a fake Cloud API, mail into memory). Every message WhatsApp
 * gets is to a number whose customer consents at that moment, each row goes once, and a customer
 * notice of someone who does not consent (any more) goes by e-mail instead.
 */
class OutboxRuns extends Step {
  async step(model: ShopModel, real: RealShop) {
    const what = String(this);
    const sentBefore = real.whatsapp.sent.length;
    const mails: OutgoingMail[] = [];
    const deps = {
      db: real.db.kysely,
      transport: { kind: "smtp" as const, send: async (mail: OutgoingMail) => void mails.push(mail) },
      whatsapp: createWhatsAppChannel(real.whatsapp.settings),
      shop: async () => mailShopFrom(await (await shopSettingsFor(real.db)).published()),
    };
    for (let round = 0; round < 20 && (await deliverDue(deps)).claimed > 0; round++);
    const consenting = new Set(model.customers.map((_, index) => liveConsent(model, index)).filter((phone) => phone !== null).map((phone) => phone.slice(1)));
    for (const message of real.whatsapp.sent.slice(sentBefore)) {
      // The STOP confirmation is the one message to a number that has just withdrawn.
      if (message.type === "text" && message.text === messages.whatsapp.stopConfirmed) continue;
      expect(consenting.has(message.to), `${what}: ${message.template} to ${message.to} without a live consent`).toBe(true);
    }
    expect(real.whatsapp.repeats, `${what}: a notice sent twice`).toBe(0);
    const due = await real.db.kysely.selectFrom("mail_outbox").select(["id", "channel", "template"]).where("sent_at", "is", null).where("failed_at", "is", null).execute();
    expect(due, `${what}: left unsent`).toEqual([]);
  }
  toString() {
    return "the outbox worker runs";
  }
}

/** WhatsApp reports a sent message's statuses, out of order and some twice: the row keeps the furthest. */
class StatusesArrive extends Step {
  constructor(
    readonly pick: number,
    readonly statuses: ("sent" | "delivered" | "read")[],
  ) {
    super();
  }
  override precondition() {
    return this.statuses.length > 0;
  }
  async step(_model: ShopModel, real: RealShop) {
    const what = String(this);
    const rows = await real.db.kysely.selectFrom("mail_outbox").select(["id", "provider_message_id", "delivery_status"]).where("provider_message_id", "is not", null).orderBy("created_at").execute();
    if (rows.length === 0) return;
    const row = rows[this.pick % rows.length]!;
    const message = real.whatsapp.sent.find((sent) => sent.id === row.provider_message_id);
    if (!message) return;
    for (const payload of real.whatsapp.statusNotifications(message, this.statuses)) {
      const { body, signature } = real.whatsapp.signed(payload);
      expect((await handleNotification(real.db.kysely, real.whatsapp.settings, body, signature)).status, what).toBe(200);
    }
    const rank = ["sent", "delivered", "read"] as const;
    const furthest = [row.delivery_status, ...this.statuses].filter((status) => status !== null).sort((a, b) => rank.indexOf(a as (typeof rank)[number]) - rank.indexOf(b as (typeof rank)[number])).at(-1);
    const after = await real.db.kysely.selectFrom("mail_outbox").select("delivery_status").where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after.delivery_status, what).toBe(furthest);
  }
  toString() {
    return `WhatsApp reports message ${this.pick}: ${this.statuses.join(", ")}`;
  }
}

const stopWords = fc.constantFrom("STOP", "stop", "Stop.", "unsubscribe", "opt out", "When will my order arrive?");
const statuses = fc.array(fc.constantFrom("sent" as const, "delivered" as const, "read" as const), { minLength: 1, maxLength: 5 });

export function messagingCommands(weighted: (weight: number, arbitrary: fc.Arbitrary<ShopCommand>) => { weight: number; arbitrary: fc.Arbitrary<ShopCommand> }) {
  return [
    weighted(3, fc.tuple(customer, fc.constantFrom(true, true, false)).map(([c, given]) => new ChooseWhatsApp(c, given))),
    weighted(2, fc.tuple(customer, stopWords).map(([c, text]) => new ReplyOnWhatsApp(c, text))),
    weighted(1, fc.tuple(customer, fc.constantFrom("wrong signature" as const, "no signature" as const, "wrong verify token" as const)).map(([c, forgery]) => new ForgedWebhook(c, forgery))),
    weighted(3, fc.constant(new OutboxRuns())),
    weighted(1, fc.tuple(fc.nat(), statuses).map(([pick, list]) => new StatusesArrive(pick, list))),
  ];
}
