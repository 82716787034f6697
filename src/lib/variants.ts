/**
 * A variant's option values as the shop writes them, "L / Navy", or `fallback` for a product
 * without options (its one variant has none). The same words as SQL's variant_line_name(), which
 * names cart and order lines "Golf shirt — L / Navy" (020_catalogue.sql).
 */
export function variantLabel(optionValues: readonly string[], fallback: string): string {
  return optionValues.join(" / ") || fallback;
}
