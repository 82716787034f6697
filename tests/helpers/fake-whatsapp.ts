import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "@/lib/zod";
import { WHATSAPP_TEMPLATES } from "@/server/messaging/templates";
import type { WhatsAppSettings } from "@/server/platform/adapters/whatsapp/cloud-api";

/** A message the fake Cloud API accepted (once per idempotency key). */
export interface FakeWhatsAppMessage {
  id: string;
  to: string;
  type: "template" | "text";
  template?: string;
  language?: string;
  parameters: string[];
  text?: string;
  idempotencyKey: string | undefined;
}

export interface FakeWhatsApp {
  /** WHATSAPP_* for the shop: the fake's address, its token, app secret and verify token. */
  settings: WhatsAppSettings;
  /** Messages accepted, in order; a repeat of an idempotency key is not added (see `repeats`). */
  sent: FakeWhatsAppMessage[];
  /** How many sends repeated an idempotency key already accepted (a retry after a crash). */
  repeats: number;
  /** Requests refused for a wrong token or a payload of the wrong shape, with why. */
  refused: string[];
  /** "accept"; "refuse" answers 400 for the message itself (final); "down" answers 500 (try again). */
  mode: "accept" | "refuse" | "down";
  /**
   * Holds each message for `ms` (the fault script kills the shop meanwhile): "before" it is taken
   * (a sender that goes away meanwhile sent nothing), or "after" it is taken, before the answer
   * (a sender that goes away meanwhile sent it without hearing so). Null: no hold.
   */
  hold: { when: "before" | "after"; ms: number } | null;
  /** Messages being held right now. */
  held: number;
  /** A notification body signed as Meta signs it (X-Hub-Signature-256 with the app secret). */
  signed(payload: unknown): { body: Uint8Array; signature: string };
  /** The statuses of a message as Meta posts them: one notification per status, in the order given. */
  statusNotifications(message: FakeWhatsAppMessage, statuses: ("sent" | "delivered" | "read" | "failed")[]): unknown[];
  /** An inbound text from a number (E.164), as Meta posts it. */
  inbound(from: string, text: string, name?: string): unknown;
  close(): Promise<void>;
}

const parameter = z.object({ type: z.literal("text"), text: z.string().min(1).max(1024).refine((text) => !/[\n\t]|\s{5,}/.test(text), "no new lines, tabs or 5 spaces") });
const common = { messaging_product: z.literal("whatsapp"), recipient_type: z.literal("individual"), to: z.string().regex(/^[1-9][0-9]{6,14}$/), biz_opaque_callback_data: z.string().max(512).optional() };
const payload = z.discriminatedUnion("type", [
  z.strictObject({
    ...common,
    type: z.literal("template"),
    template: z.strictObject({ name: z.string(), language: z.strictObject({ code: z.string() }), components: z.array(z.strictObject({ type: z.literal("body"), parameters: z.array(parameter) })).length(1) }),
  }),
  z.strictObject({ ...common, type: z.literal("text"), text: z.strictObject({ preview_url: z.boolean().optional(), body: z.string().min(1).max(4096) }) }),
]);

const TEMPLATES = new Map<string, { name: string; language: string; parameters: readonly string[] }>(Object.values(WHATSAPP_TEMPLATES).map((template) => [template.name, template]));

/**
 * A fake WhatsApp Cloud API on 127.0.0.1: POST /{version}/{phone-number-id}/messages with the
 * bearer token, each payload checked against the shape Meta documents and each template against
 * the shop's own (name, language, number of body parameters); answers with a message id as Meta
 * does. It recognises a repeated send by its idempotency key (biz_opaque_callback_data) and
 * answers it with the first id, so a retry after a crash is one message.
 */
