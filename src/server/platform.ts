import path from "node:path";
import { env, runMode } from "@/env";
import { createLocalAuth } from "@/server/adapters/local/local-auth";
import { loadSigningSecret } from "@/server/adapters/local/session-token";
import { createLocalStorage } from "@/server/adapters/local/local-storage";
import { createSupabaseAuth, supabaseServerClient } from "@/server/adapters/supabase/supabase-auth";
import { createSupabaseStorage } from "@/server/adapters/supabase/supabase-storage";
import type { ShopDatabase } from "@/server/db/database";
import type { AuthPort } from "@/server/ports/auth";
import type { CookieJar } from "@/server/ports/cookies";
import type { StoragePort } from "@/server/ports/storage";
import { newRequestLimits, RateLimiter, type RequestLimits } from "@/server/security/rate-limit";

/**
 * Builds the ports (ARCHITECTURE §3) for the configured run mode. The one place that chooses an
 * adapter: routers and pages get ports from here, through the tRPC context or a server helper.
 */

const FIFTEEN_MINUTES = 15 * 60_000;

interface ProcessState {
  secret?: Uint8Array;
  signInLimits: { byEmail: RateLimiter; byAddress: RateLimiter };
  requestLimits: RequestLimits;
}

const globalForPlatform = globalThis as unknown as { shopPlatform?: ProcessState };
const state: ProcessState = (globalForPlatform.shopPlatform ??= {
  // After 5 failed sign-ins for one email, or 20 from one address, in 15 minutes: wait.
  signInLimits: { byEmail: new RateLimiter(5, FIFTEEN_MINUTES), byAddress: new RateLimiter(20, FIFTEEN_MINUTES) },
  requestLimits: newRequestLimits(),
});

/** This process's sign-up, contact and checkout limits (one server process keeps them in memory). */
export function processRequestLimits(): RequestLimits {
  return (state.requestLimits ??= newRequestLimits());
}

export function localSigningSecret(): Uint8Array {
  return (state.secret ??= loadSigningSecret({ secret: env.AUTH_JWT_SECRET, dataDir: path.resolve(env.DATA_DIR) }));
}

/** Where the local adapter keeps uploaded files. */
export function localStorageRoot(dataDir: string = env.DATA_DIR): string {
  return path.resolve(dataDir, "storage");
}

export interface RequestPorts {
  auth: AuthPort;
  storage: StoragePort;
}

/** The ports for one request, in the configured run mode. */
export function portsFor(database: ShopDatabase, cookies: CookieJar, requestHeaders: Headers): RequestPorts {
  if (runMode() === "supabase") {
    const config = {
      url: env.NEXT_PUBLIC_SUPABASE_URL ?? "",
      anonKey: env.NEXT_PUBLIC_SUPABASE_ANON_KEY ?? "",
      serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
    };
    const client = supabaseServerClient(config, cookies);
    return {
      auth: createSupabaseAuth(config, cookies, client),
      storage: createSupabaseStorage({ url: config.url, client, serviceRoleKey: config.serviceRoleKey }),
    };
  }
  return {
    auth: createLocalAuth({
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
    }),
    storage: createLocalStorage(localStorageRoot(), database.kysely),
  };
}
