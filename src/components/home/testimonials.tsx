"use client";

import { useEffect, useRef, useState } from "react";
import type { Testimonial } from "@/lib/business-content";
import { TESTIMONIAL_ROTATION_MS } from "@/lib/constants";

function Stars({ rating }: { rating: number }) {
  return (
    <p className="flex gap-0.5 text-accent-500" role="img" aria-label={`Rated ${rating} out of 5`}>
      {Array.from({ length: 5 }, (_, i) => (
        <svg key={i} aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill={i < rating ? "currentColor" : "none"} stroke="currentColor">
          <path d="M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9z" />
        </svg>
      ))}
    </p>
  );
}

/**
 * The rotating testimonials: advance every 7 s and wrap around; pause by button, by hover or
 * while focus is inside; previous/next buttons for keyboard users.
 */
export function Testimonials({ items }: { items: Testimonial[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(false);
  const count = items.length;
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    if (paused || held || count < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % count), TESTIMONIAL_ROTATION_MS);
    // Marks the carousel as running (tests wait for it after hydration).
    const element = section.current;
    if (element) element.dataset.rotating = "true";
    return () => {
      clearInterval(timer);
      if (element) element.dataset.rotating = "false";
    };
  }, [paused, held, count]);

  const current = items[index];
  if (!current) return null;
  const go = (step: number) => setIndex((i) => (i + step + count) % count);

  return (
    <section
      ref={section}
      data-testid="testimonials"
      aria-roledescription="carousel"
      aria-labelledby="testimonials-heading"
      className="rounded-3xl bg-brand-50 px-6 py-10 sm:px-10"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <h2 id="testimonials-heading" className="text-2xl font-bold">
        What our customers say
      </h2>
      <figure
        key={current.id}
        aria-roledescription="slide"
        aria-label={`${index + 1} of ${count}`}
        aria-live={paused ? "polite" : "off"}
        className="mt-6 animate-[fade-in_400ms_ease-out] motion-reduce:animate-none"
        data-testid="testimonial"
      >
        <Stars rating={current.rating} />
        <blockquote className="mt-3 text-lg leading-relaxed text-ink">“{current.text}”</blockquote>
        <figcaption className="mt-3 text-sm font-semibold text-brand-800">{current.author}</figcaption>
      </figure>
      <div className="mt-6 flex flex-wrap items-center gap-2">
        <button type="button" onClick={() => go(-1)} className="rounded-lg border border-brand-200 bg-white px-3 py-2 text-sm font-medium hover:bg-brand-100">
          Previous<span className="sr-only"> testimonial</span>
        </button>
        <button type="button" onClick={() => go(1)} className="rounded-lg border border-brand-200 bg-white px-3 py-2 text-sm font-medium hover:bg-brand-100">
          Next<span className="sr-only"> testimonial</span>
        </button>
        <button
          type="button"
          onClick={() => setPaused((p) => !p)}
          aria-pressed={paused}
          className="rounded-lg border border-brand-200 bg-white px-3 py-2 text-sm font-medium hover:bg-brand-100"
        >
          {paused ? "Play" : "Pause"}<span className="sr-only"> rotation</span>
        </button>
        <span className="ml-auto flex gap-1.5" aria-hidden="true">
          {items.map((item, i) => (
            <span key={item.id} className={`h-2 w-2 rounded-full ${i === index ? "bg-brand-700" : "bg-brand-200"}`} />
          ))}
        </span>
      </div>
    </section>
  );
}
