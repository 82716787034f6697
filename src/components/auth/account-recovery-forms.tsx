"use client";

import { Link } from "@/components/ui/link";
import { useState } from "react";
import { confirmEmailChangeInput, requestPasswordResetInput, resetPasswordInput } from "@/server/auth/schemas";
import { firstProblem } from "@/lib/validation";
import { accountMessages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { PasswordField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { loadPage } from "@/components/ui/load-page";

const a = accountMessages;
const linkClass = "font-semibold text-brand-700 underline-offset-2 hover:underline";

/** The "Forgot password?" link of the sign-in form and of its lock-out message. */
export function ForgotPasswordLink({ className = "" }: { className?: string }) {
  return (
    <Link href="/auth/forgot" className={`${linkClass} ${className}`}>
      {a.forgotLink}
    </Link>
  );
}

/** /auth/forgot: an address, and always the same answer. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const flash = useFlashMessage();
  const request = api.auth.requestPasswordReset.useMutation({
    onSuccess: ({ message }) => flash.show(message, "success", { persist: true }),
    onError: (error) => flash.show(error.message, "error", { persist: true }),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (request.isPending) return;
    const problem = firstProblem(requestPasswordResetInput, { email });
    if (problem) return flash.show(problem, "error");
    request.mutate({ email });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} disabled={request.isPending} maxLength={255} />
      <Button type="submit" className="w-full" disabled={request.isPending}>
        {request.isPending ? "Sending..." : "Send me a reset link"}
      </Button>
      <StatusMessage message={flash.message} />
      <p className="text-center text-sm text-muted">
        Remembered it?{" "}
        <Link href="/auth/signin" className={linkClass}>
          Sign in
        </Link>
      </p>
    </form>
  );
}

/** /auth/reset: the new password twice; `token` from the link (local modes; Supabase keeps the recovery in its session). */
export function ResetPasswordForm({ token }: { token?: string }) {
  const [values, setValues] = useState({ password: "", confirmPassword: "" });
  const [done, setDone] = useState(false);
  const [linkFailed, setLinkFailed] = useState(false);
  const flash = useFlashMessage();
  const reset = api.auth.resetPassword.useMutation({
    onSuccess: ({ message, redirectTo }) => {
      setDone(true);
      flash.show(message, "success", { persist: true });
      setTimeout(() => loadPage(redirectTo, "replace"), 1_500);
    },
    onError: (error) => {
      setLinkFailed(error.message === a.resetLinkInvalid);
      flash.show(error.message, "error", { persist: true });
    },
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (reset.isPending) return;
    const input = { ...values, ...(token ? { token } : {}) };
    const problem = firstProblem(resetPasswordInput, input);
    if (problem) {
      setLinkFailed(problem === a.resetLinkInvalid);
      return flash.show(problem, "error", { persist: true });
    }
    reset.mutate(input);
  }

  const busy = reset.isPending || done;
  const field = (name: "password" | "confirmPassword") => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <PasswordField label="New password" autoComplete="new-password" maxLength={72} disabled={busy} {...field("password")} />
      <PasswordField label="Confirm new password" autoComplete="new-password" maxLength={72} disabled={busy} {...field("confirmPassword")} />
      <Button type="submit" className="w-full" disabled={busy}>
        {reset.isPending ? "Saving..." : "Set new password"}
      </Button>
      <StatusMessage message={flash.message} />
      {linkFailed ? (
        <p className="text-center text-sm">
          <Link href="/auth/forgot" className={linkClass}>
            Ask for a new link
          </Link>
        </p>
      ) : null}
    </form>
  );
}

/** /auth/confirm-email (local modes): a button, so a mail scanner fetching the link changes nothing. */
export function ConfirmEmailChange({ token }: { token: string }) {
  const flash = useFlashMessage();
  const [done, setDone] = useState(false);
  const confirm = api.auth.confirmEmailChange.useMutation({
    onSuccess: ({ message }) => {
      setDone(true);
      flash.show(message, "success", { persist: true });
    },
    onError: (error) => flash.show(error.message, "error", { persist: true }),
  });
  return (
    <div className="space-y-5">
      <Button
        type="button"
        className="w-full"
        disabled={confirm.isPending || done}
        onClick={() => {
          const problem = firstProblem(confirmEmailChangeInput, { token });
          if (problem) return flash.show(problem, "error", { persist: true });
          confirm.mutate({ token });
        }}
      >
        {confirm.isPending ? "Confirming..." : "Confirm my new address"}
      </Button>
      <StatusMessage message={flash.message} />
      {done ? (
        <p className="text-center text-sm">
          <Link href="/profile" className={linkClass}>
            Go to your profile
          </Link>
        </p>
      ) : null}
    </div>
  );
}
