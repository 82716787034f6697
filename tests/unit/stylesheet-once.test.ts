/**
 * A kept page's inline stylesheet is sent once: the RSC payload's exact copies of it become empty
 * text rows, and nothing else in the page changes (src/server/kept-pages/stylesheet-once.ts).
 */
import { describe, expect, it } from "vitest";
import { stylesheetOnce } from "@/server/kept-pages/stylesheet-once";

/** A stylesheet of the size that matters, with what the payload's JSON must escape in a script. */
const CSS = `.a>.b{color:red}.c:where(&>*){margin:0}.d::after{content:"\\2013 & more"}${".u{padding:1px}".repeat(120)}`;
const textRow = (id: string, text: string) => `${id}:T${Buffer.byteLength(text).toString(16)},${text}`;
/** A payload chunk as Next.js writes it: JSON in a script, with <, > and & escaped. */
const chunk = (data: string) =>
  `<script nonce="n1">self.__next_f.push(${JSON.stringify([1, data]).replace(/[&><]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`)})</script>`;
const page = (...chunks: string[]) =>
  `<!DOCTYPE html><html><head><style data-precedence="next" data-href="/_next/static/chunks/a.css">${CSS}</style></head><body><main>Hi</main>${chunks.join("")}</body></html>`;
/** The payload's text, as the browser's React reads it. */
function payload(html: string): string {
  return [...html.matchAll(/self\.__next_f\.push\((\[1,".*?"\])\)<\/script>/g)].map((match) => (JSON.parse(match[1]!) as [number, string])[1]).join("");
}

describe("stylesheetOnce", () => {
  it("empties the payload's copies of the head's stylesheet and keeps every other row", () => {
    const rows = `0:{"t":["$","style","0",{"href":"/_next/static/chunks/a.css","children":"$2"}]}\n${textRow("2", CSS)}e:["$","style","0",{"children":"$1e"}]\n${textRow("1e", CSS)}f:["$","p",null,{"children":"a > b & c"}]\n`;
    const html = page(chunk(rows));
    const once = stylesheetOnce(html);

    expect(payload(once)).toBe(`0:{"t":["$","style","0",{"href":"/_next/static/chunks/a.css","children":"$2"}]}\n2:T0,e:["$","style","0",{"children":"$1e"}]\n1e:T0,f:["$","p",null,{"children":"a > b & c"}]\n`);
    // The head keeps the stylesheet; the page is smaller by the two copies.
    expect(once).toContain(`>${CSS}</style>`);
    expect(html.length - once.length).toBeGreaterThan(2 * CSS.length);
    // Still safe inside a script element.
    for (const script of once.matchAll(/<script[^>]*>(.*?)<\/script>/g)) expect(script[1]).not.toMatch(/[<>&]/);
  });

  it("leaves a page alone when no row is a whole copy", () => {
    // A copy split across two chunks, a different text, and no stylesheet at all.
    const row = textRow("2", CSS);
    const split = page(chunk(row.slice(0, 500)), chunk(row.slice(500)));
    expect(stylesheetOnce(split)).toBe(split);
    const other = page(chunk(textRow("2", `${CSS}.x{}`)));
    expect(stylesheetOnce(other)).toBe(other);
    const bare = `<html><head></head><body>${chunk(row)}</body></html>`;
    expect(stylesheetOnce(bare)).toBe(bare);
  });
});
