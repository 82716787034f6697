import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { TRPCContext } from "./trpc";

/** What a router says about a procedure besides its input and guard. */
export interface ProcedureMeta {
  /** What the person reads when the procedure fails for a reason nobody expected (middlewares/unexpected-errors.ts). */
  failure?: string;
}

/**
 * tRPC's one instance. A middleware only composes with procedures of the instance it was made
 * from, so ./middlewares/ and the procedure builders in ./trpc.ts all take it from here.
 */
export const t = initTRPC.context<TRPCContext>().meta<ProcedureMeta>().create({
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
