"use client";

import { useState } from "react";
import { formatDateTime, formatSlot, formatTime } from "@/lib/days";
import { messages } from "@/lib/messages";
import { addBlockInput } from "@/server/bookings/schemas";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const c = messages.bookings.calendar;
const INPUT = "rounded-xl border border-line bg-white px-3 py-2 text-sm";

/**
 * Blocked times (docs/bookings.md): a closed day or an afternoon, for one service or all. No free
 * time overlapping one is offered, held or booked; bookings made before stay, and each blocked
 * time lists those it clashes with (to move or cancel in Order Management).
 */
export function BlockedTimes({ services }: { services: { id: string; name: string }[] }) {
  const flash = useFlashMessage();
  const utils = api.useUtils();
  const blocks = api.bookings.blocks.useQuery();
  const [form, setForm] = useState({ productId: "", from: "", to: "", reason: "" });
  const done = ({ message }: { message: string }) => {
    flash.show(message, "success");
    void utils.bookings.invalidate();
  };
  const add = api.bookings.addBlock.useMutation({ onSuccess: done, onError: (error) => flash.show(error.message || c.blockFailed, "error") });
  const remove = api.bookings.removeBlock.useMutation({ onSuccess: done, onError: (error) => flash.show(error.message || c.blockFailed, "error") });

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = addBlockInput.safeParse({ ...form, productId: form.productId || null });
    if (!checked.success) return flash.show(checked.error.issues[0]?.message ?? c.blockOrder, "error");
    add.mutate(checked.data);
  }

  return (
    <section aria-labelledby="blocks-heading" className="space-y-4 rounded-2xl border border-line bg-white p-4">
      <h2 id="blocks-heading" className="text-xl font-bold">
        {c.blocksTitle}
      </h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 text-sm" noValidate>
        <label className="grid gap-1">
          Service
          <select className={INPUT} value={form.productId} onChange={(event) => setForm({ ...form, productId: event.target.value })}>
            <option value="">{c.allServices}</option>
            {services.map((service) => (
              <option key={service.id} value={service.id}>
                {service.name}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          From (SAST)
          <input type="datetime-local" className={INPUT} value={form.from} onChange={(event) => setForm({ ...form, from: event.target.value })} />
        </label>
        <label className="grid gap-1">
          To (SAST)
          <input type="datetime-local" className={INPUT} value={form.to} onChange={(event) => setForm({ ...form, to: event.target.value })} />
        </label>
        <label className="grid gap-1">
          Reason
          <input className={INPUT} maxLength={200} value={form.reason} onChange={(event) => setForm({ ...form, reason: event.target.value })} />
        </label>
        <Button type="submit" disabled={add.isPending}>
          Block
        </Button>
      </form>
      <StatusMessage message={flash.message} />
      {blocks.isPending ? (
        <p role="status">{messages.loading}</p>
      ) : (blocks.data ?? []).length === 0 ? (
        <p className="text-sm text-muted">{c.blocksEmpty}</p>
      ) : (
        <ul className="divide-y divide-line text-sm" data-testid="blocked-times">
          {(blocks.data ?? []).map((block) => (
            <li key={block.id} className="space-y-1 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <span className="font-semibold">
                    {formatDateTime(block.startsAt)} – {formatTime(block.endsAt)}
                  </span>{" "}
                  {block.service ?? c.allServices}
                  {block.reason ? <span className="text-muted"> · {block.reason}</span> : null}
                </span>
                <Button variant="outline" disabled={remove.isPending} onClick={() => remove.mutate({ id: block.id })}>
                  Remove
                </Button>
              </div>
              {block.clashes.length > 0 ? (
                <div className="text-danger" data-testid="block-clashes">
                  {c.clashes(block.clashes.length)}{" "}
                  {block.clashes.map((clash) => `${clash.reference} ${clash.customerName} (${clash.service}, ${formatSlot(clash.startsAt)})`).join("; ")}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
