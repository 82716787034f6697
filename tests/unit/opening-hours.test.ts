import { describe, expect, it } from "vitest";
import { openingHoursMessages } from "@/lib/messages";
import { defaultOpeningHours, formatOpeningHours, type OpeningDay } from "@/lib/opening-hours";

const day = (weekday: number, opens: string, closes: string, open = true): OpeningDay => ({ weekday, open, opens, closes });

describe("formatOpeningHours", () => {
  it("words a new shop's week", () => {
    expect(formatOpeningHours(defaultOpeningHours())).toBe("Mon–Fri 09:00–16:00");
  });

  it("groups days by their hours, runs of three or more as a range, closed days left out", () => {
    const week = [day(1, "08:00", "17:00"), day(2, "08:00", "17:00"), day(3, "08:00", "17:00", false), day(4, "08:00", "17:00"), day(5, "08:00", "17:00"), day(6, "09:00", "13:00"), day(7, "09:00", "13:00")];
    expect(formatOpeningHours(week)).toBe("Mon, Tue, Thu, Fri 08:00–17:00, Sat, Sun 09:00–13:00");
  });

  it("takes only the open days, in any order, as the mails carry them", () => {
    expect(formatOpeningHours([{ weekday: 6, opens: "09:00", closes: "13:00" }, { weekday: 1, opens: "09:00", closes: "16:00" }])).toBe("Mon 09:00–16:00, Sat 09:00–13:00");
  });

  it("says so when no day is open", () => {
    expect(formatOpeningHours(defaultOpeningHours().map((d) => ({ ...d, open: false })))).toBe(openingHoursMessages.closedAllWeek);
  });
});
