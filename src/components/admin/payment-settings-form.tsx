"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { messages } from "@/lib/messages";
import { paymentSettingsInput, type PaymentSettingsInput } from "@/server/payments/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.payments;

type Field = "merchantId" | "merchantKey" | "passphrase";

/**
 * PayFast's credentials (admins; docs/payments.md). The merchant key and passphrase are never
 * sent back to the browser: the form says whether one is saved, and a blank box keeps it.
 */
export function PaymentSettingsForm() {
  const settings = api.payments.settings.useQuery();
  if (settings.isPending) return <p role="status">{messages.loading}</p>;
  if (settings.isError) return <p role="alert" className="text-danger">{messages.settings.loadFailed}</p>;
  return <PaymentFields saved={settings.data} />;
}

function PaymentFields({ saved }: { saved: RouterOutputs["payments"]["settings"] }) {
  const router = useRouter();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [current, setCurrent] = useState(saved);
  const [values, setValues] = useState<PaymentSettingsInput>({ merchantId: saved.merchantId, merchantKey: "", passphrase: "", clearPassphrase: false, sandbox: saved.sandbox });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const save = api.payments.updateSettings.useMutation({
    onSuccess: (result) => {
      setCurrent(result.values);
      setValues({ merchantId: result.values.merchantId, merchantKey: "", passphrase: "", clearPassphrase: false, sandbox: result.values.sandbox });
      flash.show(result.message, "success");
      void utils.payments.settings.invalidate();
      // The go-live checklist and the admin pages' banner are rendered on the server.
      router.refresh();
    },
    onError: (error) => flash.show(error.message || m.settingsSaveFailed, "error"),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = paymentSettingsInput.safeParse(values);
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) found[issue.path[0] as Field] ??= issue.message;
      setErrors(found);
      return flash.show(checked.error.issues[0]?.message ?? m.settingsSaveFailed, "error");
    }
    if (checked.data.merchantId && !checked.data.merchantKey && !current.hasMerchantKey) {
      setErrors({ merchantKey: m.merchantKeyRequired });
      return flash.show(m.merchantKeyRequired, "error");
    }
    setErrors({});
    save.mutate(checked.data);
  }

  const set = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((before) => ({ ...before, [field]: event.target.value }));
  return (
    <form onSubmit={submit} noValidate className="space-y-5 rounded-3xl border border-line bg-white p-6" aria-labelledby="payments-heading">
      <div>
        <h2 id="payments-heading" className="text-xl font-bold">
          {m.settingsTitle}
        </h2>
        <p className="mt-1 text-sm text-muted">
          With a merchant ID and key, checkout offers &ldquo;{m.payNowOption}&rdquo; beside bank transfer. Leave the merchant ID empty to offer bank transfer only.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Merchant ID" inputMode="numeric" autoComplete="off" value={values.merchantId} onChange={set("merchantId")} error={errors.merchantId} />
        <TextField
          label="Merchant key"
          autoComplete="off"
          value={values.merchantKey}
          onChange={set("merchantKey")}
          placeholder={current.hasMerchantKey ? m.secretKept : m.secretNotSet}
          error={errors.merchantKey}
        />
        <TextField
          label="Passphrase"
          type="password"
          autoComplete="new-password"
          value={values.passphrase}
          onChange={set("passphrase")}
          placeholder={current.hasPassphrase ? m.secretKept : m.secretNotSet}
          error={errors.passphrase}
        />
        <div className="space-y-2 self-end pb-2 text-sm">
          <label className="flex items-center gap-2">
            <input id="payfast-sandbox" type="checkbox" checked={values.sandbox} onChange={(event) => setValues((before) => ({ ...before, sandbox: event.target.checked }))} className="size-4" />
            Sandbox (PayFast&apos;s test system: no real money)
          </label>
          {current.hasPassphrase ? (
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={values.clearPassphrase}
                onChange={(event) => setValues((before) => ({ ...before, clearPassphrase: event.target.checked }))}
                className="size-4"
              />
              Remove the saved passphrase
            </label>
          ) : null}
        </div>
      </div>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save payment settings"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
