/**
 * How tests/api/model.test.ts reads an API answer: a result, or a refusal that must be a
 * TRPCError with a 4xx status and a message from src/lib/messages.ts. Anything else (a 5xx, a
 * thrown non-tRPC error) fails the run on the spot, whatever the model expected.
 */
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { expect } from "vitest";

/** How often each kind of answer came back, by outcome ("ok", or the refusal's code): printed after the runs. */
export const tally = new Map<string, number>();

function count(key: string) {
  tally.set(key, (tally.get(key) ?? 0) + 1);
}

/** Counts a command that ran (its check passed), by its description with the numbers taken out. */
export function countStep(description: string) {
  count(`(ran) ${description.replace(/\d+/g, "#")}`);
}

export type Answer<T> = { ok: true; value: T } | { ok: false; code: TRPCError["code"]; message: string };

/** Awaits one call and classifies its answer; fails on anything a customer must never see. */
export async function answer<T>(call: Promise<T>, what: string): Promise<Answer<T>> {
  const kind = what.replace(/\d+/g, "#");
  try {
    const value = await call;
    count(`${kind}: ok`);
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw new Error(`${what} threw something other than a TRPCError`, { cause: error });
    const status = getHTTPStatusCodeFromError(error);
    if (status >= 500) {
      const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : String(error.cause);
      throw new Error(`${what} answered ${status} ${error.code} "${error.message}" (cause: ${cause})`, { cause: error });
    }
    count(`${kind}: ${error.code}${process.env.MODEL_STATS === "messages" ? ` ${error.message}` : ""}`);
    return { ok: false, code: error.code, message: error.message };
  }
}

/** The answer is a success; returns its value. */
export function expectOk<T>(result: Answer<T>, what: string): T {
  if (!result.ok) throw new Error(`${what} was refused with ${result.code} "${result.message}", the model expected it to succeed`);
  return result.value;
}

/** The answer is the refusal the model expected: the code, and one of the accepted messages. */
export function expectRefused(result: Answer<unknown>, what: string, code: TRPCError["code"], message: string | readonly string[]): void {
  if (result.ok) throw new Error(`${what} succeeded, the model expected ${code} "${String(message)}"`);
  expect({ code: result.code, message: result.message }, what).toEqual({
    code,
    message: typeof message === "string" ? message : expect.toBeOneOf([...message]),
  });
}

/** Every message a "wait N minutes" refusal may carry within a window of `windowMs`. */
export function waitMessages(message: (minutes: number) => string, windowMs: number): string[] {
  return Array.from({ length: Math.ceil(windowMs / 60_000) }, (_, index) => message(index + 1));
}
