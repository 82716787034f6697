"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { invoiceMessages as m } from "@/lib/messages";
import { invoiceSettingsInput, type InvoiceSettingsField, type InvoiceSettingsValues } from "@/server/invoices/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

type FieldErrors = Partial<Record<InvoiceSettingsField, string>>;

function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === "string") errors[field as InvoiceSettingsField] ??= issue.message;
  }
  return errors;
}

/** Shop settings → Invoices and VAT (admins): registration, VAT number, legal name and address, number prefix. */
export function InvoiceSettingsForm() {
  const settings = api.invoices.settings.useQuery();
  if (settings.isPending) return <p role="status">{"Loading..."}</p>;
  if (settings.isError) {
    return (
      <p role="alert" className="text-danger">
        {m.loadFailed}
      </p>
    );
  }
  return <InvoiceFields initial={settings.data.values} />;
}

function InvoiceFields({ initial }: { initial: InvoiceSettingsValues }) {
  const router = useRouter();
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const registeredId = useId();

  const save = api.invoices.updateSettings.useMutation({
    onSuccess: (result) => {
      setValues(result.values);
      flash.show(result.message, "success");
      void utils.invoices.settings.invalidate();
      // The go-live checklist and the admin pages' banner are rendered on the server.
      router.refresh();
    },
    onError: (error) => {
      const fieldErrors: Record<string, string[] | undefined> = error.data?.zodError?.fieldErrors ?? {};
      setErrors(fieldErrorsOf(Object.entries(fieldErrors).flatMap(([field, problems]) => (problems ?? []).map((message) => ({ path: [field], message })))));
      flash.show(error.message || m.saveFailed, "error");
    },
  });
  const pending = save.isPending;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    const parsed = invoiceSettingsInput.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return flash.show(parsed.error.issues[0]?.message ?? m.saveFailed, "error");
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const text = (name: Exclude<InvoiceSettingsField, "vatRegistered">) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: pending,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={m.settingsTitle}>
      <fieldset className="grid gap-4 rounded-2xl border border-line bg-white p-5 sm:grid-cols-2">
        <legend className="px-1 text-base font-bold">{m.settingsTitle}</legend>
        <div className="flex items-center gap-3 sm:col-span-2">
          <input
            id={registeredId}
            type="checkbox"
            name="vatRegistered"
            checked={values.vatRegistered}
            disabled={pending}
            onChange={(event) => setValues((current) => ({ ...current, vatRegistered: event.target.checked }))}
            className="size-5 accent-brand-700"
          />
          <label htmlFor={registeredId} className="text-sm font-medium">
            Registered for VAT (invoices are tax invoices with 15% VAT)
          </label>
        </div>
        <TextField label="VAT number (10 digits, starting with 4)" inputMode="numeric" maxLength={14} autoComplete="off" {...text("vatNumber")} />
        <TextField label="Invoice number prefix" maxLength={12} autoComplete="off" {...text("invoicePrefix")} />
        <TextField id="invoice-legal-name" label="Legal name on invoices" maxLength={120} className="sm:col-span-2" {...text("legalName")} />
        <TextField label="Address on invoices" maxLength={300} className="sm:col-span-2" {...text("legalAddress")} />
        <p className="text-sm text-muted sm:col-span-2">
          Invoices are numbered one after another with no gaps. Changes apply to invoices issued from now on; issued ones never change.
        </p>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving..." : "Save invoice settings"}
      </Button>
      <StatusMessage message={flash.message} />
    </form>
  );
}
