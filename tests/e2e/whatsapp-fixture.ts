import { createHmac } from "node:crypto";

/** The e2e server's fake WhatsApp (scripts/e2e-server.ts): its settings, known to the browser test. */
export const E2E_WHATSAPP = {
  token: "EAAGe2e0fake0token0for0the0browser0tests",
  appSecret: "e2e-app-secret-for-the-fake-whatsapp",
  verifyToken: "e2e-verify-token-0123456789",
};

/** The fake's list of sent messages (at E2E_PORT+54). */
export const WHATSAPP_READER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 54}/_sent`;

/** A body and its X-Hub-Signature-256, as Meta signs a notification with the app secret. */
export function signedNotification(payload: unknown): { body: string; signature: string } {
  const body = JSON.stringify(payload);
  return { body, signature: `sha256=${createHmac("sha256", E2E_WHATSAPP.appSecret).update(body).digest("hex")}` };
}

/** An inbound text from a number (E.164), as Meta posts it. */
export function inboundText(from: string, text: string) {
  const waId = from.replace(/^\+/, "");
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "27110000000", phone_number_id: "106540352242922" },
              contacts: [{ profile: { name: "Shopper" }, wa_id: waId }],
              messages: [{ from: waId, id: `wamid.e2e${Date.now()}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}
