"use client";

import { messages } from "@/lib/messages";
import { api, type RouterOutputs } from "@/trpc/react";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { ClosedDays } from "./closed-days";
import { CollectionAndHoursForm } from "./collection-and-hours-form";
import { DeliveryAreas } from "./delivery-areas";

const m = messages.fulfilment;

/**
 * Delivery and collection (docs/delivery-and-collection.md): collection on or off, the cut-off
 * for next-day orders, the opening hours per weekday (checkout offers open days only), delivery
 * areas with fees and minimums, closed days.
 * Saved in the database; checkout reads them on its next load.
 */
export function FulfilmentSettingsForm() {
  const settings = api.fulfilment.settings.useQuery();
  if (settings.isPending) return <p role="status">{messages.loading}</p>;
  if (settings.isError) return <p role="alert" className="text-danger">{messages.settings.loadFailed}</p>;
  return <FulfilmentFields saved={settings.data} />;
}

/** The three parts, each saved on its own, with one message for all of them under the last. */
function FulfilmentFields({ saved }: { saved: RouterOutputs["fulfilment"]["settings"] }) {
  const flash = useFlashMessage();
  return (
    <section aria-labelledby="fulfilment-heading" className="space-y-8 rounded-3xl border border-line bg-white p-6" data-testid="fulfilment-settings">
      <h2 id="fulfilment-heading" className="text-xl font-bold">
        {m.settingsTitle}
      </h2>
      <p className="text-sm text-muted">Checkout asks customers for delivery or collection and a day once collection is on or there is at least one delivery area.</p>
      <CollectionAndHoursForm saved={saved.settings} show={flash.show} />
      <DeliveryAreas areas={saved.areas} show={flash.show} />
      <ClosedDays days={saved.closedDays} show={flash.show} />
      <StatusMessage message={flash.message} />
    </section>
  );
}
