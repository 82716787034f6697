import type { OrderStatus } from "@/lib/statuses";

/** The query string of Order Management's filters ("" when none): the tabs, the export and the day links share it. */
export function filterParams(status: OrderStatus | undefined, search: string | undefined, day?: string) {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (search) params.set("q", search);
  if (day) params.set("day", day);
  return params.size ? `?${params}` : "";
}
