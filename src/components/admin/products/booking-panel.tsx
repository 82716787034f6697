"use client";

import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import { BookingForm } from "./booking-form";

/** A product's "Booking": whether it is a service booked by time, and its settings (docs/bookings.md). */
export function BookingPanel({ productId, show }: { productId: string; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const found = api.adminProducts.booking.useQuery({ id: productId });
  if (found.isPending) return <p role="status">{messages.loading}</p>;
  if (found.isError) {
    return (
      <p role="alert" className="text-danger">
        {messages.bookings.admin.loadFailed}
      </p>
    );
  }
  // Keyed by what was saved, so the form starts again from the database after a save.
  return (
    <div className="rounded-2xl border border-line bg-surface p-4">
      <BookingForm key={JSON.stringify(found.data)} productId={productId} saved={found.data} show={show} />
    </div>
  );
}
