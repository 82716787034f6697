/**
 * A kept page's own scripts are fetched after its first screen is painted, not beside it.
 *
 * Next.js names each page's script chunks in its HTML as `<script src async>` (and preloads
 * one): the browser fetches them at once and runs each as soon as it arrives, wherever the
 * parser and the first frame are. Where the chunks come quickly (a cached visit, a fast link)
 * they run before the first frame, which then waits for React and Next.js to evaluate: on a
 * phone's CPU that is the difference between the text at once and a blank screen for a moment
 * longer. Lighthouse counts it the same way: its mobile LCP estimate adds every script that
 * arrived, or ran, before the observed largest paint (BENCHMARKS.md, issue 28).
 *
 * So a kept page (./kept-store.ts keeps the result) names its chunks in one small inline script
 * instead, which adds them, as the same `<script src async>`, once the first screen is shown:
 * the browser has reported the first contentful paint (Paint Timing) and the pictures then in
 * view (a product's, the first cards') have loaded and been reported painted as the largest
 * paint, or SETTLE_MS has passed since they loaded. On a slow link the first screen's pictures
 * so come before the scripts, not beside them; React hydrates once they are shown. Where no
 * report can come (a page loaded hidden, a browser without Paint Timing) the chunks are added
 * at once; after FALLBACK_MS whatever happens.
 * Nothing else changes: the same chunks, still async, found by React and the bundler's runtime
 * as before (the `async` attribute is set, which is what React looks them up by), and the
 * inline script carries the page's nonce like Next.js's own, so the kept page's nonce swap
 * (./responses.ts) covers it and 'strict-dynamic' trusts the scripts it adds.
 */

/** Where Next.js serves its build's scripts from. */
const STATIC_PREFIX = "/_next/static/";

/** The chunks are added after this long even if no paint has been reported. */
export const FALLBACK_MS = 3000;

/**
 * After the first screen's pictures have loaded, how long the loader waits for the browser to
 * report them painted as the largest paint before it adds the chunks anyway (a picture smaller
 * than the text already shown is never reported).
 */
export const SETTLE_MS = 100;

/** The inline loader's id, for tests and for a reader of the page's source. */
export const LOADER_ID = "scripts-after-first-paint";

const tagPattern = /<(script|link)\b([^>]*?)\/?>(?:<\/script>)?/gi;
const attributePattern = /([^\s=]+)(?:="([^"]*)")?/g;

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value] of text.matchAll(attributePattern)) attributes.set(name!.toLowerCase(), value ?? "");
  return attributes;
}

/** An async script of the build's own: what Next.js renders for a page's chunks. */
function deferredSource(tag: string, attributes: Map<string, string>): string | null {
  if (tag !== "script") return null;
  const src = attributes.get("src");
  if (!src?.startsWith(STATIC_PREFIX) || !attributes.has("async")) return null;
  if (attributes.has("nomodule") || (attributes.has("type") && attributes.get("type") !== "text/javascript")) return null;
  return src;
}

function loader(sources: string[], nonce: string | null): string {
  // `<` escaped: a source cannot end the script early.
  const list = JSON.stringify(sources).replaceAll("<", "\\u003c");
  const code = `(function(){
var sources=${list},started=false,nonce=document.currentScript.nonce;
function start(){if(started)return;started=true;sources.forEach(function(src){
var script=document.createElement("script");script.src=src;script.async=true;script.setAttribute("async","");script.nonce=nonce;document.head.appendChild(script);});}
var types=(window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes)||[];
function observe(type,callback){new PerformanceObserver(function(list){callback(list.getEntries());}).observe({type:type,buffered:true});}
function inView(img){if(img.complete)return false;var box=img.getBoundingClientRect();
return box.width>0&&box.height>0&&box.bottom>0&&box.right>0&&innerHeight>box.top&&innerWidth>box.left;}
function afterPictures(){var pictures=[].filter.call(document.images,inView),left=pictures.length,loadedAt=Infinity;if(left===0)return start();
if(types.indexOf("largest-contentful-paint")!==-1)observe("largest-contentful-paint",function(entries){if(entries.some(function(entry){return entry.startTime>=loadedAt;}))start();});
function loaded(){if(--left!==0)return;loadedAt=performance.now();setTimeout(start,${SETTLE_MS});}
pictures.forEach(function(img){img.addEventListener("load",loaded);img.addEventListener("error",loaded);});}
if(document.visibilityState!=="visible"||types.indexOf("paint")===-1)return start();
var painted=false;
observe("paint",function(entries){if(painted)return;if(entries.some(function(entry){return entry.name==="first-contentful-paint";})){painted=true;afterPictures();}});
document.addEventListener("visibilitychange",start);
setTimeout(start,${FALLBACK_MS});
})();`;
  return `<script id="${LOADER_ID}"${nonce ? ` nonce="${nonce}"` : ""}>${code.replaceAll("\n", "")}</script>`;
}

/**
 * The page's HTML with its own async chunks fetched after the first paint (see above), or the
 * HTML as it was when it names none or has no head. `nonce` is the one the page was rendered
 * with (the loader needs it to run under the page's policy).
 */
export function scriptsAfterFirstPaint(html: string, nonce: string | null): string {
  if (!html.includes("</head>")) return html;
  const sources: string[] = [];
  for (const [, tag, text] of html.matchAll(tagPattern)) {
    const source = deferredSource(tag!.toLowerCase(), attributesOf(text!));
    if (source && !sources.includes(source)) sources.push(source);
  }
  if (sources.length === 0) return html;
  const deferred = new Set(sources);
  const withoutTags = html.replace(tagPattern, (whole, tag: string, text: string) => {
    const attributes = attributesOf(text);
    if (deferredSource(tag.toLowerCase(), attributes)) return "";
    // Next.js's own preload of a chunk would fetch it before the paint all the same.
    const isScriptPreload = tag.toLowerCase() === "link" && attributes.get("rel") === "preload" && attributes.get("as") === "script";
    return isScriptPreload && deferred.has(attributes.get("href") ?? "") ? "" : whole;
  });
  const at = withoutTags.indexOf("</head>");
  return `${withoutTags.slice(0, at)}${loader(sources, nonce)}${withoutTags.slice(at)}`;
}
