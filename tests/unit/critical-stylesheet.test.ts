/**
 * A kept page's head keeps the rules its markup uses, and the whole stylesheet follows at the end
 * of the body (src/server/kept-pages/critical-stylesheet.ts). What a phone then shows is checked
 * in a browser (tests/e2e/phone.spec.ts, "the first screen").
 */
import { describe, expect, it } from "vitest";
import { cartBadgeDisplay, VIEWER_SLOTS } from "@/lib/page-viewer";
import { criticalStylesheet, matchableSelector, WHOLE_STYLESHEET_ATTRIBUTE } from "@/server/kept-pages/critical-stylesheet";

const HREF = "/_next/static/chunks/app.css";
/** Rules in Tailwind 4's shape: layers declared in order, `:where()` spacing, escaped variants. */
const CSS = [
  "@layer theme,base,components,utilities;",
  "@property --tw-shadow{syntax:\"*\";inherits:false;initial-value:0 0 #0000}",
  "@layer theme{:root,:host{--color-brand:#0f5e57}}",
  "@layer base{*,:before,:after{box-sizing:border-box}body{margin:0}}",
  "@layer utilities{.used{color:red}.unused{color:blue}:where(.space-y-4>:not(:last-child)){margin-block-end:1rem}:where(.space-y-9>:not(:last-child)){margin-block-end:9rem}.sm\\:px-4{padding-inline:1rem}.hover\\:underline:hover{text-decoration:underline}.peer:checked~.peer-checked\\:block{display:block}.animate-pulse{animation:pulse 2s infinite}.spin{animation:spin 1s infinite}}",
  "@keyframes pulse{50%{opacity:.5}}@keyframes spin{to{rotate:1turn}}",
  "@media (min-width:40rem){.sm\\:px-4{padding-inline:2rem}.md\\:unused{color:green}}",
  `/* ${"padding ".repeat(600)} */`,
].join("");

const NONCE = "bm9uY2U=";
const page = (body: string, css = CSS) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"/><style data-precedence="next" data-href="${HREF}">${css}</style></head><body>${body}<script nonce="${NONCE}">self.__next_f.push([1,"<div class=\\"unused\\">"])</script></body></html>`;
const MARKUP = `<main class="space-y-4"><p class="used sm:px-4 hover:underline">a</p><input class="peer" type="checkbox"/><span class="peer-checked:block">b</span><i class="animate-pulse"></i></main>`;
const headCss = (html: string) => html.match(/<style data-precedence="next" data-href="[^"]+">([\s\S]*?)<\/style>/)![1]!;

describe("criticalStylesheet", () => {
  it("keeps the rules the markup uses, in their layers, and links the whole stylesheet after the body", async () => {
    const html = page(MARKUP);
    const cut = await criticalStylesheet(html, NONCE);
    const css = headCss(cut);

    for (const kept of [".used", ".space-y-4", ".sm\\:px-4", ".hover\\:underline", ".peer-checked\\:block", "@keyframes pulse", "@property --tw-shadow", "--color-brand", "box-sizing"]) expect(css, kept).toContain(kept);
    // Only the text in a script names `.unused`: no element has it.
    for (const dropped of [".unused", ".md\\:unused", ".space-y-9", "@keyframes spin", "padding padding"]) expect(css, dropped).not.toContain(dropped);
    // The layers keep their declared order (a later stylesheet must not reorder them).
    expect(css.indexOf("@layer theme,base,components,utilities")).toBe(0);
    expect(css.length).toBeLessThan(CSS.length / 2);

    // Everything but the head's rules is as it was, and the whole stylesheet follows the body's content.
    const whole = `<link rel="stylesheet" href="${HREF}" media="print" ${WHOLE_STYLESHEET_ATTRIBUTE}/>`;
    expect(cut.replace(css, CSS).replace(/<link rel="stylesheet"[\s\S]*<\/noscript>/, "")).toBe(html);
    expect(cut).toContain(`${whole}<script nonce="${NONCE}">`);
    expect(cut).toMatch(new RegExp(`<noscript><link rel="stylesheet" href="${HREF}"/></noscript></body></html>$`));
  });

  it("keeps, in a role's template, the rules of every class a response may put in a class slot", async () => {
    const badge = `<span class="${VIEWER_SLOTS.cartDisplay} used">${VIEWER_SLOTS.cartCount}</span>`;
    const css = `${CSS}@layer utilities{.hidden{display:none}.inline-flex{display:inline-flex}.flex{display:flex}}`;
    const cut = headCss(await criticalStylesheet(page(badge, css), NONCE));
    expect(cut).toContain(`.${cartBadgeDisplay(0)}{`);
    expect(cut).toContain(`.${cartBadgeDisplay(1)}{`);
    expect(cut).not.toContain(".flex{");
  });

  it("leaves a page alone without a stylesheet worth cutting, a nonce, or a body", async () => {
    const small = page(MARKUP, ".used{color:red}");
    expect(await criticalStylesheet(small, NONCE)).toBe(small);
    const html = page(MARKUP);
    expect(await criticalStylesheet(html, null)).toBe(html);
    const open = html.replace("</body></html>", "");
    expect(await criticalStylesheet(open, NONCE)).toBe(open);
    const none = `<html><head></head><body>${MARKUP}</body></html>`;
    expect(await criticalStylesheet(none, NONCE)).toBe(none);
  });
});

describe("matchableSelector", () => {
  it("looks for the elements a rule styles, in any state", () => {
    const cases: [string, string][] = [
      [":where(.space-y-4>:not(:last-child))", ":is(.space-y-4> *)"],
      [".hover\\:bg-brand:hover", ".hover\\:bg-brand"],
      [".group:hover .group-hover\\:text-brand", ".group .group-hover\\:text-brand"],
      [".peer:checked~.peer-checked\\:block", ".peer~.peer-checked\\:block"],
      [".a::before", ".a"],
      ["::backdrop", "*"],
      [":is(.a,.b>:not(.c,.d))", ":is(.a,.b> *)"],
      [".x:has(>img)", ".x"],
      [".x:nth-child(2n+1)>.y", ".x>.y"],
      ['[data-x="a:b(c"]:focus', '[data-x="a:b(c"]'],
      [".\\[overflow-wrap\\:anywhere\\]", ".\\[overflow-wrap\\:anywhere\\]"],
      ["input::-webkit-datetime-edit-year-field", "input"],
      ["*,:before", "*,*"],
    ];
    for (const [selector, matchable] of cases) expect(matchableSelector(selector), selector).toBe(matchable);
  });
});
