import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_VALUES } from "@/server/settings/demo-values";

/** The demo values are defined once (demo-values.ts); supabase/seed.sql, which cannot import them, repeats them. */
describe("the demo values", () => {
  it("are the ones supabase/seed.sql inserts", () => {
    const seed = fs.readFileSync("supabase/seed.sql", "utf8");
    const expected = [DEMO_VALUES.phone, DEMO_VALUES.email, DEMO_VALUES.address, DEMO_VALUES.informationOfficerName, DEMO_VALUES.bank.accountNumber, DEMO_VALUES.legalNames[0]];
    for (const value of expected) expect(seed, value).toContain(`'${value}'`);
  });
});
