import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressAllowed, addressList, amountToCents } from "@/server/platform/adapters/payfast/payfast";
import { CHECKOUT_FIELD_ORDER, checkoutSignature, notificationSignature, phpUrlencode } from "@/server/platform/adapters/payfast/signature";
import { referenceCheckoutSignature, referenceItnSignature, referenceUrlencode } from "../helpers/fake-payfast";

/**
 * PayFast's signatures against a reference written differently (tests/helpers/fake-payfast.ts:
 * encodeURIComponent plus PHP's extra escapes), for any text: the characters that differ between
 * PHP's urlencode and JavaScript's encoders (& ' ~ ! * ( ) and spaces), accents and emoji, blank
 * fields and passphrases with spaces.
 */

/** Text rich in what encoders disagree on. */
const awkward = fc.oneof(
  fc.string({ unit: fc.constantFrom("&", "'", "é", "~", " ", "!", "*", "(", ")", "+", "%", "=", "a", "Z", "0", "-", "_", ".", "/", ":", "ü", "😀", "\n") }),
  fc.string({ unit: "grapheme" }),
);

describe("PHP urlencode", () => {
  it("matches the reference for any text", () => {
    fc.assert(
      fc.property(awkward, (text) => {
        expect(phpUrlencode(text)).toBe(referenceUrlencode(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("encodes what JavaScript's encoders leave alone, upper-case, spaces as +", () => {
    expect(phpUrlencode("Tom & Jerry's ~café (1)*!")).toBe("Tom+%26+Jerry%27s+%7Ecaf%C3%A9+%281%29%2A%21");
  });
});

describe("the checkout signature", () => {
  const fields = fc.dictionary(fc.constantFrom(...CHECKOUT_FIELD_ORDER), fc.oneof(awkward, fc.constant(""), fc.constant("  ")), { maxKeys: CHECKOUT_FIELD_ORDER.length });
  it("matches the reference: documented order whatever the given order, blanks left out, values trimmed, the passphrase appended", () => {
    fc.assert(
      fc.property(fields, fc.oneof(awkward, fc.constant(""), fc.constant("pass phrase with spaces")), (values, passphrase) => {
        expect(checkoutSignature(values, passphrase)).toBe(referenceCheckoutSignature(values, passphrase));
      }),
      { numRuns: 1000 },
    );
  });

  it("does not depend on the order the fields are given in, and changes with any value", () => {
    const values = { amount: "150.00", merchant_id: "10000100", item_name: "Order ORD-1", merchant_key: "46f0cd694581a", custom_str1: "" };
    const reordered = { custom_str1: "", item_name: "Order ORD-1", merchant_key: "46f0cd694581a", amount: "150.00", merchant_id: "10000100" };
    expect(checkoutSignature(values, "salt")).toBe(checkoutSignature(reordered, "salt"));
    expect(checkoutSignature({ ...values, amount: "150.01" }, "salt")).not.toBe(checkoutSignature(values, "salt"));
    expect(checkoutSignature(values, "")).not.toBe(checkoutSignature(values, "salt"));
  });
});

describe("the ITN signature", () => {
  const itn = fc.array(fc.tuple(fc.stringMatching(/^[a-z_0-9]{1,20}$/), fc.oneof(awkward, fc.constant(""))), { minLength: 1, maxLength: 25 });
  it("matches the reference: every field but the signature in the order received, blanks included", () => {
    fc.assert(
      fc.property(itn, fc.oneof(awkward, fc.constant("")), (fields, passphrase) => {
        const signed = fields.filter(([name]) => name !== "signature");
        fc.pre(signed.length > 0);
        const withSignature: [string, string][] = [...signed, ["signature", "x"]];
        expect(notificationSignature(withSignature, passphrase)).toBe(referenceItnSignature(withSignature, passphrase));
      }),
      { numRuns: 1000 },
    );
  });

  it("depends on the order received and on blank fields", () => {
    const fields: [string, string][] = [["m_payment_id", "a"], ["custom_str2", ""], ["amount_gross", "10.00"]];
    expect(notificationSignature(fields, "")).not.toBe(notificationSignature([fields[0]!, fields[2]!], ""));
    expect(notificationSignature(fields, "")).not.toBe(notificationSignature([fields[2]!, fields[1]!, fields[0]!], ""));
  });
});

describe("PayFast's sender addresses and amounts", () => {
  const list = addressList(["197.97.145.144/28", "41.74.179.192/27", "144.126.193.139", "::1"]);
  it("accepts the ranges, IPv4-mapped IPv6 too, and nothing else", () => {
    expect(addressAllowed(list, "197.97.145.144")).toBe(true);
    expect(addressAllowed(list, "197.97.145.159")).toBe(true);
    expect(addressAllowed(list, "197.97.145.160")).toBe(false);
    expect(addressAllowed(list, "::ffff:41.74.179.223")).toBe(true);
    expect(addressAllowed(list, "41.74.179.224")).toBe(false);
    expect(addressAllowed(list, "144.126.193.139")).toBe(true);
    expect(addressAllowed(list, "::1")).toBe(true);
    expect(addressAllowed(list, "unknown")).toBe(false);
    expect(() => addressList(["not-an-address"])).toThrow(/Not an address/);
    expect(() => addressList(["10.0.0.0/33"])).toThrow(/Not a CIDR range/);
  });

  it("reads amounts to the cent, and nothing else as an amount", () => {
    expect(amountToCents("1250.00")).toBe(125_000);
    expect(amountToCents("0.01")).toBe(1);
    expect(amountToCents("99.9")).toBe(9_990);
    expect(amountToCents("12")).toBe(1_200);
    for (const bad of ["", "1,000.00", "1e3", "12.345", "R12.00", " ", "NaN"]) expect(amountToCents(bad)).toBeNull();
  });
});
