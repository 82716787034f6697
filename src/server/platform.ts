import path from "node:path";
import { env, runMode } from "@/env";
import { createLocalAuth } from "@/server/adapters/local/local-auth";
import { loadSigningSecret } from "@/server/adapters/local/session-token";
import { createSupabaseAuth } from "@/server/adapters/supabase/supabase-auth";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthPort } from "@/server/ports/auth";
import type { CookieJar } from "@/server/ports/cookies";
import { RateLimiter } from "@/server/security/rate-limit";

/**
 * Builds the ports (ARCHITECTURE §3) for the configured run mode. The one place that chooses an
 * adapter: routers and pages get ports from here, through the tRPC context or a server helper.
 */

const FIFTEEN_MINUTES = 15 * 60_000;

interface ProcessState {
  secret?: Uint8Array;
  signInLimits: { byEmail: RateLimiter; byAddress: RateLimiter };
}

const globalForPlatform = globalThis as unknown as { shopPlatform?: ProcessState };
const state: ProcessState = (globalForPlatform.shopPlatform ??= {
  // After 5 failed sign-ins for one email, or 20 from one address, in 15 minutes: wait.
  signInLimits: { byEmail: new RateLimiter(5, FIFTEEN_MINUTES), byAddress: new RateLimiter(20, FIFTEEN_MINUTES) },
});

export function localSigningSecret(): Uint8Array {
  return (state.secret ??= loadSigningSecret({ secret: env.AUTH_JWT_SECRET, dataDir: path.resolve(env.DATA_DIR) }));
}

/** The auth port for one request. */
export function authFor(database: ShopDatabase, cookies: CookieJar, requestHeaders: Headers): AuthPort {
  if (runMode() === "supabase") {
    return createSupabaseAuth(
      {
        url: env.NEXT_PUBLIC_SUPABASE_URL ?? "",
        anonKey: env.NEXT_PUBLIC_SUPABASE_ANON_KEY ?? "",
        serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
      },
      cookies,
    );
  }
  return createLocalAuth({
    db: database.kysely,
    cookies,
    requestHeaders,
    secret: localSigningSecret(),
    secureCookies: env.NODE_ENV === "production",
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }
        : undefined,
    signInLimits: state.signInLimits,
  });
}
