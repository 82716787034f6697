import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../helpers/database";

/**
 * Lints the migrated schema itself rather than behaviour: rules that every future migration must
 * keep too (RLS on every table, safe SECURITY DEFINER functions, policies that evaluate auth.*()
 * once per statement). The behaviour of the policies is tested in rls-matrix.test.ts.
 */

type ApiRole = "anon" | "authenticated";

/**
 * Tables in public that may go without a policy, each with why. Empty: every table has at least
 * one. An entry here still needs RLS enabled (no policy + RLS = nobody but the owner and
 * service_role gets in).
 */
const TABLES_WITHOUT_POLICIES: Record<string, string> = {};

/**
 * SECURITY DEFINER functions (not triggers) that the API roles may call, who may, and why it is
 * safe. The test fails on any definer function callable by anon or authenticated that is not
 * listed with exactly these roles, and on a listed function that no longer exists.
 */
const CALLABLE_DEFINER_FUNCTIONS: Record<string, { roles: ApiRole[]; reason: string }> = {
  "public.is_admin()": {
    roles: ["authenticated"],
    reason: "policies ask it without recursing into profiles' own RLS; it reveals only whether the caller is an admin",
  },
  "public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)": {
    roles: ["authenticated"],
    reason: "customers have no INSERT on orders: this is the only way to create one, for the caller's own cart, pricing it itself",
  },
  "public.place_order_pay_now(p_idempotency_key uuid, p_reference text)": {
    roles: ["authenticated"],
    reason: "'Pay now': the same checks and pricing as place_order (private.place_order_for) for the caller's own cart, without a proof; the order stays pending_payment until the server records the provider's verified payment",
  },
  "public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text, p_fulfilment jsonb)": {
    roles: ["authenticated"],
    reason: "place_order with the fulfilment choice (docs/architecture.md#delivery-and-collection): the same function body for the caller's own cart; it checks the method, area, address and day against the settings at its own now() and takes the day's capacity with a conditional upsert customers could not write themselves",
  },
  "public.place_order_pay_now(p_idempotency_key uuid, p_reference text, p_fulfilment jsonb)": {
    roles: ["authenticated"],
    reason: "'Pay now' with the fulfilment choice: the same checks as place_order's four-argument form, without a proof",
  },
  "public.fulfilment_days(p_now timestamp with time zone)": {
    roles: ["authenticated"],
    reason: "the days the caller's own cart can be delivered or collected; it reads the capacity counters customers cannot see, and reveals only whether a day still has room for that cart. p_now moves only this read-only offer's clock: place_order checks the day at its own now()",
  },
  "public.attach_balance_proof(p_order_id uuid, p_proof_path text)": {
    roles: ["authenticated"],
    reason: "customers have no UPDATE on orders: it names the proof of a balance (checked as place_order checks one) on the caller's own order with a deposit, only while the balance is due without one",
  },
  "public.mark_balance_paid(p_order_id uuid)": {
    roles: ["authenticated"],
    reason: "admins only (checked first): stamps a balance paid and issues its invoice, which no API role may write",
  },
  "public.attach_payment_proof(p_order_id uuid, p_proof_path text)": {
    roles: ["authenticated"],
    reason: "customers have no UPDATE on orders: it names a proof (checked as place_order checks one) on the caller's own order, only while it is pending_payment without one",
  },
  "public.free_slots(p_product_id uuid, p_from date, p_days integer)": {
    roles: ["anon", "authenticated"],
    reason: "a bookable service's free times (docs/bookings.md) count other customers' bookings and holds, which nobody else may read; it returns only when a slot starts and ends and how many places are left, never who booked",
  },
  "public.add_booking_to_cart(p_variant_id uuid, p_starts_at timestamp with time zone)": {
    roles: ["authenticated"],
    reason: "customers cannot write a slot into their cart: this holds one for the caller only, if the shop offers it now (checked against others' bookings and holds under the service's lock), for BOOKING_HOLD_MINUTES",
  },
  "public.cancel_booking(p_booking_id uuid)": {
    roles: ["authenticated"],
    reason: "customers cannot write bookings: this cancels the caller's own booking (any, for an admin) under the service's lock, for a customer only until the notice limit, and the order with its last booking",
  },
  "public.move_booking(p_booking_id uuid, p_starts_at timestamp with time zone)": {
    roles: ["authenticated"],
    reason: "customers cannot write bookings: this moves the caller's own booking (any, for an admin) to a time the shop offers, checked against others' bookings and holds under the service's lock, and for a customer only until the notice limit",
  },
  "public.give_messaging_consent(p_kind text, p_phone text, p_source text, p_words text)": {
    roles: ["authenticated"],
    reason: "customers cannot write messaging_consents: it records the caller's own consent (auth.uid()) as a new row with its time, source and words, withdrawing the caller's live one of the same kind",
  },
  "public.withdraw_messaging_consent(p_kind text)": {
    roles: ["authenticated"],
    reason: "one tap on the profile: it marks the caller's own live consent of that kind withdrawn, nothing else",
  },
  "public.request_quote(p_description text, p_items jsonb, p_preferred_date date, p_company text, p_vat_number text, p_files jsonb)": {
    roles: ["authenticated"],
    reason: "customers have no INSERT on the quote tables: it records the caller's own request, names each product as it is now, and names only files stored under the caller's own folder that no other request names; the shop's mail is written with it",
  },
  "public.save_quote_draft(p_request_id uuid, p_valid_until date, p_terms text, p_note text, p_lines jsonb)": {
    roles: ["authenticated"],
    reason: "admins only (it refuses anyone else): a request's next version as a draft, its total summed in SQL; never once a version was accepted",
  },
  "public.send_quote(p_quote_id uuid)": {
    roles: ["authenticated"],
    reason: "admins only (it refuses anyone else): numbers the draft from the counter row customers cannot write, supersedes the version sent before, freezes it and mails the customer",
  },
  "public.accept_quote(p_quote_id uuid, p_purchase_order text, p_fulfilment jsonb, p_slots jsonb)": {
    roles: ["authenticated"],
    reason: "customers have no INSERT on orders or bookings: it places the one order of the caller's own sent version, checked for state and validity at that moment, at the quoted prices, with the delivery or collection choice checked as place_order checks it and each booked time free at that moment under place_order's per-service lock",
  },
  "public.quote_fulfilment_offer(p_quote_id uuid, p_now timestamp with time zone)": {
    roles: ["authenticated"],
    reason: "what accepting the caller's own sent version asks: whether delivery or collection, and the days its lines can have; it reads the capacity counters customers cannot see, and reveals only whether a day still has room for those lines (no row for anyone else's version). p_now moves only this read-only offer's clock: accept_quote checks the day at its own now()",
  },
  "public.decline_quote(p_quote_id uuid, p_reason text)": {
    roles: ["authenticated"],
    reason: "customers cannot update quotes: it declines the caller's own open version, with their reason",
  },
  "public.ask_quote_change(p_quote_id uuid, p_message text)": {
    roles: ["authenticated"],
    reason: "customers cannot write quote messages: it records the caller's message about their own open version and mails the shop",
  },
  "public.open_checkout_reference()": {
    roles: ["authenticated"],
    reason:
      "customers have no INSERT on checkout_references, and a new reference must be checked against every order and reservation, which a customer cannot see; it reserves for the caller only, and returns only the caller's own reference",
  },
  "public.cancel_unpaid_orders(p_days integer)": {
    roles: ["authenticated"],
    reason: "admins run the unpaid-order policy in their own transaction (it refuses anyone else); it changes only orders still pending_payment past the limit, and writes the history no API role may write",
  },
  "public.record_invoice_download(p_invoice_id uuid)": {
    roles: ["authenticated"],
    reason: "downloads are written by nobody else, and two first downloads at once must not both be the original (it orders them); it checks the caller is the order's customer or an admin, and records only the caller's own download",
  },
  "public.sales_summary(p_now timestamp with time zone)": {
    roles: ["authenticated"],
    reason: "the sales overview reads every order once without per-row RLS checks; it refuses anyone but an admin (or the server without claims) and returns only totals",
  },
  "public.sales_range(p_from date, p_to date)": {
    roles: ["authenticated"],
    reason: "the sales overview's range, as sales_summary: admins only, totals per day, product and category",
  },
  "private.public_object(p_bucket text, p_name text)": {
    roles: ["anon", "authenticated"],
    reason: "the local modes serve a public bucket's file by its exact name, as Supabase's public URLs do, while no SELECT policy lets anyone list public buckets; it answers one named object's type and size, from public buckets only",
  },
  "private.rate_limit_take(p_key text, p_limit integer, p_window_ms integer, p_hit boolean)": {
    roles: ["anon", "authenticated"],
    reason: "limits are counted inside the caller's own transaction; the hits table is unreachable otherwise, and schema private is not exposed by Supabase's Data API",
  },
  "private.rate_limit_reset(p_key text)": {
    roles: ["anon", "authenticated"],
    reason: "a successful sign-in clears its e-mail's failures; only the server's code names keys (schema private is not exposed by the Data API)",
  },
};

