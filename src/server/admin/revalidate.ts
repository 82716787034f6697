import { revalidateTag } from "next/cache";
import { CACHE_TAGS } from "@/lib/cache-tags";
import { invalidateVisitorPages } from "@/server/http/visitor-pages";

/** After a catalogue change: the shop shows it on the very next request (no stale window). */
export function revalidateCatalogue() {
  invalidateVisitorPages();
  try {
    revalidateTag(CACHE_TAGS.catalogue, { expire: 0 });
  } catch {
    // Outside a Next.js server (tests, scripts) there is no cache to revalidate.
  }
}
