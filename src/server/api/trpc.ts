import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { ANON, scopedDb, type DbIdentity, type ScopedDb } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import { getDatabase } from "@/server/db";

/** The signed-in user as the server resolved them; null for a visitor. */
export interface SessionUser {
  id: string;
  email: string | null;
  displayName: string | null;
  role: "user" | "admin";
}

export interface TRPCContext {
  headers: Headers;
  user: SessionUser | null;
  /** The database, already running as the caller: RLS applies to everything done through it. */
  db: ScopedDb;
}

/** Builds a context from an open database and a caller; used by the HTTP handler, RSC and tests. */
export function createContextFor(database: ShopDatabase, user: SessionUser | null, headers = new Headers()): TRPCContext {
  const identity: DbIdentity = user ? { kind: "user", id: user.id, email: user.email } : ANON;
  return { headers, user, db: scopedDb(database.kysely, identity) };
}

export async function createTRPCContext(opts: { headers: Headers }): Promise<TRPCContext> {
  const database = await getDatabase();
  return createContextFor(database, null, opts.headers);
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

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure;

/** Signed-in users only: UNAUTHORIZED otherwise. */
export const signedInProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in first." });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Admins only: UNAUTHORIZED for visitors, FORBIDDEN for everyone else. RLS checks again. */
export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "admin") throw new TRPCError({ code: "FORBIDDEN", message: "Admins only." });
  return next({ ctx });
});
