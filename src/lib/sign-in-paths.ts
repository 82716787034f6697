/**
 * Why a visitor was sent to sign in, carried as `?reason=` so the sign-in page can say so
 * (docs/architecture.md#decisions-on-the-spec). A closed list: the page only ever shows texts from `messages`
 * (`messages.auth.signInReason`, one per reason; src/lib/sign-in-texts.ts), never words taken from the address bar.
 * No texts here: a card's Add to Cart links to the sign-in page with these, and ships this module.
 */
export const SIGN_IN_REASONS = ["profile", "cart", "checkout", "admin", "shop", "quotes"] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

export function isSignInReason(value: unknown): value is SignInReason {
  return typeof value === "string" && (SIGN_IN_REASONS as readonly string[]).includes(value);
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
