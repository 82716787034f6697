import { describe, expect, it } from "vitest";
import { mergeRows, toRow } from "@/components/admin/products/variant-row";
import type { AdminVariant } from "@/server/products/product-queries";

const variant = (id: string, patch: Partial<AdminVariant> = {}): AdminVariant => ({
  id,
  optionValues: [id.toUpperCase()],
  sku: null,
  price: null,
  available: true,
  stock: 5,
  lowStockAt: null,
  pictureId: null,
  ...patch,
});

/** The admin's variants grid read again while it is open (issue 37): what it keeps and what it takes. */
describe("mergeRows", () => {
  it("takes what is read again for rows not touched, and for rows that say what was saved", () => {
    const before = [variant("s"), variant("m")];
    const typed = [toRow(before[0]!), { ...toRow(before[1]!), price: "199" }];
    // M's price was saved ("199.00" as stored); an order took 2 of S meanwhile.
    const after = [variant("s", { stock: 3 }), variant("m", { price: "199.00" })];
    expect(mergeRows(typed, before, after)).toEqual([toRow(after[0]!), toRow(after[1]!)]);
  });

  it("keeps edits not yet saved, with the stock they were read with", () => {
    const before = [variant("s")];
    const typed = [{ ...toRow(before[0]!), stock: "12" }];
    const after = [variant("s", { stock: 3 })];
    const [row] = mergeRows(typed, before, after);
    expect(row).toMatchObject({ stock: "12", stockWas: 5 });
  });

  it("drops rows of variants that are gone and adds new ones", () => {
    const before = [variant("s")];
    const after = [variant("l")];
    expect(mergeRows([toRow(before[0]!)], before, after)).toEqual([toRow(after[0]!)]);
  });
});
