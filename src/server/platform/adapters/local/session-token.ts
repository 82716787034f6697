import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { LOCAL_SESSION_COOKIE } from "@/server/ports/cookies";

/** The local session cookie: a Supabase-shaped JWT, httpOnly. */
export const SESSION_COOKIE = LOCAL_SESSION_COOKIE;
/** A session token lives this long, renewed while in use... */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** ...once it is older than this... */
export const SESSION_RENEW_AFTER_SECONDS = 24 * 3600;
/** ...and never beyond this from sign-in. */
export const SESSION_MAX_SECONDS = 30 * 24 * 3600;

const ISSUER = "our-world-shop/local-auth";
const AUDIENCE = "authenticated";

/**
 * The signing secret: AUTH_JWT_SECRET when set (32+ characters), otherwise one generated on
 * first use into the data directory (never committed; .data/ is git-ignored).
 */
export function loadSigningSecret(config: { secret?: string; dataDir: string }): Uint8Array {
  if (config.secret) {
    if (config.secret.length < 32) throw new Error("AUTH_JWT_SECRET must be at least 32 characters long.");
    return new TextEncoder().encode(config.secret);
  }
  const file = path.join(config.dataDir, "auth-secret");
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(48).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
}

export interface SessionClaims {
  sub: string;
  email: string | null;
  session_id: string;
  user_metadata: Record<string, unknown>;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  /** When the session itself ends (seconds since the epoch). */
  not_after: number;
}

export async function signSessionToken(
  secret: Uint8Array,
  session: { userId: string; email: string | null; sessionId: string; userMetadata: Record<string, unknown>; notAfter: number },
  now = Math.floor(Date.now() / 1000),
): Promise<{ token: string; maxAge: number }> {
  const exp = Math.min(now + SESSION_TTL_SECONDS, session.notAfter);
  const token = await new SignJWT({
    email: session.email,
    role: "authenticated",
    session_id: session.sessionId,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: session.userMetadata,
    is_anonymous: false,
    not_after: session.notAfter,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(session.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .sign(secret);
  return { token, maxAge: Math.max(exp - now, 0) };
}

/** How many verified tokens are remembered (a few kB each at most; the oldest go first). */
const VERIFIED_TOKENS = 2_000;

/**
 * Tokens this process has verified, with their claims. Checking the signature through WebCrypto
 * took ~9 % of a signed-in page's CPU in a profile (twice per page: the proxy and the page), and
 * a token's signature never changes: the same bytes verified once against the same secret are
 * valid until they expire, which is checked again on every use. Only valid tokens are kept, so a
 * stream of forged ones cannot fill this.
 */
const verified = new Map<string, { secret: Uint8Array; claims: SessionClaims }>();

function sameSecret(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && a.every((byte, i) => byte === b[i]));
}

/** The claims of a valid, unexpired token signed with `secret`; null for anything else. */
export async function verifySessionToken(secret: Uint8Array, token: string | undefined): Promise<SessionClaims | null> {
  if (!token || token.length > 4096) return null;
  const known = verified.get(token);
  if (known && sameSecret(known.secret, secret)) return known.claims.exp > Date.now() / 1000 ? known.claims : null;
  const claims = await verifyUncached(secret, token);
  if (claims) {
    if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret, claims });
  }
  return claims;
}

async function verifyUncached(secret: Uint8Array, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || typeof payload.session_id !== "string") return null;
    if (typeof payload.iat !== "number" || typeof payload.exp !== "number") return null;
    return {
      sub: payload.sub,
      email: typeof payload.email === "string" ? payload.email : null,
      session_id: payload.session_id,
      user_metadata: (payload.user_metadata ?? {}) as Record<string, unknown>,
      iat: payload.iat,
      exp: payload.exp,
      not_after: typeof payload.not_after === "number" ? payload.not_after : payload.exp,
    };
  } catch {
    return null;
  }
}

/** Whether a token in use should be re-issued with a fresh expiry. */
export function needsRenewal(claims: SessionClaims, now = Math.floor(Date.now() / 1000)): boolean {
  return now - claims.iat > SESSION_RENEW_AFTER_SECONDS && claims.exp < claims.not_after;
}
