/**
 * A kept page's stylesheet once instead of three times. With the stylesheet inline
 * (`experimental.inlineCss`, next.config.mjs) Next.js writes it into the HTML's head and, for
 * React to hydrate from, twice more into the page's RSC payload: once for the root layout and
 * once for global-error (Turbopack gives every entry of a route its root layout's CSS). The
 * payload's copies are never used on a first load: React adopts the `<style>` already in the
 * head by its `href` without reading their text, and every later page of the shop names the same
 * stylesheet, so it is never inserted again. Here those copies become empty strings, which takes
 * 90 of a catalogue page's 230 kB (16 of 37 kB gzipped) off every kept page: bytes a phone on a
 * slow line no longer downloads beside the page's pictures, and bytes the server no longer copies
 * per response (BENCHMARKS.md, issue 35).
 *
 * Only exact copies are touched: a payload text row (`<id>:T<byte length in hex>,<text>`) whose
 * text is the whole of a stylesheet inlined in the page's head. Anything else (a row split
 * across two script chunks, a different text) stays as it was.
 */

/** What React's stylesheet in the head carries: `<style data-precedence=… data-href=…>css</style>`. */
const INLINE_STYLESHEET = /<style\b[^>]*\bdata-href="[^"]*"[^>]*>([\s\S]*?)<\/style>/g;
/** One chunk of the RSC payload, as Next.js writes it into the HTML. */
const PAYLOAD_CHUNK = /(<script\b[^>]*>self\.__next_f\.push\()(\[1,"(?:[^"\\]|\\.)*"\])(\)<\/script>)/g;
/** Below this a copy is not worth a pass over the payload. */
const WORTH_IT = 1024;

/** The escapes Next.js applies to the payload's JSON inside a script element (htmlEscapeJsonString). */
const scriptEscapes: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };

function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[&><\u2028\u2029]/g, (char) => scriptEscapes[char]!);
}

/** The page's HTML with the payload's copies of its inline stylesheets emptied. */
export function stylesheetOnce(html: string): string {
  const sheets = new Set<string>();
  for (const match of html.matchAll(INLINE_STYLESHEET)) if (match[1]!.length >= WORTH_IT) sheets.add(match[1]!);
  if (sheets.size === 0) return html;
  const copies = [...sheets].map((css) => `:T${Buffer.byteLength(css).toString(16)},${css}`);
  return html.replace(PAYLOAD_CHUNK, (whole, open: string, json: string, close: string) => {
    if (!copies.some((copy) => json.length > copy.length)) return whole;
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return whole;
    }
    if (!Array.isArray(parsed) || typeof parsed[1] !== "string") return whole;
    let data = parsed[1];
    for (const copy of copies) data = data.split(copy).join(":T0,");
    return data === parsed[1] ? whole : `${open}${scriptSafeJson([1, data])}${close}`;
  });
}
