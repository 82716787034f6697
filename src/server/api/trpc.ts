import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { messages } from "@/lib/messages";
import { loadSessionUser, type SessionUser } from "@/server/auth/session-user";
import { directCatalogueReads, type CatalogueReads } from "@/server/catalogue/catalogue-reads";
import { ANON, scopedDb, type DbIdentity, type ScopedDb } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import { getDatabase } from "@/server/db";
import { isDatabaseUnavailable } from "@/server/db/sql-errors";
import { portsFor, processRequestLimits, type RequestPorts } from "@/server/platform";
import type { AuthPort } from "@/server/ports/auth";
import type { CookieJar } from "@/server/ports/cookies";
import type { StoragePort } from "@/server/ports/storage";
import { clientAddress, type RateLimiter, type RequestLimits } from "@/server/security/rate-limit";

export type { SessionUser } from "@/server/auth/session-user";

export interface TRPCContext {
  headers: Headers;
  /** The caller, resolved and verified on the server; null for a visitor. */
  user: SessionUser | null;
  /** The database, already running as the caller: RLS applies to everything done through it. */
  db: ScopedDb;
  auth: AuthPort;
  storage: StoragePort;
  /** The privileged handle, for the few server tasks that need it (never for a caller's own reads or writes). */
  database: ShopDatabase;
  /** Rate limits for sign-up, contact and checkout (the process's own; tests bring fresh ones). */
  limits: RequestLimits;
  /** The catalogue's reads: the shared cache over HTTP, the database directly elsewhere. */
  catalogue: CatalogueReads;
}

/** Builds a context from its parts; used by the HTTP handler, the RSC caller and the tests. */
export function createContextFor(parts: {
  database: ShopDatabase;
  user: SessionUser | null;
  auth: AuthPort;
  storage: StoragePort;
  headers?: Headers;
  limits: RequestLimits;
  catalogue?: CatalogueReads;
}): TRPCContext {
  const identity: DbIdentity = parts.user ? { kind: "user", id: parts.user.id, email: parts.user.email } : ANON;
  const db = scopedDb(parts.database.kysely, identity);
  return {
    headers: parts.headers ?? new Headers(),
    user: parts.user,
    db,
    catalogue: parts.catalogue ?? directCatalogueReads(db),
    auth: parts.auth,
    storage: parts.storage,
    database: parts.database,
    limits: parts.limits,
  };
}

/** Resolves the caller of one request from its cookies. */
export async function resolveContext(
  database: ShopDatabase,
  ports: RequestPorts,
  headers: Headers,
  limits: RequestLimits,
  catalogue?: CatalogueReads,
): Promise<TRPCContext> {
  const authUser = await ports.auth.currentUser();
  const user = authUser ? await loadSessionUser(database, authUser) : null;
  return createContextFor({ database, user, ...ports, headers, limits, catalogue });
}

export async function createTRPCContext(opts: { headers: Headers; cookies: CookieJar }): Promise<TRPCContext> {
  try {
    const database = await getDatabase();
    // Loaded here, not at the top: the cache needs Next's server runtime, which tests don't have.
    const { cachedCatalogueReads } = await import("@/server/catalogue/cached-catalogue");
    const ports = portsFor(database, opts.cookies, opts.headers);
    return await resolveContext(database, ports, opts.headers, processRequestLimits(), cachedCatalogueReads);
  } catch (error) {
    throw unavailableOr(error);
  }
}

/** A database that cannot be reached becomes "try again in a moment" (503); anything else stays as it is. */
function unavailableOr(error: unknown): unknown {
  return isDatabaseUnavailable(error) ? new TRPCError({ code: "SERVICE_UNAVAILABLE", message: messages.unavailable, cause: error }) : error;
}

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      data: {
        ...shape.data,
        zodError: error.cause instanceof ZodError ? error.cause.flatten() : null,
      },
    };
  },
});

export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;

/**
 * A refused input answers with the first problem's own message (the same text the form shows),
 * not zod's issue list; the full list stays in `data.zodError`.
 */
const readableValidationErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "BAD_REQUEST" && result.error.cause instanceof ZodError) {
    const message = result.error.cause.issues[0]?.message ?? "Invalid input.";
    return { ...result, error: new TRPCError({ code: "BAD_REQUEST", message, cause: result.error.cause }) };
  }
  return result;
});

/** Whatever a procedure made of the failure, a database that is away answers "try again" (503). */
const databaseAvailability = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code !== "SERVICE_UNAVAILABLE" && isDatabaseUnavailable(result.error)) {
    return { ...result, error: unavailableOr(result.error) as TRPCError };
  }
  return result;
});

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(databaseAvailability).use(readableValidationErrors);

/** Signed-in users only: UNAUTHORIZED otherwise. */
export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: messages.auth.signInRequired });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Admins only: UNAUTHORIZED for visitors, FORBIDDEN for everyone else. RLS checks again. */
export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") throw new TRPCError({ code: "FORBIDDEN", message: messages.auth.adminsOnly });
  return next({ ctx });
});

/**
 * Refuses a caller who has already made the limit's number of these calls in its window, with
 * how long to wait; otherwise counts this one. Used after `.input()`, so only well-formed
 * submissions count; `keyOf` says whose calls they are (a client address, a customer).
 */
export function rateLimited(pick: (limits: RequestLimits) => RateLimiter, keyOf: (ctx: TRPCContext) => string) {
  return t.middleware(({ ctx, next }) => {
    const limiter = pick(ctx.limits);
    const key = keyOf(ctx);
    const wait = limiter.retryAfter(key);
    if (wait > 0) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: messages.security.slowDown(Math.ceil(wait / 60_000)) });
    limiter.hit(key);
    return next();
  });
}

/** Rate-limit key: the client's address, as the proxy in front reports it. */
export const byClientAddress = (ctx: TRPCContext) => `address:${clientAddress(ctx.headers)}`;

/** Rate-limit key: the signed-in customer (their address, should a visitor ever get this far). */
export const byCaller = (ctx: TRPCContext) => (ctx.user ? `user:${ctx.user.id}` : byClientAddress(ctx));

/** Customers (signed-in non-admins): carts and checkout. Admins get FORBIDDEN (ARCHITECTURE §9). */
export const customerProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.user.role === "admin") throw new TRPCError({ code: "FORBIDDEN", message: messages.cart.customersOnly });
  return next({ ctx });
});