/**
 * Functions that policies must call wrapped in a scalar sub-select, so Postgres evaluates them
 * once per statement (an initPlan) instead of once per row. public.is_admin() follows the same
 * rule in these migrations, so it is held to it too.
 */
const ONCE_PER_STATEMENT_FUNCTIONS = ["auth.uid", "auth.jwt", "auth.role", "auth.email", "public.is_admin"];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The calls of `fn` in a deparsed policy expression that are NOT inside `(select fn())`.
 * Postgres deparses `(select auth.uid())` as `( SELECT auth.uid() AS uid)` and
 * `(select auth.uid()::text)` as `( SELECT (auth.uid())::text AS uid)`; both are initPlans.
 * A function in a schema on the search_path is deparsed unqualified (`is_admin()`).
 */
function bareCalls(expression: string, fn: string): number {
  const [schema, name] = fn.split(".") as [string, string];
  const call = `(?:${escapeRegExp(schema)}\\.)?${escapeRegExp(name)}\\(\\)`;
  const wrapped = new RegExp(`\\( SELECT (?:${call}|\\(${call}\\)::[\\w ]+(?:\\[\\])?) AS \\w+\\)`, "g");
  const anyCall = new RegExp(`(?<![\\w.])${call}`, "g");
  return (expression.replace(wrapped, "").match(anyCall) ?? []).length;
}

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase({ seed: false });
});

