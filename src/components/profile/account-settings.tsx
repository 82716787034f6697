"use client";

import { useState } from "react";
import { changeEmailInput, changePasswordInput } from "@/server/auth/schemas";
import { firstProblem } from "@/lib/validation";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { PasswordField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

/** The profile's "Change password" (issue 34): the current password, then the new one twice. */
export function ChangePasswordForm() {
  const empty = { currentPassword: "", password: "", confirmPassword: "" };
  const [values, setValues] = useState(empty);
  const flash = useFlashMessage();
  const change = api.profile.changePassword.useMutation({
    onSuccess: ({ message }) => {
      setValues(empty);
      flash.show(message, "success", { persist: true });
    },
    onError: (error) => flash.show(error.message, "error", { persist: true }),
  });
  const field = (name: keyof typeof empty) => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (change.isPending) return;
    const problem = firstProblem(changePasswordInput, values);
    if (problem) return flash.show(problem, "error", { persist: true });
    change.mutate(values);
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="change-password-heading">
      <h3 id="change-password-heading" className="font-semibold">
        Change password
      </h3>
      <PasswordField label="Current password" autoComplete="current-password" maxLength={72} disabled={change.isPending} {...field("currentPassword")} />
      <PasswordField label="New password" autoComplete="new-password" maxLength={72} disabled={change.isPending} {...field("password")} />
      <PasswordField label="Confirm new password" autoComplete="new-password" maxLength={72} disabled={change.isPending} {...field("confirmPassword")} />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Saving..." : "Change password"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}

/** The profile's "Change e-mail": a link goes to the new address; the old one is told. */
export function ChangeEmailForm() {
  const [email, setEmail] = useState("");
  const flash = useFlashMessage();
  const change = api.profile.changeEmail.useMutation({
    onSuccess: ({ message }) => {
      setEmail("");
      flash.show(message, "success", { persist: true });
    },
    onError: (error) => flash.show(error.message, "error", { persist: true }),
  });
  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (change.isPending) return;
    const problem = firstProblem(changeEmailInput, { email });
    if (problem) return flash.show(problem, "error", { persist: true });
    change.mutate({ email });
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="change-email-heading">
      <h3 id="change-email-heading" className="font-semibold">
        Change e-mail address
      </h3>
      <TextField label="New email address" type="email" autoComplete="email" maxLength={255} value={email} onChange={(e) => setEmail(e.target.value)} disabled={change.isPending} />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? "Sending..." : "Send confirmation link"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
