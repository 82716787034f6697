/**
 * The catalogue's public API answers, kept like the visitors' pages (./visitor-pages.ts) and
 * dropped with them on every catalogue change: `GET /api/trpc/catalogue.list?input=…` is the same
 * for every caller (the procedures read the shared catalogue as `anon`), and answering it from
 * the proxy spares Next's route handler, tRPC and superjson (~3 ms of CPU a call in a profile).
 *
 * Only callers without a session (a signed-in caller's answer may renew their cookie), only the
 * catalogue's queries (never a batch with anything else), never a search (the catalogue does not
 * cache those either), and only 200 JSON answers without cookies are kept.
 */
import { hasSessionCookie, keptPage, FILL_HEADER, type StoredPage } from "./visitor-pages";

const CATALOGUE_QUERIES = new Set(["catalogue.list", "catalogue.categories", "catalogue.byId", "catalogue.related"]);
const PREFIX = "/api/trpc/";
/** Longer URLs are not the shop's own calls. */
const MAX_URL_LENGTH = 500;

/** The kept-answer key of this request, or null where it is answered as usual. */
export function keptAnswerKey(request: { method: string; url: string; headers: Headers }): string | null {
  if (request.method !== "GET" || request.headers.has(FILL_HEADER) || hasSessionCookie(request.headers)) return null;
  const url = new URL(request.url);
  if (!url.pathname.startsWith(PREFIX) || url.pathname.length + url.search.length > MAX_URL_LENGTH) return null;
  const procedures = decodeURIComponent(url.pathname.slice(PREFIX.length)).split(",");
  if (!procedures.every((procedure) => CATALOGUE_QUERIES.has(procedure))) return null;
  for (const name of url.searchParams.keys()) if (name !== "input" && name !== "batch") return null;
  if (searches(url.searchParams.get("input"))) return null;
  return `${url.pathname}${url.search}`;
}

/** Whether any input of the call (one, or a batch's) is a search. */
function searches(input: string | null): boolean {
  if (input === null) return false;
  try {
    const parsed = JSON.parse(input) as unknown;
    const inputs = typeof parsed === "object" && parsed !== null && !("json" in parsed) ? Object.values(parsed) : [parsed];
    return inputs.some((each) => {
      const json = typeof each === "object" && each !== null && "json" in each ? (each as { json: unknown }).json : undefined;
      return typeof json === "object" && json !== null && "search" in json && Boolean((json as { search: unknown }).search);
    });
  } catch {
    // Not an input tRPC can read: it answers 400 itself, which is not kept.
    return false;
  }
}

/** The kept (or freshly filled) answer for `key`, or null: answer the call as usual. */
export function keptAnswer(key: string, origin: string): Promise<StoredPage | null> {
  return keptPage(key, origin, "answer");
}

/** A kept answer as this request's response. */
export function replayAnswer(answer: StoredPage): Response {
  return new Response(answer.body, { status: answer.status, headers: new Headers(answer.headers) });
}
