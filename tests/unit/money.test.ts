import { describe, expect, it } from "vitest";
import { formatAverageRand, formatRand, formatRand2 } from "@/lib/money";

describe("money as the shop shows it", () => {
  it("shows rands with R and no separators, two decimals where asked", () => {
    expect(formatRand(150)).toBe("R150");
    expect(formatRand("149.5")).toBe("R149.50");
    expect(formatRand2(0)).toBe("R0.00");
  });

  it("shows an average with no orders as R0.00, in the same style as the figures beside it", () => {
    expect(formatAverageRand("0", 0)).toBe("R0.00");
    expect(formatAverageRand("0.00", 0)).toBe(formatRand2("0.00"));
    expect(formatAverageRand("100.00", 3)).toBe("R33.33");
    expect(formatAverageRand("300", 2)).toBe("R150.00");
  });
});
