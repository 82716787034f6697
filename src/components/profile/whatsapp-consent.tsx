"use client";

import { useState } from "react";
import { formatDateTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import type { ConsentKind, ConsentSource } from "@/lib/statuses";
import { firstProblem } from "@/lib/validation";
import { consentInput } from "@/server/messaging/schemas";
import { api } from "@/trpc/react";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.consent;
const CHOICES: { kind: ConsentKind; label: string; detail: string }[] = [
  { kind: "whatsapp_updates", label: m.whatsappUpdates, detail: m.whatsappUpdatesDetail },
  { kind: "offers", label: m.offers, detail: m.offersDetail },
];

/**
 * The profile's WhatsApp choices (issue 40, POPIA): a number and two separate choices, unticked
 * until the customer ticks them. Ticking records a consent with these words; unticking withdraws
 * it at once (one tap). Shown only while the shop sends on WhatsApp: on the profile, and at
 * checkout (`source`), where a tick before placing the order sends that order's updates there.
 */
export function WhatsAppConsent({ source = "profile", className = "mt-10 rounded-3xl border border-line bg-white p-6" }: { source?: ConsentSource; className?: string }) {
  const utils = api.useUtils();
  const consents = api.messaging.myConsents.useQuery();
  const [phone, setPhone] = useState("");
  const flash = useFlashMessage();
  const set = api.messaging.setConsent.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success", { persist: true });
      void utils.messaging.myConsents.invalidate();
    },
    onError: (error) => flash.show(error.message, "error", { persist: true }),
  });
  if (!consents.data?.whatsappOn) return null;
  const data = consents.data;
  const knownPhone = data.whatsappUpdates?.phone ?? data.offers?.phone ?? "";

  function toggle(kind: ConsentKind, given: boolean) {
    if (set.isPending) return;
    const input = given ? { kind, given, phone: phone || knownPhone, source } : { kind, given };
    const problem = firstProblem(consentInput, input);
    if (problem) return flash.show(problem, "error", { persist: true });
    set.mutate(input);
  }

  return (
    <section aria-labelledby="whatsapp-heading" className={className} data-testid="whatsapp-consent">
      <h2 id="whatsapp-heading" className="text-lg font-semibold">
        {m.heading}
      </h2>
      <p className="mt-1 text-sm text-muted">{m.intro}</p>
      <TextField
        className="mt-4 max-w-sm"
        label={m.phoneLabel}
        type="tel"
        autoComplete="tel"
        maxLength={30}
        placeholder={knownPhone || "082 123 4567"}
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        disabled={set.isPending}
        aria-describedby="whatsapp-phone-hint"
      />
      <p id="whatsapp-phone-hint" className="mt-1 text-xs text-muted">
        {m.phoneHint}
      </p>
      <div className="mt-4 space-y-3">
        {CHOICES.map(({ kind, label, detail }) => {
          const live = data[kind === "whatsapp_updates" ? "whatsappUpdates" : "offers"];
          return (
            <label key={kind} className="flex items-start gap-3">
              <input type="checkbox" className="mt-1 size-4 accent-brand-700" checked={live !== null} disabled={set.isPending} onChange={(e) => toggle(kind, e.target.checked)} />
              <span>
                <span className="font-medium">{label}</span>
                <span className="block text-sm text-muted">{detail}</span>
                {live && <span className="block text-xs text-muted">{m.given(label, formatDateTime(live.givenAt), live.phone)}</span>}
              </span>
            </label>
          );
        })}
      </div>
      <StatusMessage message={flash.message} />
    </section>
  );
}
