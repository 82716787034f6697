import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAs } from "@/server/db/as-caller";
import { purgeExpiredRecords } from "@/server/privacy/retention";
import type { StoredObject } from "@/server/ports/storage";
import { attempt } from "../helpers/attempt";
import { createUser, freshDatabase, type TestDatabase, type TestUser } from "../helpers/database";
import { placeTestOrder } from "../helpers/orders";

/** The privacy notice's promises kept: old orders with their proofs, old messages and mails go. */
let db: TestDatabase;
let customer: TestUser;
let admin: TestUser;
let productId: string;
const removed: StoredObject[] = [];
const storage = { removeAsService: async (objects: StoredObject[]) => void removed.push(...objects) };

beforeAll(async () => {
  db = await freshDatabase();
  customer = await createUser(db);
  admin = await createUser(db, { role: "admin" });
  productId = (await db.kysely.selectFrom("products").select("id").where("available", "=", true).limit(1).executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await db?.close();
});

const yearsAgo = (years: number) => new Date(Date.now() - years * 365.25 * 86_400_000);

describe("expired records", () => {
  it("deletes orders older than 5 years with their lines, history and proof files; keeps younger ones", async () => {
    const old = await placeTestOrder(db, customer, [productId]);
    const young = await placeTestOrder(db, customer, [productId]);
    await db.kysely.updateTable("orders").set({ created_at: yearsAgo(5.1) }).where("id", "=", old.id).execute();
    await db.kysely.updateTable("orders").set({ created_at: yearsAgo(4.9) }).where("id", "=", young.id).execute();

    expect(await purgeExpiredRecords(db, storage)).toBe(1);
    const left = await db.kysely.selectFrom("orders").select("id").where("id", "in", [old.id, young.id]).execute();
    expect(left.map((row) => row.id)).toEqual([young.id]);
    expect(await db.kysely.selectFrom("order_items").select("id").where("order_id", "=", old.id).execute()).toEqual([]);
    expect(await db.kysely.selectFrom("order_status_events").select("id").where("order_id", "=", old.id).execute()).toEqual([]);
    expect(removed).toEqual([{ bucket: "payments", path: old.proof_path }]);
    // Again: nothing more to do.
    expect(await purgeExpiredRecords(db, storage)).toBe(0);
  });

  it("deletes contact messages and outbox mails older than 12 months", async () => {
    await runAs(db.kysely, { kind: "anon" }, (trx) => trx.insertInto("contact_messages").values({ name: "Old", email: "old@example.test", phone: null, message: "Long ago", read_at: null }).execute());
    await runAs(db.kysely, { kind: "anon" }, (trx) => trx.insertInto("contact_messages").values({ name: "New", email: "new@example.test", phone: null, message: "Just now", read_at: null }).execute());
    await db.kysely.updateTable("contact_messages").set({ created_at: yearsAgo(1.1) }).where("name", "=", "Old").execute();
    await db.kysely.updateTable("mail_outbox").set({ created_at: yearsAgo(1.1) }).where("data", "@>", sql<string>`${JSON.stringify({ name: "Old" })}::jsonb`).execute();

    await purgeExpiredRecords(db, storage);
    expect((await db.kysely.selectFrom("contact_messages").select("name").execute()).map((row) => row.name)).toEqual(["New"]);
    const mails = await db.kysely.selectFrom("mail_outbox").select(["template", "data"]).where("template", "=", "contact_message").execute();
    expect(mails.map((mail) => (mail.data as { name: string }).name)).toEqual(["New"]);
  });

  it("forgets inbound WhatsApp message ids after 30 days (Meta retries a webhook for up to 7)", async () => {
    await sql`insert into private.whatsapp_inbound_seen (message_id, received_at)
      values ('wamid.old', now() - interval '31 days'), ('wamid.recent', now() - interval '8 days')`.execute(db.kysely);
    await purgeExpiredRecords(db, storage);
    const { rows } = await sql<{ message_id: string }>`select message_id from private.whatsapp_inbound_seen order by message_id`.execute(db.kysely);
    expect(rows.map((row) => row.message_id)).toEqual(["wamid.recent"]);
  });

  it("is the server's own task: no customer or admin can call it", async () => {
    for (const user of [customer, admin]) {
      const result = await attempt(db, user.identity, (trx) => sql`select * from public.purge_expired_records()`.execute(trx));
      expect(result.ok).toBe(false);
    }
  });
});
