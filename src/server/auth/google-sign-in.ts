import { env, runMode, type Env } from "@/env";
import type { GoogleFailureCode } from "@/lib/sign-in-texts";
import { AuthError } from "@/server/ports/auth";

/**
 * Whether the sign-in and sign-up pages offer "Continue with Google". Decided on the server so a
 * shop without Google credentials shows no button that can only fail. In Supabase mode the
 * provider is switched on in Supabase's dashboard, which the shop cannot see, so it is assumed on
 * (a start that fails still says plainly that it is not configured).
 */
export function googleSignInOffered(config: Env = env): boolean {
  if (runMode(config) === "supabase") return true;
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
}

/**
 * The short code /auth/callback sends to the sign-in page when Google sign-in fails. Google (and
 * Supabase Auth) come back with `?error=access_denied` when the person cancels on the consent
 * screen; everything else is a failure on the way back.
 */
export function googleFailureCode(error: unknown, providerError: string | null): GoogleFailureCode {
  if (providerError === "access_denied") return "cancelled";
  if (error instanceof AuthError && error.code === "google_not_configured") return "not_configured";
  return "failed";
}
