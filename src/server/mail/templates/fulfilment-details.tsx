import { formatDay } from "@/lib/days";
import { formatRand } from "@/lib/money";
import { formatOpeningHours } from "@/lib/opening-hours";
import type { MailData } from "../schemas";
import { Details, MailSubheading, Panel } from "./layout";

type Fulfilment = NonNullable<MailData<"order_received">["fulfilment"]>;

/** The rows that say how and when an order reaches the customer (docs/architecture.md#delivery-and-collection). */
export function fulfilmentRows(fulfilment: Fulfilment): [string, string][] {
  if (fulfilment.method === "collection") {
    return [
      ["Collection", formatDay(fulfilment.day)],
      ...(fulfilment.collectionAddress ? [["Collect from", fulfilment.collectionAddress] as [string, string]] : []),
      ...(fulfilment.openingHours
        ? [["Hours", formatOpeningHours(fulfilment.openingHours)] as [string, string]]
        : fulfilment.collectionHours
          ? [["Hours", fulfilment.collectionHours] as [string, string]]
          : []),
    ];
  }
  return [
    ["Delivery", formatDay(fulfilment.day)],
    ["Address", [fulfilment.address, fulfilment.area].filter(Boolean).join(", ")],
    ["Delivery fee", formatRand(fulfilment.fee)],
  ];
}

/** The customer's mail: a section with the method, day and address. */
export function FulfilmentDetails({ fulfilment }: { fulfilment: Fulfilment | undefined }) {
  if (!fulfilment) return null;
  return (
    <>
      <MailSubheading>{fulfilment.method === "delivery" ? "Delivery" : "Collection"}</MailSubheading>
      <Panel>
        <Details rows={fulfilmentRows(fulfilment)} />
      </Panel>
    </>
  );
}
