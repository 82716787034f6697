"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";

const FINE_POINTER = "(pointer: fine)";

function subscribeToPointer(onChange: () => void): () => void {
  const query = window.matchMedia(FINE_POINTER);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

function finePointer(): boolean {
  return window.matchMedia(FINE_POINTER).matches;
}

/**
 * A small, soft accent ring that follows the mouse on every page (spec §1). It never replaces
 * the pointer and never takes clicks, selection or focus (pointer-events: none, aria-hidden);
 * it exists only where the main pointer is fine (`(pointer: fine)`: a mouse or trackpad, never a
 * touch screen, where CSS hides it and no listener is added) and stays off for people who prefer
 * reduced motion. A device whose pointer changes (a tablet docked to a keyboard) follows suit.
 */
export function CustomCursor() {
  const ring = useRef<HTMLDivElement>(null);
  const fine = useSyncExternalStore(subscribeToPointer, finePointer, () => false);

  useEffect(() => {
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    const element = ring.current;
    if (!element || !fine || reduced.matches) return;

    let frame = 0;
    let x = -100;
    let y = -100;
    const move = (event: PointerEvent) => {
      if (event.pointerType !== "mouse") return;
      x = event.clientX;
      y = event.clientY;
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          element.style.transform = `translate3d(${x - 14}px, ${y - 14}px, 0)`;
          element.style.opacity = "1";
        });
      }
    };
    const hide = () => (element.style.opacity = "0");
    window.addEventListener("pointermove", move, { passive: true });
    document.addEventListener("pointerleave", hide);
    return () => {
      window.removeEventListener("pointermove", move);
      document.removeEventListener("pointerleave", hide);
      cancelAnimationFrame(frame);
      element.style.opacity = "0";
    };
  }, [fine]);

  return (
    <div
      ref={ring}
      aria-hidden="true"
      data-testid="custom-cursor"
      className="pointer-events-none fixed left-0 top-0 z-[100] hidden h-7 w-7 pointer-fine:block rounded-full border-2 border-accent-500/70 bg-accent-500/10 opacity-0 transition-opacity duration-200"
      style={{ transform: "translate3d(-100px, -100px, 0)" }}
    />
  );
}
