"use client";

import { useEffect, useState } from "react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

/** The tab's note of what to say on the page it loads next (sessionStorage: this tab only, never sent to the server). */
const KEY = "shop:arrival-notice";

/**
 * Keeps `text` for the page this tab loads next, which shows it (ArrivalNotice). For a message
 * said as the page is replaced (sign-in loads the next page as a new document at once): said on
 * the page left, nobody could read it. Read and shown by the browser alone, so a page served
 * from kept HTML (src/server/kept-pages) never holds it. Nothing is kept where storage is refused.
 */
export function carryToNextPage(text: string): void {
  try {
    sessionStorage.setItem(KEY, text);
  } catch {
    // Storage blocked (a private mode, a full quota): the message is only missed.
  }
}

function readCarried(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function forgetCarried(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}

/**
 * Shows the message carried from the page before (carryToNextPage) as a success notice, for the
 * spec's 3 seconds, then removes it. Renders nothing on the server, so no kept page holds it.
 */
export function ArrivalNotice() {
  const [carried, setCarried] = useState<string | null>(null);
  const flash = useFlashMessage();
  const { show } = flash;

  // Read after hydration (the server cannot know it). The live region is put in the page first,
  // then filled, so screen readers announce the text. Forgotten once shown, not when read: a
  // development re-run of the effect still finds it.
  useEffect(() => {
    const text = readCarried();
    if (!text) return;
    const region = setTimeout(() => {
      forgetCarried();
      setCarried(text);
    }, 0);
    const fill = setTimeout(() => show(text, "success"), 50);
    return () => {
      clearTimeout(region);
      clearTimeout(fill);
    };
  }, [show]);

  if (!carried) return null;
  return (
    // Over the page without covering it for clicks: nothing in it is to be pressed.
    <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center px-4" data-testid="arrival-notice">
      <StatusMessage message={flash.message} className="w-full max-w-md" />
    </div>
  );
}
