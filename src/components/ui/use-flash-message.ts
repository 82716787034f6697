"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { MESSAGE_CLEAR_MS } from "@/lib/constants";

export interface FlashMessage {
  text: string;
  tone: "success" | "error" | "info";
}

/** A status message that clears itself after the spec's 3 seconds (or stays, when asked). */
export function useFlashMessage(clearAfterMs: number = MESSAGE_CLEAR_MS) {
  const [message, setMessage] = useState<FlashMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (text: string, tone: FlashMessage["tone"], options: { persist?: boolean } = {}) => {
      clearTimeout(timer.current);
      setMessage({ text, tone });
      if (!options.persist) timer.current = setTimeout(() => setMessage(null), clearAfterMs);
    },
    [clearAfterMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return { message, show, clear: useCallback(() => setMessage(null), []) };
}
