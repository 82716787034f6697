/** Cache tags, named once: reads tag themselves; writes revalidate the same names. */
export const CACHE_TAGS = {
  /** Everything a visitor sees of the catalogue: products, categories, related lists. */
  catalogue: "catalogue",
} as const;
