"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.fulfilment;

type Show = ReturnType<typeof useFlashMessage>["show"];
type Schema<T> = { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } };

/**
 * What every change to the delivery and collection settings does: the input checked with the
 * procedure's own schema first (so the form says what the server would), and the answer shown
 * in the section's one message, the settings read again once saved.
 */
export function useFulfilmentSaves(show: Show) {
  const utils = api.useUtils();
  return {
    done: {
      onSuccess: ({ message }: { message: string }) => {
        show(message, "success");
        void utils.fulfilment.invalidate();
      },
      onError: (error: { message: string }) => show(error.message || m.settingsSaveFailed, "error"),
    },
    checked<T>(schema: Schema<T>, value: unknown): T | null {
      const result = schema.safeParse(value);
      if (result.success) return result.data;
      show(result.error.issues[0]?.message ?? m.settingsSaveFailed, "error");
      return null;
    },
  };
}

export type { Show };
