import type { MetadataRoute } from "next";
import { BRAND_COLOURS, MANIFEST_ICONS } from "@/lib/brand-icon";
import { site } from "@/server/settings/site";

/** A home-screen label of at most 12 characters: the name, or as many of its first words as fit. */
export function shortName(name: string): string {
  if (name.length <= 12) return name;
  let short = "";
  for (const word of name.split(/\s+/)) {
    const next = short ? `${short} ${word}` : word;
    if (next.length > 12) break;
    short = next;
  }
  return short || name.slice(0, 12);
}

/** The web app manifest (/manifest.webmanifest): the shop's name, colours and icons for a phone's home screen. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: site.name,
    short_name: shortName(site.name),
    description: site.description,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: BRAND_COLOURS.background,
    theme_color: BRAND_COLOURS.theme,
    lang: "en-ZA",
    icons: MANIFEST_ICONS.map((icon) => ({ ...icon })),
  };
}
