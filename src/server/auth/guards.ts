import "server-only";

import { redirect } from "next/navigation";
import { signInHref, signInReasonFor, type SignInReason } from "@/lib/sign-in-paths";
import { getRequestContext } from "@/trpc/request-context";
import { accessDecision, type Area } from "./access";
import type { SessionUser } from "./session-user";

/** The caller of this request (resolved once per request), or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  return (await getRequestContext()).user;
}

/**
 * Decides on the server, before anything protected renders, whether the caller may see a page
 * under `path`; sends everyone else where accessDecision says (visitors with a way back, and the
 * reason the sign-in page states: by default the one that fits `path`).
 */
export async function requireAccess(area: Area, path: string, reason: SignInReason | undefined = signInReasonFor(path)): Promise<SessionUser> {
  const user = await getSessionUser();
  const decision = accessDecision(user, area);
  if (!decision.allowed) {
    redirect(user ? decision.redirectTo : signInHref(path, reason));
  }
  return user!;
}
