"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { messages } from "@/lib/messages";
import { whatsappSettingsInput, type WhatsAppSettingsInput } from "@/server/messaging/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.whatsappSettings;
const s = messages.payments;

type Saved = RouterOutputs["messaging"]["settings"];
type Field = "phoneNumberId" | "accessToken" | "appSecret" | "verifyToken" | "ownerPhone";

/**
 * WhatsApp's settings and the owner's own alerts (admins; docs/whatsapp.md). The access token,
 * app secret and verify token are never sent back to the browser: the form says whether each is
 * saved, and a blank box keeps it.
 */
export function WhatsAppSettingsForm() {
  const settings = api.messaging.settings.useQuery();
  if (settings.isPending) return <p role="status">{messages.loading}</p>;
  if (settings.isError) return <p role="alert" className="text-danger">{messages.settings.loadFailed}</p>;
  return <WhatsAppFields saved={settings.data} />;
}

const formValues = (saved: Saved): WhatsAppSettingsInput => ({
  enabled: saved.enabled,
  phoneNumberId: saved.phoneNumberId,
  accessToken: "",
  appSecret: "",
  verifyToken: "",
  ownerPhone: saved.ownerPhone,
  ownerAlerts: saved.ownerAlerts,
});

function status(saved: Saved): string {
  if (saved.on) return m.statusOn;
  return saved.enabled ? m.statusIncomplete : m.statusOff;
}

function WhatsAppFields({ saved }: { saved: Saved }) {
  const router = useRouter();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [current, setCurrent] = useState(saved);
  const [values, setValues] = useState<WhatsAppSettingsInput>(formValues(saved));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const save = api.messaging.updateSettings.useMutation({
    onSuccess: (result) => {
      setCurrent(result.values);
      setValues(formValues(result.values));
      flash.show(result.message, result.values.enabled && !result.values.on ? "error" : "success");
      void utils.messaging.settings.invalidate();
      // The go-live checklist and the admin pages' banner are rendered on the server.
      router.refresh();
    },
    onError: (error) => flash.show(error.message || m.saveFailed, "error"),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = whatsappSettingsInput.safeParse(values);
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return flash.show(checked.error.issues[0]?.message ?? m.saveFailed, "error");
    }
    setErrors({});
    save.mutate(checked.data);
  }

  const set = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((before) => ({ ...before, [field]: event.target.value }));
  const tick = (field: "enabled" | "ownerAlerts") => (event: React.ChangeEvent<HTMLInputElement>) => setValues((before) => ({ ...before, [field]: event.target.checked }));
  const secret = (field: "accessToken" | "appSecret" | "verifyToken", label: string, has: boolean) => (
    <TextField
      id={`whatsapp-${field}`}
      label={label}
      type="password"
      autoComplete="new-password"
      value={values[field]}
      onChange={set(field)}
      placeholder={has ? s.secretKept : s.secretNotSet}
      error={errors[field]}
    />
  );
  return (
    <form id="whatsapp-settings" onSubmit={submit} noValidate className="space-y-5 rounded-3xl border border-line bg-white p-6" aria-labelledby="whatsapp-heading" data-testid="whatsapp-settings">
      <div>
        <h2 id="whatsapp-heading" className="text-xl font-bold">
          {m.title}
        </h2>
        <p className="mt-1 text-sm text-muted">{m.intro}</p>
        <p className="mt-2 text-sm font-medium" data-testid="whatsapp-status">
          {status(current)}
        </p>
        {current.source === "environment" ? <p className="mt-1 text-sm text-muted">{m.fromEnvironment}</p> : null}
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input id="whatsapp-enabled" type="checkbox" checked={values.enabled} onChange={tick("enabled")} className="mt-0.5 size-4" />
        <span>
          <span className="font-medium">{m.enabled}</span>
          <span className="block text-muted">{m.enabledDetail}</span>
        </span>
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="whatsapp-phoneNumberId"
          label={m.phoneNumberId}
          inputMode="numeric"
          autoComplete="off"
          value={values.phoneNumberId}
          onChange={set("phoneNumberId")}
          error={errors.phoneNumberId}
        />
        {secret("accessToken", m.accessToken, current.hasAccessToken)}
        {secret("appSecret", m.appSecret, current.hasAppSecret)}
        <div>
          {secret("verifyToken", m.verifyToken, current.hasVerifyToken)}
          <p className="mt-1 text-xs text-muted">{m.verifyTokenHint}</p>
        </div>
      </div>
      <fieldset className="space-y-3 rounded-2xl border border-line p-4">
        <legend className="px-1 text-sm font-semibold">{m.ownerHeading}</legend>
        <TextField
          id="whatsapp-ownerPhone"
          label={m.ownerPhone}
          type="tel"
          autoComplete="tel"
          value={values.ownerPhone}
          onChange={set("ownerPhone")}
          placeholder="082 123 4567"
          error={errors.ownerPhone}
        />
        <label className="flex items-start gap-2 text-sm">
          <input id="whatsapp-ownerAlerts" type="checkbox" checked={values.ownerAlerts} onChange={tick("ownerAlerts")} className="mt-0.5 size-4" />
          <span>
            <span className="font-medium">{m.ownerAlerts}</span>
            <span className="block text-muted">{m.ownerAlertsDetail}</span>
          </span>
        </label>
      </fieldset>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? m.saving : m.save}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
