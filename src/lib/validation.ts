import { z } from "zod";

// Zod compiles object parsers with `new Function` when it may; the shop's Content-Security-Policy
// forbids eval, so in the browser it would only log a violation. Parse without it everywhere.
z.config({ jitless: true });

/** The first problem with a form's values, as the message to show; null when valid. */
export function firstProblem(schema: z.ZodType, values: unknown): string | null {
  const result = schema.safeParse(values);
  return result.success ? null : (result.error.issues[0]?.message ?? "Please check the form.");
}
