/** When an order was placed or changed, in the shop's time zone ("26 Nov 2026, 14:05"). */
export const orderTimeFormat = new Intl.DateTimeFormat("en-ZA", { dateStyle: "medium", timeStyle: "short", timeZone: "Africa/Johannesburg" });
