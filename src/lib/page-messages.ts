/**
 * The texts of the error pages, apart from the rest of `messages` because those pages are client
 * components on every route: they ship these two strings, not the whole catalogue of texts.
 * `messages` includes them, so everything else reads them from there.
 */
export const pageMessages = {
  /** The database cannot be reached for a moment (a restart, a network blip). */
  unavailable: "The shop is briefly unavailable. Please try again in a moment.",
  /** The heading of a page that failed. */
  pageFailedTitle: "Sorry, that did not work",
  /** Any other unexpected failure of a page. */
  pageFailed: "Something went wrong on our side while loading this page. Please try again.",
};
