import { messages } from "./messages";
import { isSignInReason } from "./sign-in-paths";

/** The sign-in page's texts for its query: why the visitor is there, and why Google sign-in failed. */

/** The sentence shown above the sign-in form for a `?reason=` value; null when unknown or absent. */
export function signInReasonMessage(reason: unknown): string | null {
  return isSignInReason(reason) ? messages.auth.signInReason[reason] : null;
}

/** The short codes /auth/callback puts in `?reason=` next to `error=google`. */
export type GoogleFailureCode = keyof typeof messages.auth.googleFailure;

/**
 * The text shown after a failed Google sign-in, as the spec's sign-in errors read: 'Error: '
 * followed by the reason. An unknown or missing code still says that Google sign-in failed.
 */
export function googleFailureMessage(code: unknown): string {
  const failures = messages.auth.googleFailure;
  const known = typeof code === "string" && Object.hasOwn(failures, code);
  return messages.auth.errorPrefix + (known ? failures[code as GoogleFailureCode] : failures.failed);
}
