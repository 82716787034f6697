import { MessagingSendError, type MessagingChannel, type OutgoingTemplate, type OutgoingText, type WhatsAppEnvironment, type WhatsAppSettings } from "@/server/ports/messaging";

export type { WhatsAppSettings };


export const WHATSAPP_API_URL = "https://graph.facebook.com";
export const WHATSAPP_API_VERSION = "v23.0";
const TIMEOUT_MS = 15_000;

/** WHATSAPP_* as set (each may be missing): in force while Shop settings hold none (docs/whatsapp.md; whatsappStateOf decides). */
export function whatsappEnvironmentFrom(env: {
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_ACCESS_TOKEN?: string;
  WHATSAPP_APP_SECRET?: string;
  WHATSAPP_VERIFY_TOKEN?: string;
  WHATSAPP_API_URL?: string;
  WHATSAPP_API_VERSION?: string;
}): WhatsAppEnvironment {
  return {
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
    accessToken: env.WHATSAPP_ACCESS_TOKEN,
    appSecret: env.WHATSAPP_APP_SECRET,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN,
    apiUrl: env.WHATSAPP_API_URL,
    apiVersion: env.WHATSAPP_API_VERSION,
  };
}

/** WhatsApp's own form of a number: E.164 without the plus. */
function waNumber(e164: string): string {
  return e164.replace(/^\+/, "");
}

/**
 * The Cloud API adapter: `POST {api}/{version}/{phone-number-id}/messages` with the bearer token.
 * A 2xx with a message id is accepted; 429, 5xx and network failures are worth another try; any
 * other refusal is final. Errors carry Meta's message and code, never the token.
 */
export function createWhatsAppChannel(settings: WhatsAppSettings, fetchImpl: typeof fetch = fetch): MessagingChannel {
  const base = (settings.apiUrl ?? WHATSAPP_API_URL).replace(/\/+$/, "");
  const endpoint = `${base}/${settings.apiVersion ?? WHATSAPP_API_VERSION}/${encodeURIComponent(settings.phoneNumberId)}/messages`;

  async function post(body: Record<string, unknown>): Promise<{ messageId: string }> {
    let response: Response;
    try {
      response = await fetchImpl(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${settings.accessToken}`, "content-type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", recipient_type: "individual", ...body }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: "error",
      });
    } catch (error) {
      throw new MessagingSendError(`WhatsApp could not be reached: ${error instanceof Error ? error.name : "error"}`, false);
    }
    const answer = (await response.json().catch(() => null)) as { messages?: { id?: unknown }[]; error?: { message?: unknown; code?: unknown } } | null;
    if (!response.ok) {
      const detail = answer?.error ? ` (${String(answer.error.code ?? "")}: ${String(answer.error.message ?? "").slice(0, 300)})` : "";
      const retry = response.status === 429 || response.status >= 500 || response.status === 408;
      throw new MessagingSendError(`WhatsApp refused the message: HTTP ${response.status}${detail}`, !retry);
    }
    const id = answer?.messages?.[0]?.id;
    if (typeof id !== "string" || id === "") throw new MessagingSendError("WhatsApp's answer had no message id", false);
    return { messageId: id };
  }

  return {
    kind: "whatsapp",
    sendTemplate: (message: OutgoingTemplate) =>
      post({
        to: waNumber(message.to),
        type: "template",
        biz_opaque_callback_data: message.idempotencyKey,
        template: {
          name: message.name,
          language: { code: message.language },
          components: [{ type: "body", parameters: message.parameters.map((text) => ({ type: "text", text })) }],
        },
      }),
    sendText: (message: OutgoingText) =>
      post({ to: waNumber(message.to), type: "text", biz_opaque_callback_data: message.idempotencyKey, text: { preview_url: false, body: message.text } }),
  };
}
