import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { listObjectFiles } from "@/server/platform/adapters/local/local-storage";
import { callerAs, TestBrowser, testStorageRoot } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { fileOf, makePng } from "../helpers/images";
import { placeTestOrder } from "../helpers/orders";

let db: TestDatabase;
let productId: string;

beforeAll(async () => {
  db = await freshDatabase();
  productId = (await db.kysely.selectFrom("products").select("id").executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

function avatarForm(file = fileOf(makePng(32, 32), "me.png")) {
  const form = new FormData();
  form.set("image", file);
  return form;
}

describe("profile", () => {
  it("keeps a new picture on the profile and removes the previous one", async () => {
    const user = await createUser(db);
    const first = await (await callerAs(db, user)).profile.uploadAvatar(avatarForm());
    expect(first.message).toBe(messages.profile.uploaded);
    const second = await (await callerAs(db, user)).profile.uploadAvatar(avatarForm(fileOf(makePng(16, 16), "new.png")));
    const profile = await db.kysely.selectFrom("profiles").select("avatar_path").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(second.avatarUrl).toBe(`/files/avatars/${profile.avatar_path!.split("/").map(encodeURIComponent).join("/")}`);
    const files = (await listObjectFiles(testStorageRoot(db))).filter((f) => f.startsWith(`avatars/${user.id}/`));
    expect(files).toEqual([`avatars/${profile.avatar_path}`]);
  });

  it("refuses a picture that is not an image, changing nothing", async () => {
    const user = await createUser(db);
    await expect((await callerAs(db, user)).profile.uploadAvatar(avatarForm(fileOf("hello", "me.png")))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await db.kysely.selectFrom("profiles").select("avatar_path").where("id", "=", user.id).executeTakeFirstOrThrow()).avatar_path).toBeNull();
  });

  it("a picture still on its way when the account is deleted is refused, and neither file nor row is kept", async () => {
    const user = await createUser(db);
    // The upload's request was already in (its caller resolved) when the account went in another tab.
    const inFlight = await callerAs(db, user);
    await (await callerAs(db, user)).profile.deleteAccount();
    await expect(inFlight.profile.uploadAvatar(avatarForm())).rejects.toMatchObject({ code: "UNAUTHORIZED", message: messages.profile.accountGone });
    expect((await listObjectFiles(testStorageRoot(db))).filter((f) => f.startsWith(`avatars/${user.id}/`))).toEqual([]);
    expect(await db.kysely.selectFrom("storage.objects").select("name").where("bucket_id", "=", "avatars").where("name", "like", `${user.id}/%`).execute()).toEqual([]);
    expect(await db.kysely.selectFrom("profiles").select("id").where("id", "=", user.id).execute()).toEqual([]);
  });

  it("deleting the account ends sign-in, keeps the orders for the admin, and leaves no pictures", async () => {
    const browser = new TestBrowser(db);
    const email = "leaving@example.test";
    await browser.call((c) => c.auth.signUp({ fullName: "Leaving Customer", email, password: "goodbye-2026", confirmPassword: "goodbye-2026", acceptTerms: true }));
    const me = (await browser.call((c) => c.auth.session()))!;
    await browser.call((c) => c.profile.uploadAvatar(avatarForm()));
    const order = await placeTestOrder(db, { id: me.id, email, identity: { kind: "user", id: me.id, email } }, [productId]);

    await browser.call((c) => c.profile.deleteAccount());
    expect(await browser.call((c) => c.auth.session())).toBeNull();
    await expect(new TestBrowser(db).call((c) => c.auth.signIn({ email, password: "goodbye-2026" }))).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    const admin = await callerAs(db, await createUser(db, { role: "admin" }));
    const [kept] = (await admin.adminOrders.list({ search: order.reference })).orders;
    expect(kept).toMatchObject({ id: order.id, customerName: "Leaving Customer", customerEmail: email });
    expect(await db.kysely.selectFrom("profiles").select("id").where("id", "=", me.id).execute()).toEqual([]);
    expect(await db.kysely.selectFrom("cart_items").select("id").where("user_id", "=", me.id).execute()).toEqual([]);
    expect((await listObjectFiles(testStorageRoot(db))).filter((f) => f.startsWith(`avatars/${me.id}/`))).toEqual([]);
  });
});
