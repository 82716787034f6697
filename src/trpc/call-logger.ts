import type { AnyRouter } from "@trpc/server";
import { loggerLink, type TRPCLink } from "@trpc/client";

/** What one line of the development log says about a call: never its input (a password, an address). */
export function describeCall(op: { id: number; type: string; path: string; direction: "up" | "down"; elapsedMs?: number }): string {
  const arrow = op.direction === "up" ? ">>" : "<<";
  const took = op.direction === "down" && op.elapsedMs !== undefined ? ` (${op.elapsedMs} ms)` : "";
  return `${arrow} ${op.type} #${op.id} ${op.path}${took}`;
}

/**
 * The tRPC calls in the browser's console, in development only: each call's path, and a failed
 * call's message. Inputs are never printed (tRPC's default logger prints them, and a failed
 * sign-in would put the password in the console); in production nothing is logged.
 */
export function developmentCallLog<TRouter extends AnyRouter>(): TRPCLink<TRouter>[] {
  if (process.env.NODE_ENV !== "development") return [];
  return [
    loggerLink<TRouter>({
      logger(op) {
        const line = describeCall({ ...op, elapsedMs: op.direction === "down" ? op.elapsedMs : undefined });
        if (op.direction === "down" && op.result instanceof Error) console.error(line, op.result.message);
        else console.log(line);
      },
    }),
  ];
}
