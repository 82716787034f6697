/**
 * A kept page's head carries only the rules its own markup uses; the whole stylesheet follows
 * as the shop's one cached file, loaded without holding up the first paint.
 *
 * With the stylesheet inline (`experimental.inlineCss`, next.config.mjs) every page's head held
 * all 48 kB of it, and a throttled phone parsed and matched all of it before its first paint
 * (BENCHMARKS.md, issue 35). Beasties (the maintained successor of Google's critters) picks the
 * rules that match the page as rendered, the cascade layers' order and `@property` rules kept;
 * the head's `<style>` keeps its `data-href`, so React still knows the stylesheet as present and
 * never inserts it again on a later page. Rules for what a page shows only later (an open menu,
 * a dialog, the next page a link leads to) come with the whole file, linked at the end of the
 * body as `media="print"` (fetched at low priority, blocking nothing) and switched to all media
 * by a script with the page's nonce once it has loaded; without scripts, a `<noscript>` link.
 *
 * Run once per kept page, off every response's path (about 20 ms warm on this machine for a
 * catalogue page, the page's scripts left out of what Beasties reads: they are no markup). A
 * page it cannot cut stays as it was.
 */
import Beasties from "beasties";
import { cartBadgeDisplay, VIEWER_SLOTS } from "@/lib/page-viewer";

