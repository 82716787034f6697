"use client";

import { useEffect, useRef, useState } from "react";
import { storefrontMessages as messages } from "@/lib/storefront-messages";

const mp = messages.productPictures;

const STEP: Record<string, (at: number, count: number) => number> = {
  ArrowLeft: (at) => at - 1,
  ArrowRight: (at) => at + 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/** The event the product page's variant picker sends a gallery to show a chosen variant's picture. */
export const SHOW_PICTURE_EVENT = "gallery:show-picture";

/** Asks the gallery `galleryId` to show the picture at `url` (nothing happens if it has none there). */
export function showPicture(galleryId: string, url: string) {
  document.getElementById(galleryId)?.dispatchEvent(new CustomEvent(SHOW_PICTURE_EVENT, { detail: url }));
}

function trackOf(galleryId: string): HTMLElement | null {
  return document.getElementById(galleryId)?.querySelector<HTMLElement>("[data-gallery-track]") ?? null;
}

/** Scrolls the row to picture `index`, kept in range, and returns where it goes. */
function scrollToPicture(track: HTMLElement, index: number, count: number): number {
  const to = Math.max(0, Math.min(count - 1, index));
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  track.scrollTo({ left: to * track.clientWidth, behavior: smooth ? "smooth" : "auto" });
  return to;
}

/**
 * The product gallery's client island (product-gallery.tsx renders the pictures): previous and
 * next, a button per picture, and ArrowLeft/ArrowRight/Home/End anywhere in the gallery, each
 * scrolling the server-rendered row to a picture; the counter follows swipes too. A chosen
 * variant's own picture is shown when the variant picker asks (showPicture).
 */
export function GalleryControls({ galleryId, count }: { galleryId: string; count: number }) {
  const [current, setCurrent] = useState(0);
  // Where a button or key sent the row, until it gets there (a smooth scroll passes the others).
  const target = useRef<number | null>(null);

  function show(index: number) {
    const track = trackOf(galleryId);
    if (!track) return;
    target.current = scrollToPicture(track, index, count);
    setCurrent(target.current);
  }

  useEffect(() => {
    const gallery = document.getElementById(galleryId);
    const track = trackOf(galleryId);
    if (!gallery || !track) return;
    const onScroll = () => {
      const at = track.scrollLeft / track.clientWidth;
      if (target.current !== null && Math.abs(at - target.current) > 0.02) return;
      target.current = null;
      setCurrent(Math.max(0, Math.min(count - 1, Math.round(at))));
    };
    const onSwipe = () => {
      target.current = null;
    };
    const onKey = (event: KeyboardEvent) => {
      const step = STEP[event.key];
      if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const at = target.current ?? Math.round(track.scrollLeft / track.clientWidth);
      target.current = scrollToPicture(track, step(at, count), count);
      setCurrent(target.current);
    };
    const onShowPicture = (event: Event) => {
      const slides = Array.from(track.querySelectorAll<HTMLElement>("[data-picture-url]"));
      const index = slides.findIndex((slide) => slide.dataset.pictureUrl === (event as CustomEvent<string>).detail);
      if (index < 0) return;
      target.current = scrollToPicture(track, index, count);
      setCurrent(target.current);
    };
    gallery.addEventListener(SHOW_PICTURE_EVENT, onShowPicture);
    track.addEventListener("scroll", onScroll, { passive: true });
    track.addEventListener("pointerdown", onSwipe, { passive: true });
    gallery.addEventListener("keydown", onKey);
    return () => {
      track.removeEventListener("scroll", onScroll);
      track.removeEventListener("pointerdown", onSwipe);
      gallery.removeEventListener("keydown", onKey);
      gallery.removeEventListener(SHOW_PICTURE_EVENT, onShowPicture);
    };
  }, [galleryId, count]);

  const arrow = "inline-flex size-11 items-center justify-center rounded-full border border-line bg-white text-xl text-ink hover:bg-brand-50 aria-disabled:opacity-40";
  return (
    <div className="mt-3 flex h-11 items-center justify-between gap-2">
      <button type="button" className={arrow} aria-label={mp.previous} aria-disabled={current === 0} onClick={() => show(current - 1)}>
        <span aria-hidden="true">‹</span>
      </button>
      <div className="flex min-w-0 items-center">
        {Array.from({ length: count }, (_, index) => (
          <button key={index} type="button" className="group inline-flex h-11 w-6 items-center justify-center" aria-label={mp.show(index + 1, count)} aria-current={index === current} onClick={() => show(index)}>
            <span aria-hidden="true" className="size-2.5 rounded-full bg-line group-aria-[current=true]:bg-brand-700" />
          </button>
        ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {mp.position(current + 1, count)}
      </p>
      <button type="button" className={arrow} aria-label={mp.next} aria-disabled={current === count - 1} onClick={() => show(current + 1)}>
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
