"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { bookingSettingsInput, type BookingSettings } from "@/server/bookings/schemas";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/form-field";
import type { useFlashMessage } from "@/components/ui/use-flash-message";
import { BookingHours, defaultHours, type HoursRow } from "./booking-hours";

const a = messages.bookings.admin;

const NUMBERS = [
  ["durationMinutes", "Duration (minutes)"],
  ["bufferMinutes", "Buffer after each booking (minutes)"],
  ["capacity", "How many at once (teams or consultants)"],
  ["noticeHours", "Minimum notice (hours)"],
  ["horizonDays", "How far ahead (days)"],
  ["refundUntilHours", "Deposit refunded until (hours before)"],
] as const;
type NumberField = (typeof NUMBERS)[number][0];

const STARTING: Record<NumberField, string> = { durationMinutes: "60", bufferMinutes: "0", capacity: "1", noticeHours: "24", horizonDays: "30", refundUntilHours: "48" };

/** The Booking panel's form: booked by time or not, duration, buffer, capacity, notice, horizon, where, deposit, hours. */
export function BookingForm({ productId, saved, show }: { productId: string; saved: BookingSettings | null; show: ReturnType<typeof useFlashMessage>["show"] }) {
  const utils = api.useUtils();
  const [bookable, setBookable] = useState(saved !== null);
  const [numbers, setNumbers] = useState<Record<NumberField, string>>(
    saved ? (Object.fromEntries(NUMBERS.map(([field]) => [field, String(saved[field])])) as Record<NumberField, string>) : STARTING,
  );
  const [location, setLocation] = useState<BookingSettings["location"]>(saved?.location ?? "customer_address");
  const [deposit, setDeposit] = useState<BookingSettings["deposit"]>(saved?.deposit ?? "none");
  const [percent, setPercent] = useState(saved?.depositPercent ? String(saved.depositPercent) : "30");
  const [hours, setHours] = useState<HoursRow[]>(() => defaultHours(saved?.hours ?? []));
  const [error, setError] = useState<string | null>(null);
  const save = api.adminProducts.saveBooking.useMutation({
    onSuccess: ({ message }) => show(message, "success"),
    onError: (failure) => show(failure.message || a.saveFailed, "error"),
    onSettled: () => utils.adminProducts.booking.invalidate({ id: productId }),
  });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!bookable) {
      save.mutate({ productId, settings: null });
      return;
    }
    const parsed = bookingSettingsInput.safeParse({
      ...Object.fromEntries(NUMBERS.map(([field]) => [field, numbers[field].trim() === "" ? Number.NaN : Number(numbers[field])])),
      location,
      deposit,
      depositPercent: deposit === "percent" ? Number(percent) : null,
      hours,
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? a.saveFailed);
      return;
    }
    setError(null);
    save.mutate({ productId, settings: parsed.data });
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={a.panel}>
      <h3 className="font-semibold">{a.panel}</h3>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={bookable} onChange={(event) => setBookable(event.target.checked)} />
        {a.bookable}
      </label>
      {bookable ? (
        <>
          <div className="grid gap-3 sm:grid-cols-3">
            {NUMBERS.map(([field, label]) => (
              <TextField key={field} label={label} inputMode="numeric" value={numbers[field]} onChange={(event) => setNumbers({ ...numbers, [field]: event.target.value })} />
            ))}
          </div>
          <div className="grid gap-3 sm:grid-cols-3">
            <label className="text-sm font-medium">
              Where
              <select className="mt-1 block w-full rounded-xl border border-line bg-white px-3 py-2" value={location} onChange={(event) => setLocation(event.target.value as BookingSettings["location"])}>
                <option value="customer_address">At the customer&apos;s address</option>
                <option value="shop">At the shop</option>
                <option value="online">Online</option>
              </select>
            </label>
            <label className="text-sm font-medium">
              Deposit
              <select className="mt-1 block w-full rounded-xl border border-line bg-white px-3 py-2" value={deposit} onChange={(event) => setDeposit(event.target.value as BookingSettings["deposit"])}>
                <option value="none">None</option>
                <option value="percent">A percentage</option>
                <option value="full">The full price</option>
              </select>
            </label>
            {deposit === "percent" ? <TextField label="Deposit (%)" inputMode="numeric" value={percent} onChange={(event) => setPercent(event.target.value)} /> : null}
          </div>
          <BookingHours rows={hours} onChange={setHours} />
        </>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving..." : "Save booking settings"}
      </Button>
    </form>
  );
}
