"use client";

import { useState } from "react";
import { invoiceMessages as m } from "@/lib/messages";
import { invoiceDetailsInput, type InvoiceDetailsValues } from "@/server/invoices/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

type Field = keyof InvoiceDetailsValues;

/**
 * The buyer's company name, address and VAT number for tax invoices (checkout and profile),
 * saved on the profile through its own procedure: invoices issued from then on print them.
 * Collapsed until opened, so it costs a customer who does not need it nothing.
 */
export function InvoiceDetails() {
  const details = api.invoices.myDetails.useQuery();
  const given = details.data && (details.data.company || details.data.address || details.data.vatNumber);
  return (
    <details className="rounded-2xl border border-line bg-white p-4" open={Boolean(given)}>
      <summary className="cursor-pointer font-semibold">{m.detailsTitle}</summary>
      <p className="mt-2 text-sm text-muted">{m.detailsHint}</p>
      {details.data ? <DetailsForm initial={details.data} /> : details.isError ? <p className="mt-2 text-sm text-danger">{m.detailsSaveFailed}</p> : null}
    </details>
  );
}

function DetailsForm({ initial }: { initial: InvoiceDetailsValues }) {
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const save = api.invoices.saveMyDetails.useMutation({
    onSuccess: (result) => {
      setValues(result.values);
      flash.show(result.message, "success");
      void utils.invoices.myDetails.invalidate();
    },
    onError: (error) => flash.show(error.message || m.detailsSaveFailed, "error"),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = invoiceDetailsInput.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return flash.show(parsed.error.issues[0]?.message ?? m.detailsSaveFailed, "error");
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  const field = (name: Field) => ({
    name,
    value: values[name],
    error: errors[name],
    disabled: save.isPending,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  // A form of its own (not nested in checkout's): Enter here saves these details, never places the order.
  return (
    <form onSubmit={submit} noValidate className="mt-3 grid gap-3 sm:grid-cols-2" aria-label={m.detailsTitle}>
      <TextField label="Company name" maxLength={120} showCount autoComplete="organization" {...field("company")} />
      <TextField label="VAT number" inputMode="numeric" maxLength={14} autoComplete="off" {...field("vatNumber")} />
      <TextField label="Billing address" maxLength={300} showCount autoComplete="street-address" className="sm:col-span-2" {...field("address")} />
      <div className="sm:col-span-2">
        <Button type="submit" variant="outline" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save invoice details"}
        </Button>
      </div>
      <StatusMessage message={flash.message} className="sm:col-span-2" />
    </form>
  );
}
