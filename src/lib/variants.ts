/**
 * A variant's option values as the shop writes them, "L / Navy", or `fallback` for a product
 * without options (its one variant has none). The same words as SQL's variant_line_name(), which
 * names cart and order lines "Golf shirt — L / Navy" (020_catalogue.sql).
 */
export function variantLabel(optionValues: readonly string[], fallback: string): string {
  return optionValues.join(" / ") || fallback;
}

/**
 * A variant's line name as public.variant_line_name() writes it in SQL: the product's name, then
 * the variant's choices ("Golf shirt — L / Navy"); the name alone without options.
 */
export function variantLineName(productName: string, optionValues: readonly string[]): string {
  const options = variantLabel(optionValues, "");
  return options ? `${productName} — ${options}` : productName;
}
