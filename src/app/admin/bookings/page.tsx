import type { Metadata } from "next";
import { BlockedTimes } from "@/components/admin/bookings/blocked-times";
import { BookingsCalendar } from "@/components/admin/bookings/bookings-calendar";
import { shopDay } from "@/lib/days";
import { messages } from "@/lib/messages";
import { requireAccess } from "@/server/auth/guards";
import { calendarInput } from "@/server/bookings/schemas";
import { caller } from "@/trpc/caller";
import { api, HydrateClient } from "@/trpc/server";

export const metadata: Metadata = { title: messages.bookings.calendar.title, robots: { index: false } };

/** The owner's day (docs/bookings.md): /admin/bookings?day=2026-12-10&view=week&service=…, and the blocked times. */
export default async function AdminBookingsPage({ searchParams }: PageProps<"/admin/bookings">) {
  await requireAccess("admin", "/admin/bookings");
  const params = await searchParams;
  const parsed = calendarInput.safeParse({
    from: typeof params.day === "string" ? params.day : shopDay(),
    days: params.view === "week" ? 7 : 1,
    productId: typeof params.service === "string" && params.service ? params.service : null,
  });
  const input = parsed.success ? parsed.data : { from: shopDay(), days: 1, productId: null };
  const calendar = await caller.bookings.calendar(input);
  await api.bookings.blocks.prefetch();
  return (
    <main className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{messages.bookings.calendar.title}</h1>
      <BookingsCalendar calendar={calendar} from={input.from} days={input.days} productId={input.productId ?? null} />
      <HydrateClient>
        <BlockedTimes services={calendar.services} />
      </HydrateClient>
    </main>
  );
}
