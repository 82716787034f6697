import { AuthError, type AuthPort } from "@/server/ports/auth";
import { callbackFlowOf, LinkOpenedElsewhereError, type EmailLinkFailure } from "./callback-flow";
import { googleFailureCode } from "./google-sign-in";
import { safeNextPath } from "./schemas";

/**
 * /auth/callback's work, apart from the route so it can be tested with any auth port: finishes
 * the sign-in the link or provider came back with (Supabase: the PKCE code exchange; local
 * modes: Google's code) and answers where to send the browser, always a path on this site.
 *
 * - A confirmed sign-up (or a magic link, or a recovery link) lands signed in on `next`; so
 *   does a confirmed e-mail change, or the first of its two links, which has nothing to finish.
 * - Google goes to the sign-in page, which says it worked and moves on to `next`, as before.
 * - A failure is told in the words of its flow: an expired confirmation link is not a failed
 *   Google sign-in.
 */
export async function finishAuthCallback(input: {
  auth: AuthPort;
  /** The shop's public origin (the local modes' Google token request repeats its redirect URI). */
  origin: string;
  searchParams: URLSearchParams;
  /** Where a local-mode Google sign-in was going, kept in a cookie while away. */
  pendingNext?: string;
}): Promise<string> {
  const { auth, searchParams } = input;
  const flow = callbackFlowOf(searchParams);
  const next = safeNextPath(searchParams.get("next") ?? input.pendingNext, "/products");
  // Supabase Auth's secure e-mail change wants a link from each address: the first one opened comes
  // back with neither a code nor an error (its note is in the fragment, which no server sees).
  // Nothing to finish yet, and the PKCE verifier is kept for the second link.
  if (flow === "email_change" && !searchParams.has("code") && !searchParams.has("error")) return next;
  try {
    await auth.completeOAuth({ origin: input.origin, searchParams });
  } catch (error) {
    if (!(error instanceof AuthError)) console.error(`[auth] ${flow} callback failed:`, error);
    if (flow === "google") {
      // The sign-in page turns the code into its own text, so nothing from Google's answer is shown.
      return signInPage({ error: "google", reason: googleFailureCode(error, searchParams.get("error")), next });
    }
    const reason: EmailLinkFailure = error instanceof LinkOpenedElsewhereError ? "other_browser" : "expired";
    return signInPage({ error: flow, reason, next });
  }
  return flow === "google" ? signInPage({ google: "success", next }) : next;
}

function signInPage(params: Record<string, string>): string {
  return `/auth/signin?${new URLSearchParams(params).toString()}`;
}
