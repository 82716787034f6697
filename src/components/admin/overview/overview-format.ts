import { formatAverageRand, formatRand2 } from "@/lib/money";

const dayFormat = new Intl.DateTimeFormat("en-ZA", { day: "numeric", month: "short", timeZone: "UTC" });

/** "3 Nov" for a 2026-11-03 day. */
export const shortDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
export const ordersText = (n: number) => `${n} order${n === 1 ? "" : "s"}`;
/** The part of a revenue figure that was delivery fees, counted apart from goods (issue 27). */
export function withFees(fees: string): string {
  return `of which delivery fees ${formatRand2(fees)}`;
}

/** Revenue divided by orders, in the overview's one style (R0.00 when there were none). */
export const average = formatAverageRand;
