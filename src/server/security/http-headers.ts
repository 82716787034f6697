/**
 * The shop's HTTP hardening in one place: the Content-Security-Policy for pages (a fresh nonce
 * per request, set by the proxy), the headers every response carries (next.config.mjs), and the
 * same-origin rule for state-changing requests.
 */
import securityHeaders from "./security-headers.json";

/**
 * Scripts run only with this request's nonce ('strict-dynamic' lets Next's own loader add its
 * chunks); styles allow inline attributes (React's `style`); images, fetches and the live-update
 * stream stay on this origin, plus the Supabase project in Supabase mode. No framing, no plugins,
 * forms post only here and to PayFast's hosted payment page ("Pay now": its live and sandbox
 * hosts and the pages it hands over to, or PAYFAST_URL where that replaces them).
 */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean; supabaseUrl?: string; paymentPageUrl?: string }): string {
  const supabase = options.supabaseUrl ? new URL(options.supabaseUrl) : undefined;
  const supabaseHttp = supabase ? ` ${supabase.origin}` : "";
  const supabaseWs = supabase ? ` ${supabase.protocol === "https:" ? "wss:" : "ws:"}//${supabase.host}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data:${supabaseHttp}`,
    "font-src 'self'",
    `connect-src 'self'${supabaseHttp}${supabaseWs}${options.dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self' ${options.paymentPageUrl ? new URL(options.paymentPageUrl).origin : PAYFAST_FORM_ORIGINS}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Where PayFast's hosted page lives (www, sandbox) and where it hands the payment over to. */
const PAYFAST_FORM_ORIGINS = "https://www.payfast.co.za https://sandbox.payfast.co.za https://*.payfast.co.za https://*.payfast.io";

/** Sent with every response (next.config.mjs `headers()`; JSON so the config can read it as it is). */
export const SECURITY_HEADERS: { key: string; value: string }[] = securityHeaders;

/**
 * Whether a state-changing request comes from the shop's own pages. Browsers send `Origin` on
 * every POST and `Sec-Fetch-Site` on every request, so a cross-site form or fetch is refused
 * even where a cookie would ride along; clients that are not browsers send neither and are
 * judged by their credentials alone.
 */
export function isSameOriginRequest(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return false;
  const origin = headers.get("origin");
  if (origin === null) return true;
  if (origin === "null") return false;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
