import { randomInt, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { runAs, type Tx } from "@/server/db/as-caller";
import type { ShopDatabase } from "@/server/db/database";
import type { Order } from "@/server/db/schema";
import type { TestUser } from "./database";

/** Stores a (fake) proof of payment row for `user`, as `user`, the way the storage port does. */
export async function storeProof(trx: Tx, user: TestUser, name = `${Date.now()}_proof.png`): Promise<string> {
  const path = `${user.id}/${randomUUID().slice(0, 8)}_${name}`;
  await trx
    .insertInto("storage.objects")
    .values({ bucket_id: "payments", name: path, owner_id: user.id, metadata: JSON.stringify({ size: 1, mimetype: "image/png" }) })
    .execute();
  return path;
}

let nextReference = randomInt(1_000_000);

/**
 * A reference in the spec's format, distinct from every other this process made: a made-up one,
 * which place_order() refuses (only the customer's reserved reference is accepted).
 */
export function randomReference(): string {
  nextReference = (nextReference + 1) % 1_000_000;
  return `ORD-${nextReference}`;
}

/** The caller's open checkout reference (open_checkout_reference()): null while their cart is empty and none is reserved. */
export async function openReference(trx: Tx): Promise<string | null> {
  const { rows } = await sql<{ reference: string | null }>`select public.open_checkout_reference() as reference`.execute(trx);
  return rows[0]!.reference;
}

/** Calls place_order as `user` in `trx`. */
export async function callPlaceOrder(
  trx: Tx,
  args: { idempotencyKey: string; reference: string; proofPath: string | null },
): Promise<Order> {
  const { rows } = await sql<Order>`
    select * from public.place_order(${args.idempotencyKey}::uuid, ${args.reference}, ${args.proofPath})`.execute(trx);
  return rows[0]!;
}

/** Fills `user`'s cart with one of each product and places the order with their reserved reference, as `user`. */
export async function placeTestOrder(db: ShopDatabase, user: TestUser, productIds: string[]): Promise<Order> {
  return runAs(db.kysely, user.identity, async (trx) => {
    for (const productId of productIds) {
      await sql`select public.add_to_cart(${productId}::uuid)`.execute(trx);
    }
    const reference = (await openReference(trx))!;
    const proofPath = await storeProof(trx, user);
    return callPlaceOrder(trx, { idempotencyKey: randomUUID(), reference, proofPath });
  });
}
