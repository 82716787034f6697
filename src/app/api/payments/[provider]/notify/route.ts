import { paymentNotification } from "@/server/platform/payments";
import { clientAddress } from "@/server/security/rate-limit";

/** A notification is a few hundred bytes; anything much larger is not one. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * A payment provider's server-to-server notification (PayFast's ITN: notify_url). Answers 200 as
 * soon as a notification is recorded (or known already), which stops the provider's retries; a
 * refused one gets 400 with nothing changed (src/server/payments/notification.ts logs why); 503
 * when a check could not be made, so the provider sends it again. Never cached, no cookies.
 */
export async function POST(request: Request, { params }: { params: Promise<{ provider: string }> }) {
  const { provider } = await params;
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) return answer(415, "Expected a form");
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_BODY_BYTES) return answer(413, "Too large");
  let result;
  try {
    result = await paymentNotification(provider, { body: new TextDecoder().decode(bytes), sourceAddress: clientAddress(request.headers) });
  } catch (error) {
    console.error("[payments] a notification could not be handled:", error);
    return answer(503, "Try again");
  }
  if (result === null) return answer(404, "Not found");
  return answer(result.status, result.status === 200 ? "OK" : result.status === 400 ? "Refused" : "Try again");
}

function answer(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
