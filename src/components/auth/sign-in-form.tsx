"use client";

import { Link } from "@/components/ui/link";
import { useEffect, useState } from "react";
import { signInInput } from "@/server/auth/schemas";
import { firstProblem } from "@/lib/validation";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { PasswordField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { ForgotPasswordLink } from "./account-recovery-forms";
import { carryToNextPage } from "./arrival-notice";
import { GoogleButton } from "./google-button";
import { loadPage } from "@/components/ui/load-page";

const m = messages.auth;

/** `googleOffered`: the server's answer to whether Google sign-in is configured for this shop. */
export function SignInForm({ next, googleDone, googleOffered }: { next?: string; googleDone?: string; googleOffered: boolean }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const flash = useFlashMessage();
  const { show } = flash;

  // Back from Google: say so, then carry on to where the user was going.
  useEffect(() => {
    if (!googleDone) return;
    show(m.googleSignInSuccess, "success");
    const timer = setTimeout(() => loadPage(googleDone, "replace"), 1_000);
    return () => clearTimeout(timer);
  }, [googleDone, show]);

  // Supabase with e-mail confirmation: an unconfirmed address may ask for the link again.
  const [unconfirmed, setUnconfirmed] = useState(false);
  // Locked out after too many failed attempts: the way out is a new password.
  const [lockedOut, setLockedOut] = useState(false);
  const signIn = api.auth.signIn.useMutation({
    onSuccess: ({ message, redirectTo }) => {
      show(message, "success");
      // The next page replaces this one at once: it says it, where it can be read.
      carryToNextPage(message);
      loadPage(redirectTo, "replace");
    },
    onError: (error) => {
      setUnconfirmed(error.message === m.emailNotConfirmed);
      const locked = error.data?.code === "TOO_MANY_REQUESTS";
      setLockedOut(locked);
      show(m.errorPrefix + error.message, "error", { persist: locked });
    },
  });
  const resend = api.auth.resendConfirmation.useMutation({
    onSuccess: ({ message }) => show(message, "success", { persist: true }),
    onError: (error) => show(m.errorPrefix + error.message, "error"),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = firstProblem(signInInput, { email, password });
    if (problem === m.fillAllFields) return show(problem, "error");
    signIn.mutate({ email, password, next });
  }

  const busy = signIn.isPending;
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} disabled={busy} maxLength={255} />
      <div>
        <PasswordField label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} disabled={busy} maxLength={72} />
        <p className="mt-1.5 text-right text-sm">
          <ForgotPasswordLink />
        </p>
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Signing In..." : "Sign In"}
      </Button>
      {googleOffered ? <GoogleButton label="Sign in with Google" next={next} disabled={busy} onError={show} /> : null}
      <StatusMessage message={flash.message} />
      {lockedOut ? (
        <p className="text-center text-sm" data-testid="locked-out-help">
          <ForgotPasswordLink />
        </p>
      ) : null}
      {unconfirmed ? (
        <Button type="button" variant="outline" className="w-full" disabled={resend.isPending} onClick={() => resend.mutate({ email })}>
          {resend.isPending ? "Sending..." : "Resend the confirmation e-mail"}
        </Button>
      ) : null}
      <p className="text-center text-sm text-muted">
        New here?{" "}
        <Link href="/auth/signup" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Create an account
        </Link>
      </p>
    </form>
  );
}
