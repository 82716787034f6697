"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { Button } from "@/components/ui/button";
import { TextAreaField, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const EMPTY = { name: "", email: "", phone: "", message: "" };

/** The schema, its messages and the tRPC client, fetched when the visitor first sends. */
const loadSender = () =>
  Promise.all([import("@/server/contact/schemas"), import("@/lib/validation"), import("@/trpc/vanilla")]).then(
    ([{ contactInput }, { firstProblem }, { shopClient }]) => ({ contactInput, firstProblem, shopClient }),
  );

/**
 * The contact form: validated here and on the server, stored, and confirmed to the sender. Its
 * validation and client load on the first send, so the page itself stays light.
 */
export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const [pending, setPending] = useState(false);
  const flash = useFlashMessage(8_000);

  const field = (name: keyof typeof EMPTY) => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    disabled: pending,
  });

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      const { contactInput, firstProblem, shopClient } = await loadSender();
      const problem = firstProblem(contactInput, values);
      if (problem) return flash.show(problem, "error");
      const { message } = await shopClient.contact.send.mutate(values);
      flash.show(message, "success", { persist: true });
      setValues(EMPTY);
    } catch (error) {
      // The server's own message when it answered; otherwise (offline, say) the generic one.
      const answered = error instanceof Error && "data" in error && error.data != null;
      flash.show(answered ? error.message : messages.contact.failed, "error");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Send us a message">
      <TextField label="Name" autoComplete="name" maxLength={100} showCount {...field("name")} />
      <TextField label="Email" type="email" autoComplete="email" maxLength={255} {...field("email")} />
      <TextField label="Phone" type="tel" autoComplete="tel" maxLength={30} {...field("phone")} />
      <TextAreaField label="Message" id="contact-message" rows={6} maxLength={5000} {...field("message")} />
      <Button type="submit" disabled={pending}>
        {pending ? "Sending..." : "Send Message"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
