/** The user an auth provider vouches for (verified on the server, never trusted from the client). */
export interface AuthUser {
  id: string;
  email: string | null;
  userMetadata: Record<string, unknown>;
}

export type AuthErrorCode =
  | "invalid_credentials"
  | "rate_limited"
  | "email_in_use"
  | "weak_password"
  | "google_not_configured"
  | "oauth_failed"
  | "email_not_confirmed"
  | "invalid_link"
  | "wrong_current_password"
  | "provider_error";

/** A refusal from the auth provider, with the message the user may see. */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AuthError";
  }
}

/** A new account, and whether it is signed in now (Supabase with e-mail confirmation: not until confirmed). */
export interface SignUpResult {
  user: AuthUser;
  signedIn: boolean;
}

/**
 * Sign-in, sign-up and sessions (docs/architecture.md#ports-and-the-platform, #local-auth). One per request: adapters read and write
 * the request's cookies. Routers use the port from the context and never import an adapter.
 */
export interface AuthPort {
  readonly provider: "local" | "supabase";
  /** The signed-in user of this request, verified; null for a visitor or an ended session. */
  currentUser(): Promise<AuthUser | null>;
  signIn(input: { email: string; password: string }): Promise<AuthUser>;
  /**
   * Creates the account (full name kept in the user metadata, hence on the profile) and signs in,
   * unless the provider first wants the address confirmed (then `signedIn` is false).
   */
  signUp(input: { email: string; password: string; fullName: string; origin: string }): Promise<SignUpResult>;
  /** Sends the confirmation e-mail again, where accounts need one; says nothing about whether the address has an account. */
  resendConfirmation(input: { email: string; origin: string }): Promise<void>;
  signOut(): Promise<void>;
  /** Where to send the browser to sign in with Google; AuthError('google_not_configured') if unavailable. */
  googleSignInUrl(input: { origin: string; next: string }): Promise<string>;
  /** Where a Google sign-in that left the shop was going, if the adapter kept it (local modes: a cookie). */
  pendingDestination(): string | undefined;
  /** Finishes a Google sign-in on /auth/callback. */
  completeOAuth(input: { origin: string; searchParams: URLSearchParams }): Promise<AuthUser>;
  /**
   * "Forgot password?" (issue 34): mails `email` a single-use link to set a new password, if it
   * has an account. Says nothing either way; AuthError('rate_limited') from the provider's own limits.
   */
  requestPasswordReset(input: { email: string; origin: string }): Promise<void>;
  /**
   * Sets a new password from a reset link (local modes: its `token`; Supabase: the recovery
   * session the callback started), signs the person in and ends every other session of the
   * account. AuthError('invalid_link') for a used, expired or unknown link, changing nothing.
   */
  resetPassword(input: { token?: string; password: string }): Promise<AuthUser>;
  /** The signed-in user's new password, after their current one is checked; other sessions end. */
  changePassword(input: { currentPassword: string; newPassword: string }): Promise<void>;
  /** Sends a link to confirm `newEmail` to that address (and tells the current one); nothing changes until it is opened. */
  requestEmailChange(input: { newEmail: string; origin: string }): Promise<void>;
  /**
   * Local modes: applies the e-mail change a link's `token` stands for. Supabase confirms it on
   * its own verify endpoint and /auth/callback, so there it is always AuthError('invalid_link').
   */
  confirmEmailChange(input: { token: string }): Promise<AuthUser>;
  /** Deletes an account (profile and cart go with it; orders stay, without the user). */
  deleteUser(userId: string): Promise<void>;
}
