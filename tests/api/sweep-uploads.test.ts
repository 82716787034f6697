import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, listObjectFiles, sweepUnclaimedUploads } from "@/server/platform/adapters/local/local-storage";
import { scopedDb } from "@/server/db/as-caller";
import { removeQuietly, storeThenWrite } from "@/server/storage/store-upload";
import { testStorageRoot } from "../helpers/browser";
import { createUser, freshDatabase, type TestDatabase } from "../helpers/database";
import { makePng } from "../helpers/images";
import { placeTestOrder } from "../helpers/orders";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.close();
});

describe("sweeping what interrupted uploads leave behind (start-up, after a crash)", () => {
  it("removes unclaimed rows and stray files, keeps everything an order, profile or product points to", async () => {
    const root = testStorageRoot(db);
    const storage = createLocalStorage(root, db.kysely);
    const customer = await createUser(db);
    const asCustomer = scopedDb(db.kysely, customer.identity);
    const [product] = await db.kysely.selectFrom("products").select("id").limit(1).execute();

    // Kept: a placed order's proof (its row; the helper stores no bytes) and the avatar a profile shows.
    const order = await placeTestOrder(db, customer, [product!.id]);
    const claimed = { bucket: "payments" as const, path: order.proof_path! };
    const avatar = { bucket: "avatars" as const, path: `${customer.id}/1_me.png` };
    await storeThenWrite({ db: asCustomer, storage }, { object: avatar, bytes: makePng(), contentType: "image/png" }, (trx) =>
      trx.updateTable("profiles").set({ avatar_path: avatar.path }).where("id", "=", customer.id).execute(),
    );

    // Left by crashes: an uploaded proof no order claims, a file with no row, a half-written file.
    const unclaimed = { bucket: "payments" as const, path: `${customer.id}/2_lost.png` };
    await storeThenWrite({ db: asCustomer, storage }, { object: unclaimed, bytes: makePng(), contentType: "image/png" }, async () => undefined);
    fs.mkdirSync(path.join(root, "payments", customer.id), { recursive: true });
    fs.writeFileSync(path.join(root, "payments", customer.id, "3_norow.png"), makePng());
    fs.writeFileSync(path.join(root, "payments", customer.id, "4_half.png.abc.partial"), "half");

    // Newer than the cutoff: an upload that may still be in flight is left alone.
    const early = await sweepUnclaimedUploads(root, db.kysely, new Date(Date.now() - 60_000));
    expect(early).toEqual({ rows: 0, files: 0 });

    const swept = await sweepUnclaimedUploads(root, db.kysely, new Date(Date.now() + 1_000));
    expect(swept).toEqual({ rows: 1, files: 3 });
    const files = (await listObjectFiles(root)).sort();
    expect(files).toEqual([path.join("avatars", avatar.path)]);
    const rows = await db.kysely.selectFrom("storage.objects").select(["bucket_id", "name"]).orderBy("name").execute();
    expect(rows.map((r) => `${r.bucket_id}/${r.name}`).sort()).toEqual([`avatars/${avatar.path}`, `payments/${claimed.path}`].sort());
  });
});

describe("removing an upload's bytes (local)", () => {
  it("keeps the bytes while a committed row names them, as after a commit whose answer was lost", async () => {
    const root = testStorageRoot(db);
    const storage = createLocalStorage(root, db.kysely);
    const customer = await createUser(db);
    const asCustomer = scopedDb(db.kysely, customer.identity);
    const kept = { bucket: "avatars" as const, path: `${customer.id}/5_kept.png` };
    await storeThenWrite({ db: asCustomer, storage }, { object: kept, bytes: makePng(), contentType: "image/png" }, async () => undefined);

    await storage.remove(kept);
    expect(await listObjectFiles(root)).toContain(path.join("avatars", kept.path));

    // As the caller: the row goes first (the policies let the owner), then the bytes.
    await removeQuietly({ db: asCustomer, storage }, kept, "a test picture");
    expect(await listObjectFiles(root)).not.toContain(path.join("avatars", kept.path));
    expect(await db.kysely.selectFrom("storage.objects").select("id").where("name", "=", kept.path).execute()).toEqual([]);
  });

  it("a caller the policies refuse removes neither row nor bytes", async () => {
    const root = testStorageRoot(db);
    const storage = createLocalStorage(root, db.kysely);
    const owner = await createUser(db);
    const stranger = scopedDb(db.kysely, (await createUser(db)).identity);
    const theirs = { bucket: "avatars" as const, path: `${owner.id}/6_theirs.png` };
    await storeThenWrite({ db: scopedDb(db.kysely, owner.identity), storage }, { object: theirs, bytes: makePng(), contentType: "image/png" }, async () => undefined);

    await removeQuietly({ db: stranger, storage }, theirs, "someone else's picture");
    expect(await listObjectFiles(root)).toContain(path.join("avatars", theirs.path));
    expect(await db.kysely.selectFrom("storage.objects").select("owner_id").where("name", "=", theirs.path).execute()).toEqual([{ owner_id: owner.id }]);
  });
});
