"use client";

import { messages } from "@/lib/messages";
import { setNoticeSound, useNoticeSound } from "./notice-sound";

const m = messages.adminNotices;

/** The admin navigation's switch for the new-order chime: off until turned on, remembered by the browser. */
export function NoticeSoundSwitch() {
  const on = useNoticeSound();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label={m.sound}
      title={m.sound}
      onClick={() => setNoticeSound(!on)}
      className="flex min-h-11 shrink-0 items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium text-ink hover:bg-brand-50 sm:min-h-0"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 text-muted" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M4 9v6h4l5 4V5L8 9H4z" />
        {on ? <path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" /> : <path d="M17 10l4 4M21 10l-4 4" />}
      </svg>
      <span className="hidden sm:inline">{m.soundShort}</span>
      {/* The state on screen; assistive technology reads aria-checked. */}
      <span aria-hidden="true" className={`relative h-5 w-9 rounded-full border transition-colors motion-reduce:transition-none ${on ? "border-brand-700 bg-brand-700" : "border-muted bg-white"}`}>
        <span
          className={`absolute top-0.5 left-0.5 h-3.5 w-3.5 rounded-full transition-transform motion-reduce:transition-none ${on ? "translate-x-4 bg-white" : "bg-muted"}`}
        />
      </span>
    </button>
  );
}
