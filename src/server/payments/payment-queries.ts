import { sql } from "kysely";
import type { PaymentOutcome } from "@/lib/statuses";
import type { Tx } from "@/server/db/as-caller";
import { fulfilmentJson } from "@/server/checkout/checkout-queries";
import type { Order, OrderStatus, Payment } from "@/server/db/schema";
import type { FulfilmentChoice } from "@/server/fulfilment/schemas";
import type { PaymentCredentials } from "@/server/ports/payments";
import type { PaymentSettingsValues } from "./schemas";

/** Calls place_order_pay_now() as the caller: the order, placed as every order is, without a proof. */
export async function placeOrderPayNow(trx: Tx, args: { idempotencyKey: string; reference: string; fulfilment?: FulfilmentChoice | null }): Promise<Order> {
  const { rows } = await sql<Order>`
    select * from public.place_order_pay_now(${args.idempotencyKey}::uuid, ${args.reference}, ${fulfilmentJson(args.fulfilment)}::jsonb)`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("place_order_pay_now returned no row");
  return order;
}

/** One of the caller's own orders (RLS), as a payment needs it. */
export async function ownOrder(trx: Tx, orderId: string) {
  return trx
    .selectFrom("orders")
    .select(["id", "reference", "total", "deposit", "status", "customer_name", "customer_email", "payment_method", "proof_path"])
    .where("id", "=", orderId)
    .executeTakeFirst();
}

/** One of the caller's own orders (RLS) with its balance, as paying the balance needs it; the amount as SQL computes it. */
export async function ownBalance(trx: Tx, orderId: string) {
  return trx
    .selectFrom("orders")
    .select(["id", "reference", "status", "customer_name", "customer_email", "balance_reference", "balance_paid_at", "balance_proof_path"])
    .select(sql<string | null>`total - deposit`.as("balance"))
    .where("id", "=", orderId)
    .executeTakeFirst();
}

/** Attaches a stored proof of the balance to the caller's order (attach_balance_proof() checks it as place_order does). */
export async function attachBalanceProofRow(trx: Tx, args: { orderId: string; proofPath: string }): Promise<Order> {
  const { rows } = await sql<Order>`select * from public.attach_balance_proof(${args.orderId}::uuid, ${args.proofPath})`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("attach_balance_proof returned no row");
  return order;
}

/** An admin records an order's balance as received (mark_balance_paid(): its invoice and the customer's mail). */
export async function markBalancePaidRow(trx: Tx, orderId: string): Promise<Order> {
  const { rows } = await sql<Order>`select * from public.mark_balance_paid(${orderId}::uuid)`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("mark_balance_paid returned no row");
  return order;
}

/** Attaches a stored proof to the caller's order (attach_payment_proof() checks it as place_order does). */
export async function attachProofRow(trx: Tx, args: { orderId: string; proofPath: string }): Promise<Order> {
  const { rows } = await sql<Order>`select * from public.attach_payment_proof(${args.orderId}::uuid, ${args.proofPath})`.execute(trx);
  const order = rows[0];
  if (!order) throw new Error("attach_payment_proof returned no row");
  return order;
}

/** The order a notification names, as the service role sees it (order_for_payment()). */
export async function orderForPayment(trx: Tx, orderId: string): Promise<PaymentDue | null> {
  const { rows } = await sql<PaymentDue>`
    select * from public.order_for_payment(${orderId}::uuid)`.execute(trx);
  return rows[0] ?? null;
}

/** What an order asks of a payment: at checkout (due_now: its deposit, or its total) and, with a deposit, its balance under its own reference. */
export interface PaymentDue {
  id: string;
  reference: string;
  total: string;
  status: OrderStatus;
  due_now: string;
  balance_reference: string | null;
  balance: string | null;
}

/** What recording a provider's payment did: its outcome, or nothing for a payment already recorded. */
export type RecordedPayment = PaymentOutcome | "duplicate";

/** Records a verified payment once (record_online_payment(), service role only). */
export async function recordPayment(
  trx: Tx,
  args: { provider: Payment["provider"]; providerPaymentId: string; orderId: string; amount: string; details: Record<string, string>; reference: string },
): Promise<RecordedPayment> {
  const { rows } = await sql<{ outcome: RecordedPayment }>`
    select public.record_online_payment(${args.provider}, ${args.providerPaymentId}, ${args.orderId}::uuid, ${args.amount}::numeric,
                                        ${JSON.stringify(args.details)}::jsonb, ${args.reference}) as outcome`.execute(trx);
  const outcome = rows[0]?.outcome;
  if (!outcome) throw new Error("record_online_payment returned nothing");
  return outcome;
}

const credentialsOf = (row: { payfast_merchant_id: string; payfast_merchant_key: string; payfast_passphrase: string; payfast_sandbox: boolean }): PaymentCredentials => ({
  merchantId: row.payfast_merchant_id,
  merchantKey: row.payfast_merchant_key,
  passphrase: row.payfast_passphrase,
  sandbox: row.payfast_sandbox,
});

/** The saved credentials (RLS: admins only; the service role for the server), or null while none are saved. */
export async function readCredentials(trx: Tx): Promise<PaymentCredentials | null> {
  const row = await trx
    .selectFrom("payment_settings")
    .select(["payfast_merchant_id", "payfast_merchant_key", "payfast_passphrase", "payfast_sandbox"])
    .where("id", "=", true)
    .executeTakeFirst();
  return row ? credentialsOf(row) : null;
}

/** Saves the admins' form (RLS: admins only), keeping a secret left blank. */
export async function saveCredentials(trx: Tx, input: PaymentSettingsValues): Promise<PaymentCredentials> {
  const saved = await readCredentials(trx);
  const values: PaymentCredentials = {
    merchantId: input.merchantId,
    merchantKey: input.merchantKey || (input.merchantId ? (saved?.merchantKey ?? "") : ""),
    passphrase: input.clearPassphrase ? "" : input.passphrase.trim() || (saved?.passphrase ?? ""),
    sandbox: input.sandbox,
  };
  const row = {
    payfast_merchant_id: values.merchantId,
    payfast_merchant_key: values.merchantKey,
    payfast_passphrase: values.passphrase,
    payfast_sandbox: values.sandbox,
  };
  await trx
    .insertInto("payment_settings")
    .values(row)
    .onConflict((conflict) => conflict.column("id").doUpdateSet(row))
    .execute();
  return values;
}

/** Start-up: the environment's PAYFAST_* credentials for a shop that has none saved yet; never touches saved ones. */
export async function insertMissingCredentials(trx: Tx, credentials: PaymentCredentials | null): Promise<void> {
  if (!credentials) return;
  await trx
    .insertInto("payment_settings")
    .values({
      payfast_merchant_id: credentials.merchantId,
      payfast_merchant_key: credentials.merchantKey,
      payfast_passphrase: credentials.passphrase,
      payfast_sandbox: credentials.sandbox,
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
}
