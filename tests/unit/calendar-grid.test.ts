import { describe, expect, it } from "vitest";
import { calendarGrid } from "@/lib/calendar-grid";

/** A booking at South African (UTC+2) times of a day. */
function at(day: string, from: string, to: string, id = `${day} ${from}`) {
  const startsAt = new Date(`${day}T${from}:00+02:00`);
  let endsAt = new Date(`${day}T${to}:00+02:00`);
  if (endsAt <= startsAt) endsAt = new Date(endsAt.getTime() + 24 * 3_600_000);
  return { id, startsAt, endsAt };
}

const WEEK = ["2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11", "2026-12-12", "2026-12-13"];

describe("the bookings calendar's grid", () => {
  it("shows the working hours 08:00 to 18:00 when nothing is booked", () => {
    const grid = calendarGrid([], WEEK);
    expect(grid.hours).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(grid.startingIn("2026-12-10", 10)).toEqual([]);
  });

  it("puts each booking in the South African hour and day it starts, by start, and shades the hours it still runs", () => {
    const clean = at("2026-12-10", "10:00", "12:30", "clean");
    const early = at("2026-12-10", "10:30", "11:00", "early");
    const grid = calendarGrid([early, clean], WEEK);
    expect(grid.startingIn("2026-12-10", 10).map((booking) => booking.id)).toEqual(["clean", "early"]);
    expect([9, 10, 11, 12, 13].map((hour) => grid.runningIn("2026-12-10", hour))).toEqual([false, false, true, true, false]);
    expect(grid.startingIn("2026-12-11", 10)).toEqual([]);
  });

  it("widens to bookings before and after the working hours, and runs one past midnight to the day's last hour", () => {
    const grid = calendarGrid([at("2026-12-08", "06:30", "07:30"), at("2026-12-09", "22:00", "00:30")], WEEK);
    expect(grid.hours[0]).toBe(6);
    expect(grid.hours.at(-1)).toBe(23);
    expect(grid.startingIn("2026-12-09", 22)).toHaveLength(1);
    expect(grid.runningIn("2026-12-09", 23)).toBe(true);
    // 23:30 South African is the 9th there, though it is 21:30 UTC.
    expect(calendarGrid([at("2026-12-09", "23:30", "00:30", "late")], WEEK).startingIn("2026-12-09", 23).map((booking) => booking.id)).toEqual(["late"]);
  });

  it("leaves out bookings of days it does not show", () => {
    const grid = calendarGrid([at("2026-12-14", "05:00", "06:00")], WEEK);
    expect(grid.hours[0]).toBe(8);
    expect(WEEK.flatMap((day) => grid.hours.flatMap((hour) => grid.startingIn(day, hour)))).toEqual([]);
  });
});
