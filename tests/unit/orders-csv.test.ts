import { describe, expect, it } from "vitest";
import { csvDate, csvField, itemsText, ordersCsv, ordersCsvFileName } from "@/server/orders/orders-csv";
import type { OrderExportRow } from "@/server/orders/order-queries";
import { parseCsv } from "../helpers/csv";

const order = (fields: Partial<OrderExportRow> = {}): OrderExportRow => ({
  reference: "ORD-123",
  createdAt: new Date("2026-11-24T12:05:00Z"),
  customerName: "Thandi Nkosi",
  customerEmail: "thandi@example.test",
  total: "149.50",
  status: "pending_payment",
  items: [
    { quantity: 2, name: "Chicken pie" },
    { quantity: 1, name: "Noodles" },
  ],
  ...fields,
});

describe("orders CSV", () => {
  describe("a field", () => {
    it("stays as it is when nothing in it needs quoting", () => {
      expect(csvField("Thandi Nkosi")).toBe("Thandi Nkosi");
      expect(csvField("149.50")).toBe("149.50");
      expect(csvField("")).toBe("");
    });

    it("is quoted, with its quotes doubled, when it holds a comma, a quote or a line break", () => {
      expect(csvField("Nkosi, Thandi")).toBe('"Nkosi, Thandi"');
      expect(csvField('The "Pie" Shop')).toBe('"The ""Pie"" Shop"');
      expect(csvField("line one\nline two")).toBe('"line one\nline two"');
      expect(csvField("a\r\nb")).toBe('"a\r\nb"');
    });

    it("that a spreadsheet would run as a formula starts with a quote mark instead", () => {
      for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
        expect(csvField(`${start}1+1`).replace(/^"/, "")).toMatch(/^'/);
      }
      expect(csvField('=HYPERLINK("http://evil.example","Click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
      expect(csvField("-5")).toBe("'-5");
      // Only the first character counts: a hyphen inside a name is a hyphen.
      expect(csvField("Mary-Jane")).toBe("Mary-Jane");
    });
  });

  it("lists items as quantity × name, separated by semicolons", () => {
    expect(itemsText(order().items)).toBe("2 × Chicken pie; 1 × Noodles");
    expect(itemsText([])).toBe("");
  });

  it("writes dates and the file name in South African time, whatever the server's zone", () => {
    expect(csvDate(new Date("2026-11-24T12:05:00Z"))).toBe("2026-11-24 14:05");
    // 23:30 UTC is already the next day in Johannesburg.
    expect(csvDate(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01 01:30");
    expect(ordersCsvFileName(new Date("2026-12-31T23:30:00Z"))).toBe("orders-2027-01-01.csv");
  });

  it("is UTF-8 text with a byte-order mark, a header, CRLF line ends, and reads back to what was written", () => {
    const awkward = '=cmd|" /C calc"!A0, "Zoë" O\'Neil';
    const csv = ordersCsv([order(), order({ reference: "ORD-7", customerName: awkward, customerEmail: "+27@example.test", total: "1200.00", status: "cancelled", items: [{ quantity: 3, name: "Pie, large" }] })]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.replace(/\r\n/g, "").includes("\n")).toBe(false);
    expect(parseCsv(csv.slice(1))).toEqual([
      ["Reference", "Date", "Customer", "E-mail", "Items", "Total", "Status"],
      ["ORD-123", "2026-11-24 14:05", "Thandi Nkosi", "thandi@example.test", "2 × Chicken pie; 1 × Noodles", "149.50", "Pending Payment"],
      ["ORD-7", "2026-11-24 14:05", `'${awkward}`, "'+27@example.test", "3 × Pie, large", "1200.00", "Cancelled"],
    ]);
  });

  it("with no orders is the header alone", () => {
    expect(ordersCsv([])).toBe("\uFEFFReference,Date,Customer,E-mail,Items,Total,Status\r\n");
  });
});
