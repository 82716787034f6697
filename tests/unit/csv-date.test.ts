import { afterEach, describe, expect, it } from "vitest";
import { csvDate } from "@/server/orders/orders-csv";

/**
 * The CSV exports format every row's date: with one formatter made once, not one per row. A new
 * Intl.DateTimeFormat per row kept ICU objects in native memory until V8 happened to collect their
 * wrappers, and the overview's CSV of 100,000 orders grew the server by ~100 MB (BENCHMARKS.md,
 * "The owner's books at 100,000 orders").
 */
const Original = Intl.DateTimeFormat;

afterEach(() => {
  Intl.DateTimeFormat = Original;
});

describe("csvDate", () => {
  it("formats in South African time, 23:30 and 00:30 either side of midnight", () => {
    expect(csvDate(new Date("2026-11-24T21:30:00Z"))).toBe("2026-11-24 23:30");
    expect(csvDate(new Date("2026-11-24T22:30:00Z"))).toBe("2026-11-25 00:30");
  });

  it("makes no formatter per call", () => {
    let made = 0;
    Intl.DateTimeFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        made++;
        return new target(...args);
      },
      apply(target, _this, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        made++;
        return target(...args);
      },
    });
    for (let i = 0; i < 1000; i++) csvDate(new Date(Date.UTC(2026, 0, 1) + i * 3_600_000));
    expect(made).toBe(0);
  });
});
