import { messages } from "./messages";

/**
 * Why a visitor was sent to sign in, carried as `?reason=` so the sign-in page can say so
 * (docs/architecture.md#decisions-on-the-spec). A closed list: the page only ever shows texts from `messages`, never words
 * taken from the address bar.
 */
export type SignInReason = keyof typeof messages.auth.signInReason;

const REASONS = Object.keys(messages.auth.signInReason) as SignInReason[];

function isSignInReason(value: unknown): value is SignInReason {
  return typeof value === "string" && (REASONS as string[]).includes(value);
}

/** The reason that fits a guarded page, read from its path; undefined for any other page. */
export function signInReasonFor(path: string): SignInReason | undefined {
  const pathname = path.split(/[?#]/, 1)[0] ?? "";
  const [first] = pathname.split("/").filter(Boolean);
  switch (first) {
    case "profile":
    case "cart":
    case "checkout":
    case "admin":
    case "quotes":
      return first;
    default:
      return undefined;
  }
}

/** The sentence shown above the sign-in form for a `?reason=` value; null when unknown or absent. */
export function signInReasonMessage(reason: unknown): string | null {
  return isSignInReason(reason) ? messages.auth.signInReason[reason] : null;
}

/** The sign-in page's address that returns to `next` afterwards and says why the visitor is there. */
export function signInHref(next: string, reason: SignInReason | undefined = signInReasonFor(next)): string {
  return `${SIGN_IN_PATH}?${signInQuery(next, reason).toString()}`;
}

export const SIGN_IN_PATH = "/auth/signin";

/** signInHref's query: `next`, and `reason` when there is one (a form sends them as its fields). */
export function signInQuery(next: string, reason: SignInReason | undefined = signInReasonFor(next)): URLSearchParams {
  const params = new URLSearchParams({ next });
  if (reason) params.set("reason", reason);
  return params;
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
