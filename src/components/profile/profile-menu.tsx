"use client";

import Image from "next/image";
import { Link } from "@/components/ui/link";
import { useState } from "react";

/** The profile picture that opens a small menu: Profile, Cart and Logout (spec §2). */
export function ProfileMenu({ avatarUrl, name, isAdmin }: { avatarUrl: string; name: string; isAdmin: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative inline-block">
      <button type="button" aria-expanded={open} aria-controls="profile-menu" onClick={() => setOpen((v) => !v)} className="rounded-full">
        <Image src={avatarUrl} alt={`Profile picture of ${name}`} width={112} height={112} unoptimized={avatarUrl.endsWith(".svg")} className="h-28 w-28 rounded-full border-4 border-white object-cover shadow" />
      </button>
      {open ? (
        <ul id="profile-menu" className="absolute left-0 z-10 mt-2 w-44 overflow-hidden rounded-xl border border-line bg-white py-1 shadow-lg">
          <li>
            <Link href="/profile" className="block px-4 py-2 hover:bg-brand-50" onClick={() => setOpen(false)}>
              Profile
            </Link>
          </li>
          {!isAdmin ? (
            <li>
              <Link href="/cart" className="block px-4 py-2 hover:bg-brand-50">
                Cart
              </Link>
            </li>
          ) : null}
          <li>
            {/* The same sign-out as the header's (src/app/auth/signout/route.ts). */}
            <form method="post" action="/auth/signout">
              <button type="submit" className="block w-full px-4 py-2 text-left hover:bg-brand-50">
                Logout
              </button>
            </form>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
