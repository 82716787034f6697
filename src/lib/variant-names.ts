/**
 * A variant's line name as public.variant_line_name() writes it in SQL: the product's name, then
 * the variant's choices ("Golf shirt — L / Navy"); the name alone without options.
 */
export function variantLineName(productName: string, optionValues: readonly string[]): string {
  return optionValues.length > 0 ? `${productName} — ${optionValues.join(" / ")}` : productName;
}
