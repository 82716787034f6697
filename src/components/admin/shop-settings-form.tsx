"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { BANK_ACCOUNT_TYPES, MAX_UNPAID_ORDER_DAYS } from "@/lib/constants";
import { messages, openingHoursMessages } from "@/lib/messages";
import { shopSettingsInput, type ShopSettingsField, type ShopSettingsValues } from "@/server/settings/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { FieldError, TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { formatDateTime } from "@/lib/days";

const m = messages.settings;

/** The form's fields as typed: text, the number of days too. */
type FormValues = Record<ShopSettingsField, string>;
type FieldErrors = Partial<Record<ShopSettingsField, string>>;

function formValuesOf(values: ShopSettingsValues): FormValues {
  return { ...values, unpaidOrderDays: String(values.unpaidOrderDays) };
}

/** What the form sends: the days as a number (an empty box is no number, which the schema refuses). */
function inputOf(values: FormValues) {
  const days = values.unpaidOrderDays.trim();
  return { ...values, unpaidOrderDays: days === "" ? Number.NaN : Number(days) };
}

/** The first problem of each field, as the shared schema words it. */
function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === "string" && field in shopSettingsInput.shape) errors[field as ShopSettingsField] ??= issue.message;
  }
  return errors;
}

/** Shop settings (admins): the bank account, contact details, order notices, POPIA and unpaid orders. */
export function ShopSettingsForm() {
  const settings = api.settings.get.useQuery();
  if (settings.isPending) return <p role="status">{messages.loading}</p>;
  if (settings.isError) {
    return (
      <p role="alert" className="text-danger">
        {m.loadFailed}
      </p>
    );
  }
  return <SettingsFields settings={settings.data} />;
}

function SettingsFields({ settings }: { settings: RouterOutputs["settings"]["get"] }) {
  const router = useRouter();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [values, setValues] = useState(() => formValuesOf(settings.values));
  const [errors, setErrors] = useState<FieldErrors>({});
  const typeId = useId();

  const save = api.settings.update.useMutation({
    onSuccess: (result) => {
      setValues(formValuesOf(result.values));
      flash.show(result.message, "success");
      void utils.settings.get.invalidate();
      // The admin pages' banner and anything else rendered on the server with the old settings.
      router.refresh();
    },
    onError: (error) => {
      // The server's own check of the same schema, should it refuse what the form let through.
      const fieldErrors: Record<string, string[] | undefined> = error.data?.zodError?.fieldErrors ?? {};
      setErrors(fieldErrorsOf(Object.entries(fieldErrors).flatMap(([field, problems]) => (problems ?? []).map((message) => ({ path: [field], message })))));
      flash.show(error.message || m.saveFailed, "error");
    },
  });
  const pending = save.isPending;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    const parsed = shopSettingsInput.safeParse(inputOf(values));
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return flash.show(parsed.error.issues[0]?.message ?? m.saveFailed, "error");
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const field = (name: ShopSettingsField) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: pending,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  const fieldset = "grid gap-4 rounded-2xl border border-line bg-white p-5 sm:grid-cols-2";
  const legend = "px-1 text-base font-bold";

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={m.title}>
      {settings.bankTransfer === "demo" ? (
        <p className="rounded-lg border border-accent-500 bg-accent-100 px-4 py-3 text-sm" data-testid="demo-bank-note">
          {m.demoBank}
        </p>
      ) : null}
      {settings.updatedAt ? <p className="text-sm text-muted">{m.lastSaved(formatDateTime(settings.updatedAt), settings.updatedBy)}</p> : null}

      <fieldset className={fieldset}>
        <legend className={legend}>Bank account (shown at checkout)</legend>
        <TextField label="Account name" maxLength={100} autoComplete="off" {...field("bankAccountName")} />
        <TextField label="Bank" maxLength={100} autoComplete="off" {...field("bankName")} />
        <TextField id="settings-bank-account-number" label="Account number" inputMode="numeric" maxLength={24} autoComplete="off" {...field("bankAccountNumber")} />
        <TextField label="Branch code" inputMode="numeric" maxLength={10} autoComplete="off" {...field("bankBranchCode")} />
        <div>
          <label htmlFor={typeId} className="mb-1.5 block text-sm font-medium">
            Account type
          </label>
          <select
            id={typeId}
            name="bankAccountType"
            value={values.bankAccountType}
            onChange={(event) => setValues((current) => ({ ...current, bankAccountType: event.target.value }))}
            disabled={pending}
            className="block w-full rounded-xl border border-line bg-white px-4 py-2.5 disabled:bg-surface"
            aria-invalid={errors.bankAccountType ? true : undefined}
            aria-describedby={errors.bankAccountType ? `${typeId}-error` : undefined}
          >
            {BANK_ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <FieldError id={`${typeId}-error`} error={errors.bankAccountType} />
        </div>
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>Contact details (footer and contact page)</legend>
        <TextField id="settings-phone" label="Shop phone" type="tel" maxLength={30} {...field("phone")} />
        <TextField id="settings-email" label="Shop email" type="email" maxLength={255} {...field("email")} />
        <TextField id="settings-address" label="Address (optional)" maxLength={200} className="sm:col-span-2" {...field("address")} />
        <p className="text-sm text-muted sm:col-span-2">
          <a href="#opening-hours" className="underline">
            {openingHoursMessages.shownFrom}
          </a>
        </p>
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>Orders</legend>
        <TextField label="Email for order notices" type="email" maxLength={255} {...field("ordersEmail")} />
        <TextField
          label={`Cancel unpaid orders after (days, 0 to ${MAX_UNPAID_ORDER_DAYS}; 0: never)`}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_UNPAID_ORDER_DAYS}
          step={1}
          {...field("unpaidOrderDays")}
        />
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>Information officer (POPIA privacy notice)</legend>
        <TextField id="settings-information-officer" label="Information officer's name" maxLength={100} {...field("informationOfficerName")} />
        <TextField label="Information officer's email" type="email" maxLength={255} {...field("informationOfficerEmail")} />
      </fieldset>

      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save settings"}
        </Button>
      </div>
      <StatusMessage message={flash.message} />
    </form>
  );
}
