"use client";

import { useEffect, useRef } from "react";

/**
 * A small, soft accent ring that follows the mouse on every page (spec §1). It never replaces
 * the pointer and never takes clicks, selection or focus (pointer-events: none, aria-hidden);
 * it stays off on touch devices and for people who prefer reduced motion.
 */
export function CustomCursor() {
  const ring = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const fine = window.matchMedia("(pointer: fine)");
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
    const element = ring.current;
    if (!element || !fine.matches || reduced.matches) return;

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
    };
  }, []);

  return (
    <div
      ref={ring}
      aria-hidden="true"
      data-testid="custom-cursor"
      className="pointer-events-none fixed left-0 top-0 z-[100] h-7 w-7 rounded-full border-2 border-accent-500/70 bg-accent-500/10 opacity-0 transition-opacity duration-200"
      style={{ transform: "translate3d(-100px, -100px, 0)" }}
    />
  );
}
