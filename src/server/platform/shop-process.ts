import path from "node:path";
import { env, runMode, type RunMode } from "@/env";
import { sessionUsersFor, type SessionUsers } from "@/server/auth/session-user";
import { catalogueFor, type Catalogue } from "@/server/catalogue/catalogue";
import type { OnlinePayments } from "@/server/payments/online-payments";
import { paymentSettingsFor } from "@/server/payments/payment-settings";
import { whatsappSwitchFor, type WhatsAppEnvironment, type WhatsAppSwitch } from "@/server/messaging/whatsapp-settings";
import { shopSettingsFor, type ShopSettings } from "@/server/settings/shop-settings";
import { startDatabase } from "@/server/db";
import type { ShopDatabase } from "@/server/db/database";
import type { MailTransport } from "@/server/ports/mail";
import { localFileUrl, type PublicUrl } from "@/server/ports/storage";
import { newRequestLimits, newSignInLimits, type RequestLimits, type SignInLimits } from "@/server/security/rate-limit";
import type { GoogleClient } from "./adapters/local/local-auth";
import { sweepUnclaimedUploads } from "./adapters/local/local-storage";
import { sessionCacheFor, type SessionCache } from "./adapters/local/session-cache";
import { createMailTransport } from "./adapters/mail/transport";
import { whatsappEnvironmentFrom } from "./adapters/whatsapp/cloud-api";
import { createPayFast, PAYFAST_ITN_SOURCES } from "./adapters/payfast/payfast";
import { supabasePublicUrl } from "./adapters/supabase/supabase-storage";
import { localSigningSecret, supabaseConfig } from "./process-config";

/** The run mode's settings the adapters are built from (read from the environment once). */
export interface PlatformConfig {
  mode: RunMode;
  /** A production server (NODE_ENV): Secure cookies, and the demo bank account takes no orders. */
  production: boolean;
  /** Where local storage keeps uploaded files. */
  storageRoot: string;
  /** The local modes' session signing secret (read or generated on first use). */
  signingSecret: () => Uint8Array;
  google?: GoogleClient;
  supabase: { url: string; anonKey: string; serviceRoleKey?: string };
  mail: MailTransport;
  /** WHATSAPP_* (docs/whatsapp.md): in force while Shop settings hold none; their API address and version always. */
  whatsapp?: WhatsAppEnvironment;
  /** How the server reaches other services (Google's token endpoint); the global fetch unless a test gives its own. */
  fetch?: typeof fetch;
  /** PAYFAST_URL (unset: PayFast's live or sandbox system, as Shop settings say) and PAYFAST_ITN_SOURCES (unset: PayFast's published ranges). */
  payfast?: { url?: string; itnSources?: string[] };
  /** Whether SITE_URL is set to an https:// address (the go-live checklist; the value itself stays on the server). */
  siteUrlIsHttps?: boolean;
}

/**
 * What one server process holds for all its requests (docs/architecture.md#ports-and-the-platform, #caches-and-several-processes): its database, the
 * caches every request shares, and the limits counted in the database. Opened once per process;
 * tests build their own with `openShopProcess`.
 */
export interface ShopProcess {
  config: PlatformConfig;
  database: ShopDatabase;
  catalogue: Catalogue;
  /** The shop's published settings, kept and dropped on every change. */
  settings: ShopSettings;
  sessionUsers: SessionUsers;
  /** The local sessions checked lately (local modes; none without notifications). */
  sessions: SessionCache | undefined;
  limits: RequestLimits;
  signInLimits: SignInLimits;
  /** A public file's URL in this run mode. */
  publicUrl: PublicUrl;
  /** The online payment provider (PayFast) and its credentials from Shop settings. */
  payments: OnlinePayments;
  /** WhatsApp's settings in force: Shop settings, else WHATSAPP_* (kept, dropped on change). */
  whatsapp: WhatsAppSwitch;
}

/** Where the local adapter keeps uploaded files. */
export function localStorageRoot(dataDir: string = env.DATA_DIR): string {
  return path.resolve(dataDir, "storage");
}

/** The configuration of this process, from the validated environment. */
export function platformConfigFromEnv(): PlatformConfig {
  return {
    mode: runMode(),
    production: env.NODE_ENV === "production",
    storageRoot: localStorageRoot(),
    signingSecret: localSigningSecret,
    google: env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET } : undefined,
    supabase: supabaseConfig(),
    mail: createMailTransport(env),
    whatsapp: whatsappEnvironmentFrom(env),
    payfast: { url: env.PAYFAST_URL, itnSources: env.PAYFAST_ITN_SOURCES },
    siteUrlIsHttps: URL.parse(env.SITE_URL ?? "")?.protocol === "https:",
  };
}

/** A public file's URL: `/files/...` locally, Supabase Storage's public URL there. */
export function publicUrlFor(config: Pick<PlatformConfig, "mode" | "supabase">): PublicUrl {
  return config.mode === "supabase" ? (object) => supabasePublicUrl(config.supabase.url, object) : localFileUrl;
}

/**
 * A process's shared parts over an open database. The caches listen for the database's change
 * notifications from here on, before they keep anything. `parts` replaces some (tests: limits of
 * their own, no kept sessions or profiles).
 */
export async function openShopProcess(
  config: PlatformConfig,
  database: ShopDatabase,
  parts: Partial<Pick<ShopProcess, "limits" | "signInLimits" | "sessionUsers" | "sessions">> = {},
): Promise<ShopProcess> {
  const publicUrl = publicUrlFor(config);
  return {
    config,
    database,
    catalogue: await catalogueFor(database, publicUrl),
    settings: await shopSettingsFor(database),
    sessionUsers: parts.sessionUsers ?? (await sessionUsersFor(database)),
    sessions: "sessions" in parts || config.mode === "supabase" ? parts.sessions : await sessionCacheFor(database),
    limits: parts.limits ?? newRequestLimits(),
    signInLimits: parts.signInLimits ?? newSignInLimits(),
    publicUrl,
    payments: {
      provider: createPayFast({ url: config.payfast?.url, itnSources: config.payfast?.itnSources ?? PAYFAST_ITN_SOURCES, fetch: config.fetch }),
      settings: await paymentSettingsFor(database),
    },
    whatsapp: await whatsappSwitchFor(database, config.whatsapp),
  };
}

const STATE_KEY = Symbol.for("our-world-shop.platform");
const globalForPlatform = globalThis as typeof globalThis & { [STATE_KEY]?: { process?: Promise<ShopProcess> } };
const state = (globalForPlatform[STATE_KEY] ??= {});

/**
 * This server process's shared parts, opened on first use (the database migrated and seeded in
 * the local modes) and awaited by every request. Kept on globalThis so dev-mode hot reloads and
 * the proxy's separate bundle reuse them instead of opening a second PGlite. A failure is not
 * kept: the next request tries again.
 */
export function getShopProcess(): Promise<ShopProcess> {
  state.process ??= (async () => {
    const config = platformConfigFromEnv();
    const database = await startDatabase();
    if (config.mode !== "supabase") {
      // Local storage lives on this server's disk, so no upload is in flight before the first
      // request is answered: what a crash left of one (a proof no order claims, a file without
      // its row) goes now, before any request can start another.
      const swept = await sweepUnclaimedUploads(config.storageRoot, database.kysely, new Date());
      if (swept.rows > 0 || swept.files > 0) {
        console.info(`[storage] removed ${swept.rows} unclaimed upload(s) and ${swept.files} file(s) left by interrupted requests`);
      }
    }
    return openShopProcess(config, database);
  })().catch((error: unknown) => {
    state.process = undefined;
    throw error;
  });
  return state.process;
}
