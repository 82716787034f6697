"use client";

import { useEffect, useId, useRef, useState } from "react";
import { SignInToAdd } from "@/components/cart/sign-in-to-add";
import { AddToCartButton } from "@/components/signed-in";
import { storefrontMessages as messages } from "@/lib/storefront-messages";
import { formatRand } from "@/lib/money";
import { canBuy, stockLabel } from "@/lib/stock";
import type { CatalogueOption, CataloguePersonalisationField, CatalogueVariant } from "@/server/catalogue/catalogue-queries";
import { BackInStock } from "./back-in-stock";
import { showPicture } from "./gallery-controls";
import { PersonalisationInputs } from "./personalisation-inputs";

type Viewer = "visitor" | "customer" | "admin";

/** The variant with exactly these choices, if the shop sells it. */
function variantOf(variants: CatalogueVariant[], chosen: string[]) {
  return variants.find((variant) => variant.optionValues.every((value, i) => value === chosen[i]));
}

/** The first variant a shopper can buy (else the first), the page's starting choice. */
function firstChoice(variants: CatalogueVariant[]): string[] {
  return (variants.find(canBuy) ?? variants[0])?.optionValues ?? [];
}

/**
 * The product page's buy box for a product with options or personalisation. A product's options as radio groups (native inputs: a choice tapped before the page's scripts
 * ran is read back once they do), the chosen variant's price and stock, and Add to Cart for it.
 * A choice that, with the others as chosen, makes a combination the shop does not sell is struck
 * through and cannot be chosen; one that is sold out is struck through too and can be chosen only
 * to ask to be told when it is back (Add to Cart stays off).
 */
export function VariantPicker({
  productId,
  options,
  variants,
  personalisation,
  viewer,
  galleryId,
}: {
  galleryId: string;
  productId: string;
  options: CatalogueOption[];
  variants: CatalogueVariant[];
  personalisation: CataloguePersonalisationField[];
  viewer: Viewer;
}) {
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const [chosen, setChosen] = useState<string[]>(() => firstChoice(variants));
  const [values, setValues] = useState<Record<string, string>>({});
  const addOn = personalisation.reduce((sum, field) => sum + (values[field.id]?.trim() ? field.price : 0), 0);

  // What the radios say now (a tap before hydration included) becomes the state once.
  useEffect(() => {
    const data = form.current ? new FormData(form.current) : null;
    if (!data) return;
    const fromForm = options.map((_, i) => String(data.get(`option-${i}`) ?? ""));
    if (fromForm.some((value, i) => value !== chosen[i])) setChosen(fromForm);
    // Once, on mount: later changes come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const variant = variantOf(variants, chosen);
  // A variant with its own picture shows it in the gallery when it is chosen (not on the first paint).
  const pictureUrl = variant?.pictureUrl ?? null;
  const shownPicture = useRef(pictureUrl);
  useEffect(() => {
    if (pictureUrl && pictureUrl !== shownPicture.current) showPicture(galleryId, pictureUrl);
    shownPicture.current = pictureUrl;
  }, [galleryId, pictureUrl]);
  const buyable = variant !== undefined && canBuy(variant);
  const choosable = options.map((option, i) =>
    option.choices.map((choice) => {
      const candidate = variantOf(variants, chosen.map((value, j) => (j === i ? choice : value)));
      return candidate === undefined ? "none" : canBuy(candidate) ? "open" : "soldOut";
    }),
  );

  const stock = variant ? stockLabel(variant.stock) : null;
  return (
    <div className="space-y-5">
      <form ref={form} className="space-y-5" onSubmit={(event) => event.preventDefault()} aria-describedby={`${id}-status`}>
        {options.map((option, i) => (
          <fieldset key={option.name} className="space-y-2">
            <legend className="text-sm font-semibold text-ink">
              {option.name}: <span className="font-normal text-muted">{chosen[i]}</span>
            </legend>
            <div className="flex flex-wrap gap-2">
              {option.choices.map((choice, c) => {
                const state = choosable[i]![c]!;
                const open = state === "open";
                return (
                  <label key={choice} className="relative">
                    <input
                      type="radio"
                      name={`option-${i}`}
                      value={choice}
                      checked={chosen[i] === choice}
                      disabled={state === "none" && chosen[i] !== choice}
                      onChange={() => setChosen((current) => current.map((value, j) => (j === i ? choice : value)))}
                      className="peer sr-only"
                    />
                    <span
                      className={`inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-xl border border-line bg-white px-4 text-sm font-medium peer-checked:border-brand-700 peer-checked:bg-brand-50 peer-checked:text-brand-800 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-brand-700 peer-disabled:cursor-not-allowed peer-disabled:text-muted peer-disabled:line-through ${open ? "" : "text-muted line-through"}`}
                    >
                      {choice}
                      {open ? null : <span className="sr-only"> ({state === "soldOut" ? messages.catalogue.soldOut : messages.catalogue.notOffered})</span>}
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
        {personalisation.length > 0 ? (
          <PersonalisationInputs fields={personalisation} values={values} viewer={viewer} onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))} />
        ) : null}
        <div id={`${id}-status`} aria-live="polite" className="space-y-1">
          {variant ? (
            <p className="tabular text-2xl font-bold text-accent-700" data-testid="variant-price">
              {formatRand(variant.price + addOn)}
            </p>
          ) : (
            <p className="text-sm font-medium text-danger">{messages.catalogue.combinationUnavailable}</p>
          )}
          {variant && !variant.available ? <p className="text-sm font-medium text-danger">{messages.cart.unavailable}</p> : null}
          {variant?.available && stock ? <p className={`text-sm font-medium ${variant.stock === 0 ? "text-danger" : "text-muted"}`}>{stock}</p> : null}
        </div>
      </form>
      {viewer === "customer" ? (
        <AddToCartButton productId={productId} variantId={variant?.id} personalisation={values} disabled={!buyable} className="w-full sm:w-auto" />
      ) : viewer === "visitor" ? (
        <SignInToAdd productId={productId} className="w-full sm:w-auto" />
      ) : null}
      {variant?.available && variant.stock === 0 ? <BackInStock productId={productId} variantId={variant.id} viewer={viewer} /> : null}
    </div>
  );
}
