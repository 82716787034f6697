/**
 * The shop's mark (the header's logo: a teal globe with a golden horizon and sun) as SVG, and
 * the colours the installed app uses. The favicon, touch icon and manifest icons are drawn from
 * it by `npx tsx scripts/make-icons.ts`, which writes them into src/app/ and public/icons/.
 */
export const BRAND_COLOURS = {
  /** The header's logo circle and the manifest's theme colour (brand-700). */
  theme: "#0f5e57",
  /** The page background (surface). */
  background: "#fbfaf7",
  gold: "#fbbf24",
} as const;

/** The mark on a transparent square, for the favicon and the browser tab. */
export function brandMarkSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="${BRAND_COLOURS.theme}"/><path d="M5 17c4-5 9-5 11 0s7 5 11 0" stroke="${BRAND_COLOURS.gold}" stroke-width="2.5" fill="none" stroke-linecap="round"/><circle cx="16" cy="10" r="3" fill="${BRAND_COLOURS.gold}"/></svg>`;
}

/**
 * The mark full-bleed on the theme colour, kept inside the middle 80 % (a maskable icon's safe
 * zone): the touch icon and the manifest's icons, which platforms crop to their own shapes.
 */
export function brandTileSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="${BRAND_COLOURS.theme}"/><path d="M9 21c4-5 9-5 11 0s7 5 11 0" stroke="${BRAND_COLOURS.gold}" stroke-width="2.5" fill="none" stroke-linecap="round"/><circle cx="20" cy="14" r="3" fill="${BRAND_COLOURS.gold}"/></svg>`;
}

/** The manifest's icons (written by scripts/make-icons.ts into public/icons/). */
export const MANIFEST_ICONS = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
] as const;
