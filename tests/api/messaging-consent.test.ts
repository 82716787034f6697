import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { consentWords, toE164 } from "@/server/messaging/schemas";
import type { WhatsAppSettings } from "@/server/platform/adapters/whatsapp/cloud-api";
import { trpcRefusal } from "../helpers/attempt";
import { callerAs } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";

/**
 * WhatsApp consent, POPIA-shaped (issue 40): a number in E.164 checked with libphonenumber-js, two
 * separate choices, each consent a row with its time, source and words; unticking withdraws at
 * once; the data export shows them and deleting the account deletes them.
 */
let db: TestDatabase;
const whatsapp: WhatsAppSettings = { phoneNumberId: "1234567890", accessToken: "token", appSecret: "secret", verifyToken: "verify-token-verify-token" };

beforeAll(async () => {
  db = await freshDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe("phone numbers", () => {
  it("takes South African numbers as typed and international ones with their code, in E.164", () => {
    expect(toE164("082 123 4567")).toBe("+27821234567");
    expect(toE164("+27 82 123 4567")).toBe("+27821234567");
    expect(toE164("0027821234567")).toBe("+27821234567");
    expect(toE164("+44 7911 123456")).toBe("+447911123456");
    expect(toE164("+1 415 555 2671")).toBe("+14155552671");
    for (const wrong of ["", "12", "082 123", "not a number", "+27 82 123 4567 890", "+44 7700 900123"]) expect(toE164(wrong), wrong).toBeNull();
  });
});

describe("consents", () => {
  it("records each choice apart with its time, source and the words shown; unticking withdraws it at once", async () => {
    const user = await createUser(db, { fullName: "Thandi Mokoena" });
    const caller = await callerAs(db, user, { whatsapp });
    expect(await caller.messaging.myConsents()).toEqual({ whatsappOn: true, whatsappUpdates: null, offers: null });

    const refused = await trpcRefusal(caller.messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: "082 123" }));
    expect(refused.message).toBe(messages.consent.invalidPhone);

    const before = Date.now();
    await caller.messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: "082 123 4567" });
    const mine = await caller.messaging.myConsents();
    expect(mine.whatsappUpdates?.phone).toBe("+27821234567");
    expect(mine.offers).toBeNull();
    const [row] = await db.kysely.selectFrom("messaging_consents").selectAll().where("user_id", "=", user.id).execute();
    expect(row).toMatchObject({ kind: "whatsapp_updates", source: "profile", words: consentWords("whatsapp_updates"), withdrawn_at: null });
    expect(new Date(row!.given_at).getTime()).toBeGreaterThanOrEqual(before - 1000);

    await caller.messaging.setConsent({ kind: "offers", given: true, phone: "+44 7911 123456" });
    await caller.messaging.setConsent({ kind: "whatsapp_updates", given: false });
    const after = await caller.messaging.myConsents();
    expect(after.whatsappUpdates).toBeNull();
    expect(after.offers?.phone).toBe("+447911123456");
    const withdrawn = await db.kysely.selectFrom("messaging_consents").selectAll().where("id", "=", row!.id).executeTakeFirstOrThrow();
    expect(withdrawn.withdrawn_via).toBe("profile");
    expect(withdrawn.withdrawn_at).not.toBeNull();

    // The export holds both, the withdrawn one with its withdrawal.
    const exported = await caller.profile.exportData();
    expect(exported.messagingConsents).toHaveLength(2);
    expect(exported.messagingConsents[0]).toMatchObject({ kind: "whatsapp_updates", phone: "+27821234567", where: "profile", wordsShown: consentWords("whatsapp_updates"), withdrawnBy: "profile" });
    expect(exported.messagingConsents[1]).toMatchObject({ kind: "offers", withdrawnAt: null });

    // Deleting the account deletes them.
    await caller.profile.deleteAccount();
    expect(await db.kysely.selectFrom("messaging_consents").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("records where a consent was given: the profile, sign-up or checkout", async () => {
    const user = await createUser(db);
    const caller = await callerAs(db, user, { whatsapp });
    await caller.messaging.setConsent({ kind: "offers", given: true, phone: "0821234569", source: "signup" });
    await caller.messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: "0821234569", source: "checkout" });
    const rows = await db.kysely.selectFrom("messaging_consents").select(["kind", "source"]).where("user_id", "=", user.id).orderBy("given_at").execute();
    expect(rows).toEqual([
      { kind: "offers", source: "signup" },
      { kind: "whatsapp_updates", source: "checkout" },
    ]);
  });

  it("asks nothing while the shop has no WhatsApp: no choice shown, none recorded", async () => {
    const user = await createUser(db);
    const caller = await callerAs(db, user);
    expect((await caller.messaging.myConsents()).whatsappOn).toBe(false);
    await trpcRefusal(caller.messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: "082 123 4567" }));
    expect(await db.kysely.selectFrom("messaging_consents").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("a customer cannot record a consent for someone else: the function takes the caller's own id", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    await (await callerAs(db, a, { whatsapp })).messaging.setConsent({ kind: "whatsapp_updates", given: true, phone: "0821234568" });
    await (await callerAs(db, b, { whatsapp })).messaging.setConsent({ kind: "whatsapp_updates", given: false });
    const rows = await db.kysely.selectFrom("messaging_consents").select(["user_id", "withdrawn_at"]).where("user_id", "in", [a.id, b.id]).execute();
    expect(rows).toEqual([{ user_id: a.id, withdrawn_at: null }]);
  });
});
