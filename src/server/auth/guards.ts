import "server-only";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { PageViewerData } from "@/lib/page-viewer";
import { signInHref, signInReasonFor, type SignInReason } from "@/lib/sign-in-paths";
import { getRequestContext } from "@/trpc/request-context";
import { accessDecision, type Area } from "./access";
import { pageViewerData, templateRoleOf } from "./page-viewer";
import type { SessionUser } from "./session-user";

/** The caller of this request (resolved once per request), or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  return (await getRequestContext()).user;
}

/**
 * Whom a page's header and buttons are rendered for: a visitor, or a signed-in customer or admin
 * with their own values, or (`data: null`) nobody yet: the role's template, asked for by this
 * server process (./page-viewer.ts), with slots where a user's values go.
 */
export type PageViewer = { kind: "visitor" } | { kind: "signed-in"; role: SessionUser["role"]; data: PageViewerData | null };

/** The viewer of this request's page (resolved once per request). */
export const getPageViewer = cache(async (): Promise<PageViewer> => {
  const { user, storage, cartCountFor } = await getRequestContext();
  if (user) return { kind: "signed-in", role: user.role, data: pageViewerData(user, await cartCountFor(user), storage.publicUrl) };
  const template = templateRoleOf(await headers());
  return template ? { kind: "signed-in", role: template, data: null } : { kind: "visitor" };
});

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
