import { authLinkMessages } from "@/lib/messages";
import { AuthError } from "@/server/ports/auth";

/**
 * What brought the browser to /auth/callback. The shop says so in the `redirectTo` /
 * `emailRedirectTo` it gives Supabase Auth, so the callback can tell a confirmed sign-up from a
 * Google sign-in, a password recovery link (to /auth/reset) from an e-mail change link (to the
 * profile). Magic links are not offered today; they are named so a link of theirs that arrives is
 * labelled for what it is.
 */
export const CALLBACK_FLOWS = ["signup", "magiclink", "recovery", "email_change", "google"] as const;
export type CallbackFlow = (typeof CALLBACK_FLOWS)[number];

/** The flows that arrive from a link in an e-mail rather than from a provider's consent screen. */
export type EmailLinkFlow = Exclude<CallbackFlow, "google">;

/** Why an e-mailed link did not sign the browser in: see authLinkMessages. */
export type EmailLinkFailure = "expired" | "other_browser";

/** The callback's absolute URL for `flow`, returning to `next` (a path on this site) afterwards. */
export function callbackUrl(origin: string, flow: CallbackFlow, next: string): string {
  return `${origin}/auth/callback?${new URLSearchParams({ flow, next }).toString()}`;
}

/**
 * The flow named in the callback's query. None (or one the shop does not know) is Google: the
 * local modes' Google redirect carries no query, since Google compares redirect URIs exactly.
 */
export function callbackFlowOf(searchParams: URLSearchParams): CallbackFlow {
  const flow = searchParams.get("flow");
  return (CALLBACK_FLOWS as readonly string[]).includes(flow ?? "") ? (flow as CallbackFlow) : "google";
}

/**
 * The link was opened in a browser that holds no PKCE code verifier for it (another browser or
 * device, or cookies cleared): Supabase Auth has already done what the link was for (a sign-up
 * is confirmed) but cannot sign this browser in.
 */
export class LinkOpenedElsewhereError extends AuthError {
  constructor() {
    super("oauth_failed", authLinkMessages.signup.other_browser);
    this.name = "LinkOpenedElsewhereError";
  }
}

function isEmailLinkFlow(value: unknown): value is EmailLinkFlow {
  return value === "signup" || value === "magiclink" || value === "recovery" || value === "email_change";
}

/**
 * What the sign-in page says after `/auth/callback` sent it `error=<flow>&reason=<code>` for an
 * e-mailed link; null for anything else (Google's failures have their own texts). Only texts
 * from `messages` are shown, never words from the address bar.
 */
export function emailLinkNotice(error: unknown, reason: unknown): { text: string; tone: "info" | "error" } | null {
  if (!isEmailLinkFlow(error)) return null;
  if (reason === "other_browser") {
    // A confirmed address is good news: the customer only has to sign in.
    return { text: authLinkMessages[error].other_browser, tone: error === "signup" ? "info" : "error" };
  }
  return { text: authLinkMessages[error].expired, tone: "error" };
}
