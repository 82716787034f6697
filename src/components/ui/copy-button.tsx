"use client";

import { useEffect, useRef, useState } from "react";
import { COPY_CONFIRM_MS } from "@/lib/constants";
import { messages } from "@/lib/messages";

const m = messages.checkout;

type CopyState = "idle" | "copied" | "selected";

const LABELS: Record<CopyState, string> = { idle: m.copy, copied: m.copied, selected: m.selected };

interface Props {
  /** The text to copy. */
  value: string;
  /** What the value is, in words ("account number"): for the button's name and the announcement. */
  what: string;
  /** The id of the element that shows the value: selected instead when the clipboard is out of reach. */
  targetId: string;
}

/**
 * A "Copy" button for one value on the page. It says "Copied" for a moment, announced through a
 * live region. Where the clipboard cannot be written (no Clipboard API outside HTTPS or in older
 * browsers, or the browser refusing), it selects the value on the page instead, so the device's
 * own copy command takes it.
 */
export function CopyButton({ value, what, targetId }: Props) {
  const [state, setState] = useState<CopyState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  function show(next: Exclude<CopyState, "idle">) {
    clearTimeout(timer.current);
    setState(next);
    timer.current = setTimeout(() => setState("idle"), COPY_CONFIRM_MS);
  }

  function selectValue() {
    const target = document.getElementById(targetId);
    const selection = window.getSelection();
    if (!target || !selection) return;
    selection.selectAllChildren(target);
    show("selected");
  }

  async function copy() {
    // The type says clipboard always exists; browsers leave it undefined outside secure contexts.
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) return selectValue();
    try {
      await clipboard.writeText(value);
      show("copied");
    } catch {
      selectValue();
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={m.copyLabel(what)}
        className="inline-grid min-h-8 items-center rounded-lg border border-line bg-white px-3 text-xs font-semibold text-brand-700 transition hover:bg-brand-50"
      >
        {/* Every label in one grid cell, only the current one visible: the button keeps the
            width of the longest, so nothing around it moves when the label changes. */}
        {(Object.keys(LABELS) as CopyState[]).map((key) => (
          <span key={key} aria-hidden="true" className={`col-start-1 row-start-1 text-center ${key === state ? "" : "invisible"}`}>
            {LABELS[key]}
          </span>
        ))}
      </button>
      <span aria-live="polite" role="status" className="sr-only">
        {state === "copied" ? m.copiedAnnouncement(what) : state === "selected" ? m.selectedAnnouncement(what) : ""}
      </span>
    </>
  );
}
