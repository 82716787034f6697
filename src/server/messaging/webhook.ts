import { createHmac, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "@/lib/zod";
import { DELIVERY_STATUSES } from "@/lib/statuses";
import { runAs, SERVICE } from "@/server/db/as-caller";
import type { DB } from "@/server/db/schema";
import type { WhatsAppSettings } from "@/server/ports/messaging";
import { recordInbound, recordStatus, stopNumber } from "./webhook-queries";

/**
 * WhatsApp's webhook (/api/messaging/whatsapp; docs/whatsapp.md): Meta's verification handshake,
 * and its signed notifications of delivery statuses and inbound messages.
 */

/** GET: `hub.mode=subscribe` with our verify token is answered with `hub.challenge`; anything else 403. */
export function verificationAnswer(params: URLSearchParams, settings: Pick<WhatsAppSettings, "verifyToken">): { status: 200 | 403; body: string } {
  const mode = params.get("hub.mode");
  const token = params.get("hub.verify_token") ?? "";
  const challenge = params.get("hub.challenge") ?? "";
  if (mode === "subscribe" && challenge !== "" && sameText(token, settings.verifyToken)) return { status: 200, body: challenge };
  return { status: 403, body: "Forbidden" };
}

/** X-Hub-Signature-256: `sha256=` and the HMAC-SHA256 of the raw body with the app secret, compared in constant time. */
export function signatureIsValid(body: Uint8Array, header: string | null, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", appSecret).update(body).digest();
  const given = Buffer.from(match[1]!, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** "STOP" and its usual variants, in any case, with punctuation or an emoji around it. */
const STOP_WORDS = new Set(["stop", "stop all", "stop please", "please stop", "stopp", "unsubscribe", "opt out", "optout", "opt-out", "end", "quit", "stop messages"]);

export function isStop(text: string): boolean {
  const words = text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[^a-z\s-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return STOP_WORDS.has(words) || STOP_WORDS.has(words.replace(/-/g, " "));
}

const uuid = z.uuid();

const payloadSchema = z.object({
  object: z.string(),
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              field: z.string().optional(),
              value: z
                .object({
                  contacts: z.array(z.object({ wa_id: z.string().optional(), profile: z.object({ name: z.string().max(200).optional() }).optional() })).optional(),
                  messages: z
                    .array(z.object({ id: z.string().min(1).max(200), from: z.string().regex(/^[1-9][0-9]{6,14}$/), type: z.string().max(40), text: z.object({ body: z.string().max(5000) }).optional() }))
                    .optional(),
                  statuses: z
                    .array(
                      z.object({
                        id: z.string().min(1).max(200),
                        status: z.string(),
                        timestamp: z.string().regex(/^[0-9]{1,12}$/),
                        biz_opaque_callback_data: z.string().max(512).optional(),
                        errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional(), message: z.string().optional() })).optional(),
                      }),
                    )
                    .optional(),
                })
                .optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

export type WebhookResult = { status: 200 | 400 | 401; applied: { statuses: number; stops: number; messages: number } };

/**
 * POST: believed only with a valid signature over the raw body (401, nothing changed, otherwise).
 * Statuses are recorded against their outbox rows (record_whatsapp_status: idempotent, only
 * forward); STOP withdraws the number's consent at once; other messages become contact messages.
 * Everything in one transaction: a failure answers 5xx (the route) and Meta sends it again.
 */
export async function handleNotification(db: Kysely<DB>, settings: Pick<WhatsAppSettings, "appSecret">, body: Uint8Array, signature: string | null): Promise<WebhookResult> {
  const applied = { statuses: 0, stops: 0, messages: 0 };
  if (!signatureIsValid(body, signature, settings.appSecret)) return { status: 401, applied };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { status: 400, applied };
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success || parsed.data.object !== "whatsapp_business_account") return { status: 400, applied };
  await runAs(db, SERVICE, async (trx) => {
    for (const entry of parsed.data.entry) {
      for (const change of entry.changes) {
        const value = change.value;
        if (!value) continue;
        for (const status of value.statuses ?? []) {
          if (!(DELIVERY_STATUSES as readonly string[]).includes(status.status)) continue;
          const outboxId = uuid.safeParse(status.biz_opaque_callback_data);
          const error = status.errors?.map((e) => [e.code, e.title, e.message].filter(Boolean).join(": ")).join("; ") || null;
          await recordStatus(trx, {
            messageId: status.id,
            outboxId: outboxId.success ? outboxId.data : null,
            status: status.status as (typeof DELIVERY_STATUSES)[number],
            at: new Date(Number(status.timestamp) * 1000),
            error,
          });
          applied.statuses++;
        }
        for (const message of value.messages ?? []) {
          const phone = `+${message.from}`;
          const text = message.text?.body ?? `(${message.type})`;
          if (message.type === "text" && isStop(text)) {
            await stopNumber(trx, phone);
            applied.stops++;
          } else {
            const name = value.contacts?.find((contact) => contact.wa_id === message.from)?.profile?.name ?? null;
            await recordInbound(trx, { id: message.id, phone, name, text });
            applied.messages++;
          }
        }
      }
    }
  });
  return { status: 200, applied };
}
