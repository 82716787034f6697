import { sql } from "kysely";
import type { Tx } from "@/server/db/as-caller";
import type { ConsentKind, ConsentSource } from "@/lib/statuses";

/** The caller's consents, live and withdrawn, newest first (RLS: their own). */
export async function listOwnConsents(trx: Tx, userId: string) {
  return trx
    .selectFrom("messaging_consents")
    .select(["id", "kind", "phone", "source", "words", "given_at", "withdrawn_at", "withdrawn_via"])
    .where("user_id", "=", userId)
    .orderBy("given_at", "desc")
    .orderBy("id")
    .execute();
}

/** Records the caller's consent as a new row (give_messaging_consent(), 075_messaging.sql). */
export async function giveConsent(trx: Tx, consent: { kind: ConsentKind; phone: string; source: ConsentSource; words: string }) {
  await sql`select public.give_messaging_consent(${consent.kind}, ${consent.phone}, ${consent.source}, ${consent.words})`.execute(trx);
}

/** Withdraws the caller's live consent of that kind; true when there was one. */
export async function withdrawConsent(trx: Tx, kind: ConsentKind): Promise<boolean> {
  const { rows } = await sql<{ withdrawn: boolean }>`select public.withdraw_messaging_consent(${kind}) as withdrawn`.execute(trx);
  return rows[0]?.withdrawn ?? false;
}