afterAll(async () => {
  await db?.close();
});

describe("schema lint", () => {
  it("every table in public has row-level security and at least one policy", async () => {
    const { rows } = await sql<{ table: string; rls: boolean; policies: number }>`
      select c.relname as "table", c.relrowsecurity as rls,
             (select count(*)::int from pg_policies p where p.schemaname = n.nspname and p.tablename = c.relname) as policies
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
      order by c.relname`.execute(db.kysely);

    // Sanity: an empty schema must not pass.
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.reduce((sum, row) => sum + row.policies, 0)).toBeGreaterThan(0);

    const offences = [
      ...rows.filter((row) => !row.rls).map((row) => `${row.table}: row-level security is off`),
      ...rows.filter((row) => row.policies === 0 && !(row.table in TABLES_WITHOUT_POLICIES)).map((row) => `${row.table}: no policy`),
      ...Object.keys(TABLES_WITHOUT_POLICIES)
        .filter((table) => !rows.some((row) => row.table === table && row.policies === 0))
        .map((table) => `${table}: allowlisted as having no policy, but it has one or no longer exists`),
    ];
    expect(offences).toEqual([]);
  });

  it("no SECURITY DEFINER function is callable by anon or authenticated unless allowlisted", async () => {
    const { rows } = await sql<{ signature: string; is_trigger: boolean; anon: boolean; authenticated: boolean }>`
      select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
             p.prorettype in ('trigger'::regtype, 'event_trigger'::regtype) as is_trigger,
             has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
             has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'auth', 'storage', 'private') and p.prosecdef
      order by 1`.execute(db.kysely);

    // Sanity: the migrations do define some (is_admin, place_order, ...).
    expect(rows.length).toBeGreaterThan(0);

    // Trigger functions are left out: Postgres refuses to call a function returning trigger
    // other than as a trigger, so EXECUTE on one gives a caller nothing.
    const callable: Record<string, ApiRole[]> = {};
    for (const row of rows.filter((r) => !r.is_trigger)) {
      const roles = (["anon", "authenticated"] as const).filter((role) => row[role]);
      if (roles.length > 0) callable[row.signature] = roles;
    }
    const allowed = Object.fromEntries(Object.entries(CALLABLE_DEFINER_FUNCTIONS).map(([signature, entry]) => [signature, entry.roles]));
    expect(callable).toEqual(allowed);
  });

  it("every SECURITY DEFINER function pins its search_path", async () => {
    const { rows } = await sql<{ signature: string; pinned: boolean }>`
      select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as signature,
             exists (select 1 from unnest(coalesce(p.proconfig, '{}'::text[])) setting where setting like 'search_path=%') as pinned
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.prosecdef and n.nspname not in ('pg_catalog', 'information_schema')
      order by 1`.execute(db.kysely);

    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => !row.pinned).map((row) => row.signature)).toEqual([]);
  });

  it("policies in public and storage call auth.uid() and friends only as (select auth.uid())", async () => {
    const { rows } = await sql<{ schemaname: string; tablename: string; policyname: string; qual: string | null; with_check: string | null }>`
      select schemaname, tablename, policyname, qual, with_check
      from pg_policies
      where schemaname in ('public', 'storage')
      order by 1, 2, 3`.execute(db.kysely);

    // Sanity: both schemas have policies, and some of them do use auth.uid().
    expect(rows.filter((row) => row.schemaname === "public").length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.schemaname === "storage" && row.tablename === "objects").length).toBeGreaterThan(0);
    expect(rows.filter((row) => `${row.qual ?? ""} ${row.with_check ?? ""}`.includes("auth.uid()")).length).toBeGreaterThan(0);

    const offences: string[] = [];
    for (const row of rows) {
      for (const [clause, expression] of [["using", row.qual], ["with check", row.with_check]] as const) {
        if (!expression) continue;
        for (const fn of ONCE_PER_STATEMENT_FUNCTIONS) {
          const bare = bareCalls(expression, fn);
          if (bare > 0) offences.push(`${row.schemaname}.${row.tablename} "${row.policyname}" ${clause}: ${bare} bare ${fn}()`);
        }
      }
    }
    expect(offences).toEqual([]);
  });

  it("the policy lint itself tells wrapped calls from bare ones", () => {
    expect(bareCalls("(user_id = ( SELECT auth.uid() AS uid))", "auth.uid")).toBe(0);
    expect(bareCalls("((storage.foldername(name))[1] = ( SELECT (auth.uid())::text AS uid))", "auth.uid")).toBe(0);
    expect(bareCalls("((id = ( SELECT auth.uid() AS uid)) OR ( SELECT is_admin() AS is_admin))", "public.is_admin")).toBe(0);
    expect(bareCalls("(user_id = auth.uid())", "auth.uid")).toBe(1);
    expect(bareCalls("((storage.foldername(name))[1] = (auth.uid())::text)", "auth.uid")).toBe(1);
    expect(bareCalls("(EXISTS ( SELECT 1 FROM orders o WHERE (o.user_id = auth.uid())))", "auth.uid")).toBe(1);
    expect(bareCalls("(is_admin() OR (id = ( SELECT auth.uid() AS uid)))", "public.is_admin")).toBe(1);
    expect(bareCalls("(( SELECT auth.uid() AS uid) = user_id AND owner = auth.uid())", "auth.uid")).toBe(1);
    expect(bareCalls("((auth.jwt() ->> 'role'::text) = 'admin'::text)", "auth.jwt")).toBe(1);
  });
});
