"use client";

import { useState } from "react";
import { contactInput } from "@/lib/contact-schema";
import { firstProblem } from "@/lib/validation";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const EMPTY = { name: "", email: "", phone: "", message: "" };

/** The contact form: validated here and on the server, stored, and confirmed to the sender. */
export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const flash = useFlashMessage(8_000);
  const send = api.contact.send.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success", { persist: true });
      setValues(EMPTY);
    },
    onError: (error) => flash.show(error.message, "error"),
  });

  const field = (name: keyof typeof EMPTY) => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    disabled: send.isPending,
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = firstProblem(contactInput, values);
    if (problem) return flash.show(problem, "error");
    send.mutate(values);
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Send us a message">
      <TextField label="Name" autoComplete="name" maxLength={100} {...field("name")} />
      <TextField label="Email" type="email" autoComplete="email" maxLength={255} {...field("email")} />
      <TextField label="Phone" type="tel" autoComplete="tel" maxLength={30} {...field("phone")} />
      <div>
        <label htmlFor="contact-message" className="mb-1.5 block text-sm font-medium">
          Message
        </label>
        <textarea
          id="contact-message"
          rows={6}
          maxLength={5000}
          className="block w-full rounded-xl border border-line bg-white px-4 py-2.5 disabled:bg-surface"
          {...field("message")}
        />
      </div>
      <Button type="submit" disabled={send.isPending}>
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
