import { revalidateTag } from "next/cache";
import { CACHE_TAGS } from "@/lib/cache-tags";

/** After a catalogue change: the shop shows it on the very next request (no stale window). */
export function revalidateCatalogue() {
  try {
    revalidateTag(CACHE_TAGS.catalogue, { expire: 0 });
  } catch {
    // Outside a Next.js server (tests, scripts) there is no cache to revalidate.
  }
}
