"use client";

import NextLink from "next/link";
import { useState, type ComponentProps } from "react";

/**
 * The shop's links: Next.js's `<Link>` (client-side navigation), prefetching the page behind it
 * once a person shows they may go there (a finger or the pointer on it, keyboard focus), not as
 * soon as it is on screen. Every page here is rendered per request (the layout reads the
 * session), so each prefetch is a request the server renders: on screen, a phone's `/products`
 * asked for 11 of them after every load, most for pages nobody opened (docs/phones-and-caching.md).
 * `prefetch={false}` still turns prefetching off altogether.
 */
export function Link({ prefetch, onMouseEnter, onTouchStart, onFocus, ...props }: ComponentProps<typeof NextLink>) {
  const [intent, setIntent] = useState(false);
  const wanted = intent && prefetch !== false ? (prefetch ?? null) : false;
  return (
    <NextLink
      {...props}
      prefetch={wanted}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
    />
  );
}