/** React's stylesheet in the head: `<style data-precedence=… data-href=…>css</style>`. */
const INLINE_STYLESHEET = /<style\b[^>]*\bdata-precedence="[^"]*"[^>]*\bdata-href="([^"]+)"[^>]*>([\s\S]*?)<\/style>/;
/** A script's text: no markup for a selector to match. */
const SCRIPT_TEXT = /(<script\b[^>]*>)[\s\S]*?<\/script>/g;
/** Below this the stylesheet is not worth a second request. */
const WORTH_IT = 4096;
/** Marks the whole stylesheet's `link`, for the script that switches it on and for tests. */
export const WHOLE_STYLESHEET_ATTRIBUTE = "data-whole-stylesheet";

/** Pseudo-classes whose argument is itself a selector that must match: kept as `:is()`. */
const MATCHING_PSEUDOS = new Set(["is", "where", "matches", "-webkit-any", "-moz-any"]);

/**
 * A selector Beasties can look for in the page: an element the rule could style, in any state.
 * Pseudo-elements and state (`:hover`, `:checked`, `:popover-open`) are left out, and so are
 * conditions that narrow a match (`:not()`, `:has()`, `:nth-child()`), so a rule is kept whenever
 * its elements are in the page; `:where()` and `:is()` keep their own selectors, which must match
 * (Tailwind writes `space-y-4` as `:where(.space-y-4>:not(:last-child))`). Attribute selectors,
 * quoted strings and escaped characters (`.sm\:px-4`) are copied as they are.
 *
 * Beasties' own version drops everything from the first `:name(` to the last `)`, which took
 * every `:where()` rule out of the page (the shop's vertical spacing with them).
 */
export function matchableSelector(selector: string): string {
  return topLevelParts(selector).map(matchableOne).join(",");
}

function matchableOne(selector: string): string {
  let out = "";
  let i = 0;
  while (i < selector.length) {
    const char = selector[i]!;
    if (char === "\\") {
      out += selector.slice(i, i + 2);
      i += 2;
    } else if (char === "[" || char === '"' || char === "'") {
      const end = closing(selector, i);
      out += selector.slice(i, end);
      i = end;
    } else if (char === ":") {
      const name = /^::?([a-zA-Z-]+)/.exec(selector.slice(i));
      if (!name) return "*";
      i += name[0].length;
      if (selector[i] !== "(") continue;
      const end = closing(selector, i);
      if (MATCHING_PSEUDOS.has(name[1]!.toLowerCase()) && name[0][1] !== ":") {
        out += `:is(${matchableSelector(selector.slice(i + 1, end - 1))})`;
      }
      i = end;
    } else {
      out += char;
      i++;
    }
  }
  // A combinator left with nothing on one side stands for any element there.
  const tidy = out
    .replace(/([>+~])\s*(?=[>+~,)]|$)/g, "$1 *")
    .replace(/(^|[(,])\s*([>+~])/g, "$1* $2")
    .trim();
  return tidy === "" ? "*" : tidy;
}

/** A selector list's selectors: split at its own commas, not at those in brackets or parentheses. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const char = list[i]!;
    if (char === "\\") i++;
    else if (char === "[" || char === "(" || char === '"' || char === "'") i = closing(list, i) - 1;
    else if (char === ",") {
      parts.push(list.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(list.slice(from));
  return parts;
}

/** Where the bracket, quote or parenthesis opened at `start` closes (just after it). */
function closing(text: string, start: number): number {
  const open = text[start]!;
  const close = open === "[" ? "]" : open === "(" ? ")" : open;
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\") i++;
    else if (open !== close && (char === '"' || char === "'")) i = closing(text, i) - 1;
    else if (char === close && (open !== close || i > start) && --depth <= 0) return i + 1;
    else if (char === open && open !== close) depth++;
  }
  return text.length;
}

/**
 * Beasties, looking for each rule's elements with the selectors above. `normalizeCssSelector` is
 * Beasties' own method, not in its typings: the version is pinned in package.json, and
 * tests/unit/critical-stylesheet.test.ts fails if the hook stops being called.
 */
class PageRules extends Beasties {
  /** Beasties' hook for the selector it matches against the page (see `matchableSelector`). */
  normalizeCssSelector(selector: string): string {
    return matchableSelector(selector);
  }
}

const beasties = new PageRules({
  // Only the page's own inline stylesheet is read; nothing from disk or the network.
  external: false,
  reduceInlineStyles: true,
  mergeStylesheets: false,
  keyframes: "critical",
  logLevel: "silent",
});

/**
 * The markup as Beasties should see it: no scripts' text, and in a role's template every class a
 * response may put in a class slot (the cart badge is shown or hidden per caller, ./responses.ts).
 */
function markupOf(html: string): string {
  const badge = [cartBadgeDisplay(0), cartBadgeDisplay(1)].join(" ");
  return html.replace(SCRIPT_TEXT, "$1</script>").replaceAll(VIEWER_SLOTS.cartDisplay, badge);
}

/** The rules of `css` that the page's markup uses, or null if Beasties could not say. */
async function usedRules(html: string, href: string): Promise<string | null> {
  try {
    const style = (await beasties.process(markupOf(html))).match(INLINE_STYLESHEET);
    return style?.[1] === href ? style[2]! : null;
  } catch {
    return null;
  }
}

/** What follows the page's body: the whole stylesheet, switched on once it has loaded. */
function wholeStylesheet(href: string, nonce: string): string {
  const link = `<link rel="stylesheet" href="${href}" media="print" ${WHOLE_STYLESHEET_ATTRIBUTE}/>`;
  const switchOn = `(function(l){function on(){l.media="all"}l.sheet?on():l.addEventListener("load",on)})(document.currentScript.previousElementSibling)`;
  return `${link}<script nonce="${nonce}">${switchOn}</script><noscript><link rel="stylesheet" href="${href}"/></noscript>`;
}

/**
 * The page with its head's stylesheet cut to the rules its markup uses and the whole stylesheet
 * linked at the end of its body; the page unchanged if it has no such stylesheet, no nonce for
 * the script, or nothing to cut.
 */
export async function criticalStylesheet(html: string, nonce: string | null): Promise<string> {
  const sheet = html.match(INLINE_STYLESHEET);
  const end = html.lastIndexOf("</body>");
  if (!sheet || !nonce || end < 0) return html;
  const [whole, href, css] = sheet as unknown as [string, string, string];
  if (css.length < WORTH_IT || !href.startsWith("/")) return html;
  const used = await usedRules(html, href);
  if (used === null || used.length >= css.length) return html;
  const head = whole.slice(0, whole.length - css.length - "</style>".length);
  const at = sheet.index!;
  return `${html.slice(0, at)}${head}${used}</style>${html.slice(at + whole.length, end)}${wholeStylesheet(href, nonce)}${html.slice(end)}`;
}