export async function startFakeWhatsApp(options: { port?: number; token?: string; appSecret?: string; verifyToken?: string } = {}): Promise<FakeWhatsApp> {
  const token = options.token ?? `EAAG${randomUUID().replace(/-/g, "")}`;
  const appSecret = options.appSecret ?? randomUUID();
  const phoneNumberId = "106540352242922";
  const byKey = new Map<string, FakeWhatsAppMessage>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const hold = fake.hold;
      if (hold?.when === "before" && request.method === "POST") {
        fake.held++;
        setTimeout(() => {
          fake.held--;
          // The sender went away while it was held: nothing was taken.
          if (!response.destroyed && !request.socket.destroyed) take();
        }, hold.ms);
        return;
      }
      take();
    });
    const take = () => {
      const hold = fake.hold;
      const answer = (status: number, body: unknown) => {
        const send = () => {
          if (response.destroyed) return;
          response.writeHead(status, { "content-type": "application/json" });
          response.end(JSON.stringify(body));
        };
        if (hold?.when !== "after" || request.method !== "POST") return send();
        fake.held++;
        setTimeout(() => {
          fake.held--;
          send();
        }, hold.ms);
      };
      const refuse = (status: number, why: string, code = 100) => {
        fake.refused.push(why);
        answer(status, { error: { message: why, type: "OAuthException", code, fbtrace_id: "fake" } });
      };
      // The browser tests read what was sent here (the e2e server's fake: scripts/e2e-server.ts).
      if (request.method === "GET" && request.url === "/_sent") return answer(200, fake.sent);
      if (request.method !== "POST" || !/^\/v[0-9]+\.[0-9]+\/106540352242922\/messages$/.test(request.url ?? "")) return refuse(404, `no such endpoint ${request.method} ${request.url}`);
      if (request.headers.authorization !== `Bearer ${token}`) return refuse(401, "Invalid OAuth access token", 190);
      let parsed;
      try {
        parsed = payload.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        return refuse(400, "not JSON");
      }
      if (!parsed.success) return refuse(400, `wrong shape: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`);
      const body = parsed.data;
      if (body.type === "template") {
        const known = TEMPLATES.get(body.template.name);
        if (!known || known.language !== body.template.language.code) return refuse(400, `template ${body.template.name} (${body.template.language.code}) does not exist`, 132001);
        const count = body.template.components[0]!.parameters.length;
        if (count !== known.parameters.length) return refuse(400, `template ${known.name} takes ${known.parameters.length} parameters, not ${count}`, 132000);
      }
      if (fake.mode === "down") return answer(500, { error: { message: "Service temporarily unavailable", code: 2 } });
      if (fake.mode === "refuse") return refuse(400, "Recipient phone number not in allowed list", 131030);
      const key = body.biz_opaque_callback_data;
      const before = key ? byKey.get(key) : undefined;
      if (before) {
        fake.repeats++;
        return answer(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: before.id }] });
      }
      const message: FakeWhatsAppMessage = {
        id: `wamid.${randomUUID().replace(/-/g, "")}`,
        to: body.to,
        type: body.type,
        template: body.type === "template" ? body.template.name : undefined,
        language: body.type === "template" ? body.template.language.code : undefined,
        parameters: body.type === "template" ? body.template.components[0]!.parameters.map((p) => p.text) : [],
        text: body.type === "text" ? body.text.body : undefined,
        idempotencyKey: key,
      };
      if (key) byKey.set(key, message);
      fake.sent.push(message);
      answer(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: message.id, message_status: "accepted" }] });
    };
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const envelope = (value: Record<string, unknown>) => ({
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { display_phone_number: "27110000000", phone_number_id: phoneNumberId }, ...value } }] }],
  });

  const fake: FakeWhatsApp = {
    settings: { phoneNumberId, accessToken: token, appSecret, verifyToken: options.verifyToken ?? `verify-${randomUUID()}`, apiUrl: `http://127.0.0.1:${port}`, apiVersion: "v23.0" },
    sent: [],
    repeats: 0,
    refused: [],
    mode: "accept",
    hold: null,
    held: 0,
    signed(body) {
      const bytes = new TextEncoder().encode(JSON.stringify(body));
      return { body: bytes, signature: `sha256=${createHmac("sha256", appSecret).update(bytes).digest("hex")}` };
    },
    statusNotifications(message, statuses) {
      return statuses.map((status, index) =>
        envelope({
          statuses: [
            {
              id: message.id,
              status,
              timestamp: String(Math.floor(Date.now() / 1000) + index),
              recipient_id: message.to,
              ...(message.idempotencyKey ? { biz_opaque_callback_data: message.idempotencyKey } : {}),
              ...(status === "failed" ? { errors: [{ code: 131026, title: "Message undeliverable", message: "Message undeliverable" }] } : {}),
            },
          ],
        }),
      );
    },
    inbound(from, text, name = "WhatsApp User") {
      const waId = from.replace(/^\+/, "");
      return envelope({
        contacts: [{ profile: { name }, wa_id: waId }],
        messages: [{ from: waId, id: `wamid.${randomUUID().replace(/-/g, "")}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
