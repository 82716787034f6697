import type { z } from "@/lib/zod";

/** The first problem with a form's values, as the message to show; null when valid. */
export function firstProblem(schema: z.ZodType, values: unknown): string | null {
  const result = schema.safeParse(values);
  return result.success ? null : (result.error.issues[0]?.message ?? "Please check the form.");
}
