"use client";

import { useState } from "react";
import { BookSlotButton } from "@/components/signed-in";
import { SignInToAdd } from "@/components/cart/sign-in-to-add";
import type { SlotChoice } from "./slot-choices";
import { SlotChooser } from "./slot-chooser";

/**
 * A bookable service's free times for the next days (South African time): the customer picks a
 * day, then a time, then adds it to the cart, which holds it (docs/bookings.md). Visitors see the
 * times and are asked to sign in; admins see the times only.
 */
export function SlotPicker({ productId, slots, viewer }: { productId: string; slots: SlotChoice[]; viewer: "visitor" | "customer" | "admin" }) {
  const [chosen, setChosen] = useState<string | null>(null);
  if (slots.length === 0) return <SlotChooser slots={slots} chosen={null} onChoose={setChosen} />;

  return (
    <div className="space-y-4">
      <SlotChooser slots={slots} chosen={chosen} onChoose={setChosen} />
      {viewer === "customer" ? (
        <BookSlotButton productId={productId} startsAt={chosen} className="w-full sm:w-auto" />
      ) : viewer === "visitor" ? (
        <SignInToAdd productId={productId} className="w-full sm:w-auto" />
      ) : null}
    </div>
  );
}
