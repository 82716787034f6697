"use client";

import { Link } from "@/components/ui/link";
import { useState } from "react";
import { signUpInput } from "@/server/auth/schemas";
import { firstProblem } from "@/lib/validation";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { PasswordField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { messages } from "@/lib/messages";
import { phoneInput } from "@/server/messaging/schemas";
import { GoogleButton } from "./google-button";
import { NO_WHATSAPP, SignUpWhatsAppChoices } from "./sign-up-whatsapp";
import { loadPage } from "@/components/ui/load-page";

/** `googleOffered`: whether Google sign-in is configured for this shop; `whatsappOn`: whether order updates may go on WhatsApp. */
export function SignUpForm({ googleOffered, whatsappOn = false }: { googleOffered: boolean; whatsappOn?: boolean }) {
  const [values, setValues] = useState({ fullName: "", email: "", password: "", confirmPassword: "", acceptTerms: false });
  const [whatsapp, setWhatsApp] = useState(NO_WHATSAPP);
  const consent = api.messaging.setConsent.useMutation();
  const flash = useFlashMessage();
  const { show } = flash;
  const [succeeded, setSucceeded] = useState(false);

  const signUp = api.auth.signUp.useMutation({
    onSuccess: async ({ message, signedIn }) => {
      setSucceeded(true);
      show(message, "success", { persist: true });
      // Waiting for the e-mail confirmation (Supabase): the message says to check the inbox.
      if (!signedIn) return;
      // Signed in now: the WhatsApp choices ticked are recorded as the new customer's own.
      for (const kind of ["whatsapp_updates", "offers"] as const) {
        if (whatsapp[kind]) await consent.mutateAsync({ kind, given: true, phone: whatsapp.phone, source: "signup" }).catch(() => show(messages.consent.failed, "error", { persist: true }));
      }
      // Then on to the shop (the header greets the new customer there).
      setTimeout(() => loadPage("/products"), 1_500);
    },
    onError: (error) => show(error.message, "error"),
  });

  function field(name: "fullName" | "email" | "password" | "confirmPassword") {
    return {
      value: values[name],
      onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    };
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (signUp.isPending) return;
    const problem = firstProblem(signUpInput, values) ?? (whatsapp.whatsapp_updates || whatsapp.offers ? firstProblem(phoneInput, whatsapp.phone) : null);
    if (problem) return show(problem, "error");
    signUp.mutate(values);
  }

  const busy = signUp.isPending || succeeded;
  // Success styling whenever the text says 'successful' (spec §2).
  const message = flash.message && { ...flash.message, tone: flash.message.text.includes("successful") ? ("success" as const) : flash.message.tone };
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField label="Full name" autoComplete="name" maxLength={100} disabled={busy} {...field("fullName")} />
      <TextField label="Email" type="email" autoComplete="email" maxLength={255} disabled={busy} {...field("email")} />
      <PasswordField label="Password" autoComplete="new-password" maxLength={72} disabled={busy} {...field("password")} />
      <PasswordField label="Confirm password" autoComplete="new-password" maxLength={72} disabled={busy} {...field("confirmPassword")} />
      <label className="flex items-start gap-3 text-sm text-ink">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 rounded border-line accent-brand-700"
          checked={values.acceptTerms}
          disabled={busy}
          onChange={(e) => setValues((v) => ({ ...v, acceptTerms: e.target.checked }))}
        />
        {/* The links are part of the label's text, so the box is still named by the whole sentence. */}
        <span>
          I agree to the{" "}
          <Link href="/terms" className="font-semibold text-brand-700 underline underline-offset-2">
            Terms
          </Link>{" "}
          &amp;{" "}
          <Link href="/privacy" className="font-semibold text-brand-700 underline underline-offset-2">
            Privacy Policy
          </Link>
        </span>
      </label>
      {whatsappOn ? <SignUpWhatsAppChoices value={whatsapp} onChange={setWhatsApp} disabled={busy} /> : null}
      <Button type="submit" className="w-full" disabled={busy}>
        {signUp.isPending ? "Creating Account..." : "Create account"}
      </Button>
      {googleOffered ? (
        <>
          <div className="flex items-center gap-3 text-sm text-muted" role="separator" aria-label="or">
            <span className="h-px flex-1 bg-line" />
            or
            <span className="h-px flex-1 bg-line" />
          </div>
          <GoogleButton label="Continue with Google" next="/products" disabled={busy} onError={show} />
        </>
      ) : null}
      <StatusMessage message={message} />
      <p className="text-center text-sm text-muted">
        Already have an account?{" "}
        <Link href="/auth/signin" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
