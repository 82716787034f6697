"use client";

import { TextField } from "@/components/ui/form-field";
import { PersonalisationFile } from "@/components/signed-in";
import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { formatRand } from "@/lib/money";
import type { CataloguePersonalisationField } from "@/server/catalogue/catalogue-queries";

/** A field's label as the page shows it: required or optional, and its price when it has one. */
function labelOf(field: CataloguePersonalisationField) {
  const price = field.price > 0 ? `, ${messages.catalogue.personalisationPrice(formatRand(field.price))}` : "";
  return `${field.label} (${field.required ? "required" : "optional"}${price})`;
}

/**
 * What the product asks the customer to add to their line: texts (their length shown as they
 * type) and files (a logo), uploaded as soon as they are chosen, by a customer only (the upload
 * needs the cart's client, which a visitor's page never loads).
 */
export function PersonalisationInputs({
  fields,
  values,
  onChange,
  viewer,
}: {
  fields: CataloguePersonalisationField[];
  values: Record<string, string>;
  onChange: (fieldId: string, value: string) => void;
  viewer: "visitor" | "customer" | "admin";
}) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-semibold text-ink">{messages.catalogue.personalisationHeading}</legend>
      {fields.map((field) =>
        field.kind === "text" ? (
          <TextField
            key={field.id}
            label={labelOf(field)}
            name={`personalisation-${field.id}`}
            maxLength={field.maxLength ?? undefined}
            showCount
            value={values[field.id] ?? ""}
            onChange={(event) => onChange(field.id, event.currentTarget.value)}
          />
        ) : viewer === "customer" ? (
          <PersonalisationFile key={field.id} label={labelOf(field)} onUploaded={(path) => onChange(field.id, path)} />
        ) : (
          <p key={field.id} className="text-sm text-muted">
            {labelOf(field)}: {messages.catalogue.personalisationFileSignIn}
          </p>
        ),
      )}
    </fieldset>
  );
}
