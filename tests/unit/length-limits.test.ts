import { describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { contactInput } from "@/server/contact/schemas";
import { fulfilmentChoice } from "@/server/fulfilment/schemas";
import { createProductInput } from "@/server/products/schemas";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("over-long input is refused with a clear message, never cut", () => {
  it("a product name over 120 characters", () => {
    const form = new FormData();
    form.set("name", "x".repeat(121));
    form.set("price", "10");
    form.set("categoryId", "00000000-0000-4000-8000-000000000000");
    form.set("image", new File([new Uint8Array([1])], "a.png", { type: "image/png" }));
    expect(firstMessage(createProductInput.safeParse(form))).toBe("A product name can be at most 120 characters.");
  });

  it("a delivery address over 300 characters says it is too long, not that it is missing", () => {
    const choice = { method: "delivery", day: "2026-12-02", areaId: "00000000-0000-4000-8000-000000000000", address: "1 Long Street ".repeat(30) };
    expect(firstMessage(fulfilmentChoice.safeParse(choice))).toBe(messages.fulfilment.addressTooLong);
  });

  it("a contact message over 5000 characters", () => {
    const result = contactInput.safeParse({ name: "Thandi", email: "thandi@example.test", phone: "", message: "m".repeat(5001) });
    expect(firstMessage(result)).toMatch(/at most 5000 characters/);
  });
});
