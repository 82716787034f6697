import { jwtVerify, SignJWT, type JWTPayload } from "jose";

/**
 * The project's JWT secret, as `supabase start` uses one: access tokens, the anon and
 * service_role keys and signed-URL tokens are all HS256 with it. (auth-js's getClaims() then
 * asks Auth's /user to vouch for a token, which is what the shop's server does on a local stack.)
 */
export interface JwtKeys {
  secret: Uint8Array;
  anonKey: string;
  serviceRoleKey: string;
}

/** Claims of a Supabase access token or API key (the fields the fake reads). */
export interface SupabaseClaims extends JWTPayload {
  role?: string;
  email?: string;
  session_id?: string;
  is_anonymous?: boolean;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
}

export async function signJwt(secret: Uint8Array, claims: Record<string, unknown>, expiresInSeconds?: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuedAt(now);
  if (expiresInSeconds !== undefined) jwt.setExpirationTime(now + expiresInSeconds);
  return jwt.sign(secret);
}

/** The claims of a valid token, or null (bad signature, expired, not a JWT). */
export async function verifyJwt(secret: Uint8Array, token: string): Promise<SupabaseClaims | null> {
  try {
    const { payload } = await jwtVerify<SupabaseClaims>(token, secret, { algorithms: ["HS256"] });
    return payload;
  } catch {
    return null;
  }
}

/** The anon and service_role keys `supabase start` prints: long-lived JWTs naming the role. */
export async function apiKeys(secret: Uint8Array): Promise<JwtKeys> {
  const tenYears = 10 * 365 * 24 * 3600;
  return {
    secret,
    anonKey: await signJwt(secret, { iss: "supabase-demo", role: "anon" }, tenYears),
    serviceRoleKey: await signJwt(secret, { iss: "supabase-demo", role: "service_role" }, tenYears),
  };
}

/** The bearer token of a request, if any. */
export function bearer(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return match?.[1];
}
