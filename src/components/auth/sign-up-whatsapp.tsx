"use client";

import { messages } from "@/lib/messages";
import type { ConsentKind } from "@/lib/statuses";
import { TextField } from "@/components/ui/form-field";

const m = messages.consent;

/** The sign-up form's WhatsApp choices: a number and the two separate, unticked choices. */
export interface SignUpWhatsApp {
  phone: string;
  whatsapp_updates: boolean;
  offers: boolean;
}

export const NO_WHATSAPP: SignUpWhatsApp = { phone: "", whatsapp_updates: false, offers: false };

/**
 * Shown at sign-up only while the shop sends on WhatsApp. The choices are recorded (with these
 * words, source "signup") once the new account is signed in; an account that must first confirm
 * its e-mail makes them on the profile instead.
 */
export function SignUpWhatsAppChoices({ value, onChange, disabled }: { value: SignUpWhatsApp; onChange: (value: SignUpWhatsApp) => void; disabled: boolean }) {
  const choices: { kind: ConsentKind; label: string; detail: string }[] = [
    { kind: "whatsapp_updates", label: m.whatsappUpdates, detail: m.whatsappUpdatesDetail },
    { kind: "offers", label: m.offers, detail: m.offersDetail },
  ];
  return (
    <fieldset className="space-y-3 rounded-2xl border border-line p-4" data-testid="signup-whatsapp">
      <legend className="px-1 text-sm font-semibold">{m.heading}</legend>
      <TextField label={m.phoneLabel} type="tel" autoComplete="tel" maxLength={30} value={value.phone} disabled={disabled} onChange={(e) => onChange({ ...value, phone: e.target.value })} />
      {choices.map(({ kind, label, detail }) => (
        <label key={kind} className="flex items-start gap-3 text-sm">
          <input type="checkbox" className="mt-0.5 h-5 w-5 accent-brand-700" checked={value[kind]} disabled={disabled} onChange={(e) => onChange({ ...value, [kind]: e.target.checked })} />
          <span>
            <span className="font-medium">{label}</span>
            <span className="block text-muted">{detail}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
