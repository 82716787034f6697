"use client";

import { useState } from "react";
import { messages } from "@/lib/messages";
import { dailyLimitInput, leadTimeInput } from "@/server/fulfilment/schemas";
import { api, type RouterOutputs } from "@/trpc/react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";

const m = messages.fulfilment;
const input = "tabular w-20 rounded-lg border border-line bg-white px-2 py-1.5 text-right";

/**
 * The product dashboard's lead times (days a product needs before delivery or collection) and
 * daily limits per category (units fulfilled per day; blank: none). Each saves when it is left.
 */
export function LeadTimesPanel() {
  const data = api.fulfilment.leadTimes.useQuery();
  if (data.isPending) return <p role="status">{messages.loading}</p>;
  if (data.isError) return <p role="alert" className="text-danger">{messages.admin.fetchProductsFailed}</p>;
  return <LeadTimes data={data.data} />;
}

function LeadTimes({ data }: { data: RouterOutputs["fulfilment"]["leadTimes"] }) {
  const utils = api.useUtils();
  const flash = useFlashMessage();
  const [open, setOpen] = useState(false);
  const done = {
    onSuccess: ({ message }: { message: string }) => {
      flash.show(message, "success");
      void utils.fulfilment.leadTimes.invalidate();
    },
    onError: (error: { message: string }) => flash.show(error.message, "error"),
  };
  const setLead = api.fulfilment.setLeadTime.useMutation(done);
  const setLimit = api.fulfilment.setDailyLimit.useMutation(done);

  function saveLead(productId: string, text: string, before: number) {
    const checked = leadTimeInput.safeParse({ productId, days: text.trim() === "" ? 0 : Number(text) });
    if (!checked.success) return flash.show(checked.error.issues[0]?.message ?? m.leadTimeInvalid, "error");
    if (checked.data.days !== before) setLead.mutate(checked.data);
  }

  function saveLimit(categoryId: string, text: string, before: number | null) {
    const checked = dailyLimitInput.safeParse({ categoryId, limit: text.trim() === "" ? null : Number(text) });
    if (!checked.success) return flash.show(checked.error.issues[0]?.message ?? m.dailyLimitInvalid, "error");
    if (checked.data.limit !== before) setLimit.mutate(checked.data);
  }

  return (
    <section aria-labelledby="lead-times-heading" className="rounded-3xl border border-line bg-white p-6" data-testid="lead-times">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="lead-times-heading" className="text-xl font-bold">
          Lead times and daily limits
        </h2>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="rounded-xl border border-line px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50">
          {open ? "Hide" : "Show"}
        </button>
      </div>
      {open ? (
        <div className="mt-4 grid gap-8 lg:grid-cols-2">
          <div>
            <h3 className="font-bold">Daily limit per category</h3>
            <p className="text-sm text-muted">At most this many units a day, across all orders (blank: no limit).</p>
            <ul className="mt-2 divide-y divide-line">
              {data.categories.map((c) => (
                <li key={c.id} className="flex items-center justify-between gap-3 py-2">
                  <label htmlFor={`limit-${c.id}`}>{c.name}</label>
                  <input id={`limit-${c.id}`} className={input} inputMode="numeric" defaultValue={c.dailyLimit ?? ""} onBlur={(e) => saveLimit(c.id, e.target.value, c.dailyLimit)} />
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="font-bold">Lead time per product (days)</h3>
            <p className="text-sm text-muted">The earliest day offered is today plus the longest lead time in the cart (at least 1).</p>
            <ul className="mt-2 max-h-96 divide-y divide-line overflow-y-auto">
              {data.products.map((p) => (
                <li key={p.id} className="flex items-center justify-between gap-3 py-2">
                  <label htmlFor={`lead-${p.id}`}>{p.name}</label>
                  <input id={`lead-${p.id}`} className={input} inputMode="numeric" defaultValue={p.leadTimeDays} onBlur={(e) => saveLead(p.id, e.target.value, p.leadTimeDays)} />
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      <StatusMessage message={flash.message} />
    </section>
  );
}
