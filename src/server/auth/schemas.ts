import { z } from "@/lib/zod";
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/constants";
import { accountMessages, messages } from "@/lib/messages";

/**
 * The sign-in and sign-up forms' rules, shared by the forms (first message shown) and the tRPC
 * procedures (the same checks, server-side). Checks run in the spec's order (§5), so the first
 * issue is the message the user sees.
 */
const m = messages.auth;

const email = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, m.emailTooLong)
  .pipe(z.email(m.invalidEmail))
  .transform((value) => value.toLowerCase());

export const signInInput = z
  .object({
    email: z.string().max(MAX_EMAIL_LENGTH + 50, m.emailTooLong),
    password: z.string().max(MAX_PASSWORD_LENGTH, m.passwordTooLong),
  })
  .superRefine((values, ctx) => {
    if (!values.email.trim() || !values.password) ctx.addIssue({ code: "custom", message: m.fillAllFields });
  })
  .pipe(z.object({ email, password: z.string() }));
export type SignInInput = z.input<typeof signInInput>;
/** What the sign-in procedure gets once `signInInput` has checked and normalised it. */
export type SignInFields = z.output<typeof signInInput>;

/** Where to go after signing in (sign-in, Google sign-in); checked again by `safeNextPath`. */
export const nextPathInput = z.object({ next: z.string().max(500).optional() });
export type NextPathInput = z.output<typeof nextPathInput>;

export const signUpInput = z
  .object({
    fullName: z.string(),
    email: z.string(),
    password: z.string(),
    confirmPassword: z.string(),
    acceptTerms: z.boolean(),
  })
  .superRefine((values, ctx) => {
    const first = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    if (!values.fullName.trim() || !values.email.trim() || !values.password || !values.confirmPassword) {
      return first(m.fillAllFields);
    }
    if (values.password !== values.confirmPassword) return first(m.passwordsDoNotMatch);
    if (!values.acceptTerms) return first(m.agreeToTerms);
    if (values.password.length < MIN_PASSWORD_LENGTH) return first(m.weakPassword);
  })
  .pipe(
    z.object({
      fullName: z.string().trim().max(MAX_NAME_LENGTH, m.nameTooLong),
      email,
      password: z.string().max(MAX_PASSWORD_LENGTH, m.passwordTooLong),
      confirmPassword: z.string(),
      acceptTerms: z.literal(true),
    }),
  );
export type SignUpInput = z.input<typeof signUpInput>;
export type SignUpFields = z.output<typeof signUpInput>;

/**
 * A post-sign-in destination from a query string: only a path on this site, else `fallback`.
 * Browsers read "//host", "/\host" and "/<tab>/host" as another site (they treat "\" as "/"
 * and drop tabs and newlines), so those are refused; as a last check, so is anything a URL
 * parser would take off this origin.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/"): string {
  if (!next || next.length > 2000 || next[0] !== "/" || next[1] === "/" || next[1] === "\\") return fallback;
  if (/[\u0000-\u001f\u007f]/.test(next)) return fallback;
  const sentinel = "http://next.invalid";
  let resolved: URL;
  try {
    resolved = new URL(next, sentinel);
  } catch {
    return fallback;
  }
  return resolved.origin === sentinel ? next : fallback;
}

/** "Resend the confirmation e-mail": the address the customer signed up with. */
export const resendConfirmationInput = z.object({ email });
export type ResendConfirmationFields = z.output<typeof resendConfirmationInput>;

/* Account recovery and settings (issue 34): the same rules as sign-up, shared with the forms. */
const a = accountMessages;

/** A new password and its confirmation: filled in, equal, long enough, at most MAX_PASSWORD_LENGTH. */
function checkNewPassword(values: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) {
  const first = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (!values.password || !values.confirmPassword) return first(m.fillAllFields);
  if (values.password !== values.confirmPassword) return first(m.passwordsDoNotMatch);
  if (values.password.length < MIN_PASSWORD_LENGTH) return first(m.weakPassword);
  if (values.password.length > MAX_PASSWORD_LENGTH) return first(m.passwordTooLong);
}

/** A local reset or e-mail change token: 32 random bytes, base64url. Anything else is not a link the shop sent. */
const ACCOUNT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** "Forgot password?": the address to send the link to. */
export const requestPasswordResetInput = z.object({ email });
export type RequestPasswordResetFields = z.output<typeof requestPasswordResetInput>;

/** Setting a new password from a reset link (local modes: its token; Supabase: the recovery session). */
export const resetPasswordInput = z
  .object({
    token: z.string().max(200).optional(),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine(checkNewPassword)
  .pipe(
    z.object({
      token: z.string().regex(ACCOUNT_TOKEN, a.resetLinkInvalid).optional(),
      password: z.string(),
      confirmPassword: z.string(),
    }),
  );
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;
export type ResetPasswordFields = z.output<typeof resetPasswordInput>;

/** The profile's "Change password": the current one, then the new one twice. */
export const changePasswordInput = z
  .object({
    currentPassword: z.string().max(MAX_PASSWORD_LENGTH, m.passwordTooLong),
    password: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((values, ctx) => {
    if (!values.currentPassword) {
      ctx.addIssue({ code: "custom", message: a.currentPasswordRequired });
      return z.NEVER;
    }
    checkNewPassword(values, ctx);
  });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;
export type ChangePasswordFields = z.output<typeof changePasswordInput>;

/** The profile's "Change e-mail": the new address, confirmed by a link sent to it. */
export const changeEmailInput = z.object({ email });
export type ChangeEmailFields = z.output<typeof changeEmailInput>;

/** Opening an e-mail change link (local modes). */
export const confirmEmailChangeInput = z.object({ token: z.string().max(200).regex(ACCOUNT_TOKEN, a.emailChangeLinkInvalid) });
export type ConfirmEmailChangeFields = z.output<typeof confirmEmailChangeInput>;
