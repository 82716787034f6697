import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { messages } from "@/lib/messages";
import type { SessionUser } from "@/server/auth/session-user";
import { ANON, scopedDb, type DbIdentity, type ScopedDb } from "@/server/db/as-caller";
import { isDatabaseUnavailable } from "@/server/db/sql-errors";
import { requestServices, type RequestServices } from "@/server/platform/request-services";
import type { CookieJar } from "@/server/ports/cookies";
import { clientAddress, userLimitKey, type RateLimiter, type RequestLimits } from "@/server/security/rate-limit";

export type { SessionUser } from "@/server/auth/session-user";

/**
 * What every procedure gets: the caller, the database already running as the caller, and the
 * ports. Never an RLS-bypassing handle (ARCHITECTURE §12): the few privileged steps are named
 * functions (`sessionUserFor`, the auth port's own).
 */
export type TRPCContext = Omit<RequestServices, "database" | "forgetCached"> & {
  headers: Headers;
  /** The caller, resolved and verified on the server; null for a visitor. */
  user: SessionUser | null;
  /** The database, already running as the caller: RLS applies to everything done through it. */
  db: ScopedDb;
  /**
   * After the caller changed their own profile or cart: this process forgets what it kept of it
   * (the header's name, picture, role, cart count) at once; other processes hear of it from the
   * database. Nothing for a visitor.
   */
  forgetCaller(what: "profile" | "cart"): void;
};

/** Builds a context from the request's services and its caller; used by the HTTP handler, the RSC caller and the tests. */
export function createContextFor(services: RequestServices, user: SessionUser | null, headers: Headers = new Headers()): TRPCContext {
  const identity: DbIdentity = user ? { kind: "user", id: user.id, email: user.email } : ANON;
  // The ports as the platform handed them out; the privileged handle only as the caller's `db`.
  const { database, forgetCached, ...ports } = services;
  return {
    ...ports,
    headers,
    user,
    db: scopedDb(database.kysely, identity),
    forgetCaller: (what) => {
      if (user) forgetCached(user.id, what);
    },
  };
}

/** Resolves the caller of one request from its cookies (through the auth port). */
export async function resolveContext(services: RequestServices, headers: Headers): Promise<TRPCContext> {
  const authUser = await services.auth.currentUser();
  const user = authUser ? await services.sessionUserFor(authUser) : null;
  return createContextFor(services, user, headers);
}

export async function createTRPCContext(opts: { headers: Headers; cookies: CookieJar }): Promise<TRPCContext> {
  try {
    return await resolveContext(await requestServices(opts.cookies, opts.headers), opts.headers);
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
  return t.middleware(async ({ ctx, next }) => {
    const wait = await pick(ctx.limits).take(ctx.db, keyOf(ctx));
    if (wait > 0) throw tooManyRequests(wait);
    return next();
  });
}

/** The refusal of a call over its limit, saying how many minutes to wait. */
export function tooManyRequests(waitMs: number): TRPCError {
  return new TRPCError({ code: "TOO_MANY_REQUESTS", message: messages.security.slowDown(Math.ceil(waitMs / 60_000)) });
}

/** Rate-limit key: the client's address (src/server/security/rate-limit.ts says which). */
export const byClientAddress = (ctx: TRPCContext) => `address:${clientAddress(ctx.headers)}`;

/** Rate-limit key: the signed-in customer (their address, should a visitor ever get this far). */
export const byCaller = (ctx: TRPCContext) => (ctx.user ? userLimitKey(ctx.user.id) : byClientAddress(ctx));

/**
 * Customers (signed-in non-admins): carts and checkout. Admins get FORBIDDEN (ARCHITECTURE §9).
 * Every write here may change the cart, so the header's kept cart count goes with it.
 */
export const customerProcedure = signedInProcedure.use(async ({ ctx, next, type }) => {
  if (ctx.user.role === "admin") throw new TRPCError({ code: "FORBIDDEN", message: messages.cart.customersOnly });
  try {
    return await next({ ctx });
  } finally {
    if (type === "mutation") ctx.forgetCaller("cart");
  }
});
