import { timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { env } from "@/env";
import { drainMailOutbox, mailIsSent } from "@/server/platform/mail";

/**
 * Serverless hosting, where no worker runs between requests: a scheduler (e.g. Vercel Cron, every
 * minute) calls this with `Authorization: Bearer <CRON_SECRET>` and the outbox is delivered once.
 * Without CRON_SECRET the route does not exist; a wrong secret is 401.
 */
async function handler(request: NextRequest) {
  const secret = env.CRON_SECRET;
  if (!secret) return new Response("Not found", { status: 404 });
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return new Response("Unauthorized", { status: 401 });
  if (!(await mailIsSent())) return Response.json({ error: "No SMTP server is configured (SMTP_URL): the mails stay in the outbox." }, { status: 503 });
  return Response.json(await drainMailOutbox(), { headers: { "cache-control": "no-store" } });
}

export { handler as GET, handler as POST };
