import "server-only";

import { redirect } from "next/navigation";
import { getRequestContext } from "@/trpc/request-context";
import { accessDecision, type Area } from "./access";
import type { SessionUser } from "./session-user";

/** The caller of this request (resolved once per request), or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  return (await getRequestContext()).user;
}

/**
 * Decides on the server, before anything protected renders, whether the caller may see a page
 * under `path`; sends everyone else where accessDecision says (visitors with a way back).
 */
export async function requireAccess(area: Area, path: string): Promise<SessionUser> {
  const user = await getSessionUser();
  const decision = accessDecision(user, area);
  if (!decision.allowed) {
    redirect(user ? decision.redirectTo : `${decision.redirectTo}?next=${encodeURIComponent(path)}`);
  }
  return user!;
}
