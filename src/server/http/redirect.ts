import { env, type Env } from "@/env";

/**
 * A 303 See Other to a path on this site. The Location is relative (RFC 9110 §10.2.2), so the
 * browser stays on the host it used: behind a proxy, or reached by a name the server does not
 * know, Next.js's `request.nextUrl.origin` is the server's own (http://localhost:<port>), never
 * the shop's. `headers` carries what else the response sends (Set-Cookie).
 */
export function seeOther(path: string, headers?: Headers): Response {
  // Callers pass paths they built or checked; anything else would be an open redirect.
  if (!isSitePath(path)) throw new Error(`Refusing to redirect off the site: ${JSON.stringify(path.slice(0, 200))}`);
  const response = new Response(null, { status: 303, headers: { location: path, "cache-control": "no-store" } });
  for (const cookie of headers?.getSetCookie() ?? []) response.headers.append("set-cookie", cookie);
  return response;
}

/** A path on this site as browsers read a Location: not "//host" nor "/\host" (browsers read "\" as "/"), no control characters. */
function isSitePath(path: string): boolean {
  if (path[0] !== "/" || path[1] === "/" || path[1] === "\\" || /[\u0000-\u001f\u007f]/.test(path)) return false;
  const sentinel = "http://site.invalid";
  try {
    return new URL(path, sentinel).origin === sentinel;
  } catch {
    return false;
  }
}

type OriginConfig = Pick<Env, "SITE_URL" | "TRUST_PROXY">;

/** A request that says neither which host it was sent to nor where it came from, on a shop without SITE_URL. */
export class UnknownOriginError extends Error {
  constructor() {
    super("The shop's public address is unknown: set SITE_URL (e.g. https://shop.example.co.za).");
    this.name = "UnknownOriginError";
  }
}

/**
 * The shop's public origin, for the few absolute URLs that leave the site and must come back to
 * it (Google's and Supabase Auth's `redirectTo`, the confirmation mail's `emailRedirectTo`):
 * SITE_URL when set (set it in production: a confirmation mail may be asked for by anyone, for
 * anyone's address); else, only when TRUST_PROXY says a proxy in front sets them, the forwarded
 * host and protocol; else the Host this server was reached by directly (development, a server
 * without a proxy). Never the server's own idea of its address.
 */
export function publicOrigin(headers: Headers, config: OriginConfig = env): string {
  if (config.SITE_URL) {
    const site = URL.parse(config.SITE_URL);
    if (site?.protocol !== "http:" && site?.protocol !== "https:") throw new Error("SITE_URL must be the shop's http(s) address, e.g. https://shop.example.co.za.");
    return site.origin;
  }
  const host = headers.get("host");
  const sentOrigin = parseOrigin(headers.get("origin"));
  if (config.TRUST_PROXY) {
    const forwardedHost = lastHop(headers.get("x-forwarded-host")) ?? host;
    const forwardedProto = lastHop(headers.get("x-forwarded-proto"));
    const forwarded = forwardedHost ? originOf(forwardedProto === "https" ? "https" : "http", forwardedHost) : null;
    if (forwarded) return forwarded;
  }
  if (host) {
    // The browser knows whether it spoke TLS (a server that terminates it itself); Origin says so on POSTs.
    const sent = sentOrigin ? new URL(sentOrigin) : null;
    const direct = originOf(sent && sent.host === host.toLowerCase() ? sent.protocol.slice(0, -1) : "http", host);
    if (direct) return direct;
  }
  // A request without Host (not a browser's): what it said it came from, if that is a web origin.
  if (sentOrigin) return sentOrigin;
  throw new UnknownOriginError();
}

/** The value a trusted proxy appended last (earlier ones are what the client claimed). */
function lastHop(value: string | null): string | null {
  const hops = (value ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  return hops.at(-1) ?? null;
}

/** `protocol://host` when `host` is a bare host[:port], nothing more (no path, user or spaces). */
function originOf(protocol: string, host: string): string | null {
  if (protocol !== "http" && protocol !== "https") return null;
  if (!/^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

function parseOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}
