import path from "node:path";
import { env } from "@/env";
import { loadSigningSecret } from "./adapters/local/session-token";

const SECRET_KEY = Symbol.for("our-world-shop.signing-secret");
const globalForSecret = globalThis as typeof globalThis & { [SECRET_KEY]?: Uint8Array };

/** The local modes' session signing secret (read or generated once per process). */
export function localSigningSecret(): Uint8Array {
  return (globalForSecret[SECRET_KEY] ??= loadSigningSecret({ secret: env.AUTH_JWT_SECRET, dataDir: path.resolve(env.DATA_DIR) }));
}

/** Supabase mode's project settings. */
export function supabaseConfig() {
  return { url: env.NEXT_PUBLIC_SUPABASE_URL ?? "", anonKey: env.NEXT_PUBLIC_SUPABASE_ANON_KEY ?? "", serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY };
}
