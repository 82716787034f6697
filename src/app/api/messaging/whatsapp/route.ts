import { handleNotification, verificationAnswer } from "@/server/messaging/webhook";
import { getShopProcess } from "@/server/platform/shop-process";

/** A notification is a few kilobytes; anything much larger is not one. */
const MAX_BODY_BYTES = 256 * 1024;

/**
 * WhatsApp's webhook (docs/whatsapp.md). While WhatsApp is off the route does not exist
 * (404); the settings in force are read on each request (Shop settings, kept and dropped on change). GET: Meta's verification handshake. POST: a notification, believed only with a valid
 * X-Hub-Signature-256 (401 otherwise, nothing changed); 200 once recorded (Meta stops sending it),
 * 503 when it could not be, so Meta sends it again. Never cached, no cookies.
 */
export async function GET(request: Request) {
  const settings = (await (await getShopProcess()).whatsapp.current()).settings;
  if (!settings) return answer(404, "Not found");
  const { status, body } = verificationAnswer(new URL(request.url).searchParams, settings);
  return answer(status, body);
}

export async function POST(request: Request) {
  const shop = await getShopProcess();
  const settings = (await shop.whatsapp.current()).settings;
  if (!settings) return answer(404, "Not found");
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return answer(413, "Too large");
  try {
    const result = await handleNotification(shop.database.kysely, settings, bytes, request.headers.get("x-hub-signature-256"));
    if (result.status === 401) console.warn("[whatsapp] a notification with a missing or wrong signature was refused");
    return answer(result.status, result.status === 200 ? "OK" : result.status === 401 ? "Unauthorized" : "Bad request");
  } catch (error) {
    console.error("[whatsapp] a notification could not be recorded:", error instanceof Error ? error.message : error);
    return answer(503, "Try again");
  }
}

function answer(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
