import type { SessionUser } from "@/server/auth/session-user";
import { ANON, scopedDb, type DbIdentity, type ScopedDb } from "@/server/db/as-caller";
import { requestServices, type RequestServices } from "@/server/platform/request-services";
import type { CookieJar } from "@/server/ports/cookies";
import { t } from "./init";
import { adminsOnly } from "./middlewares/admin";
import { customersOnly } from "./middlewares/customer";
import { databaseAvailability, unavailableOr } from "./middlewares/database-availability";
import { readableValidationErrors } from "./middlewares/readable-validation-errors";
import { signedIn } from "./middlewares/signed-in";
import { unexpectedErrors } from "./middlewares/unexpected-errors";

/**
 * What every procedure gets: the caller, the database already running as the caller, and the
 * ports. Never an RLS-bypassing handle (docs/architecture.md#one-shape-per-domain): the few privileged steps are named
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

/** A request's context from its headers and cookies; a database that cannot be reached answers 503. */
export async function createTRPCContext(opts: { headers: Headers; cookies: CookieJar }): Promise<TRPCContext> {
  try {
    return await resolveContext(await requestServices(opts.cookies, opts.headers), opts.headers);
  } catch (error) {
    throw unavailableOr(error);
  }
}

/** Server-side callers of a router (root.ts's `createCaller`). */
export const createCallerFactory = t.createCallerFactory;
/** A router: each domain's `router.ts` wires its procedures with it. */
export const createTRPCRouter = t.router;

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(databaseAvailability).use(unexpectedErrors).use(readableValidationErrors);

/** Signed-in users only: UNAUTHORIZED otherwise. */
export const signedInProcedure = publicProcedure.use(signedIn);

/** Admins only: UNAUTHORIZED for visitors, FORBIDDEN for everyone else. RLS checks again. */
export const adminProcedure = signedInProcedure.use(adminsOnly);

/** Customers (signed-in non-admins): carts and checkout. Admins get FORBIDDEN (docs/architecture.md#decisions-on-the-spec). */
export const customerProcedure = signedInProcedure.use(customersOnly);
