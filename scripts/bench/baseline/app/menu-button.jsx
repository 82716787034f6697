"use client";

import { useState } from "react";

/** One menu button, as the shop's header has: the least interactive page Next.js can serve. */
export function MenuButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-expanded={open} aria-controls="site-menu" onClick={() => setOpen((v) => !v)} style={{ padding: 12 }}>
        {open ? "Close menu" : "Open menu"}
      </button>
      <nav id="site-menu" hidden={!open}>
        <p>Home</p>
      </nav>
    </>
  );
}
