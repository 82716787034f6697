-- Unpaid orders are cancelled (issue 16 item 5): an order still `pending_payment` some days
-- after it was placed is cancelled by the shop, and its status history says so and why.
--
-- The number of days is a parameter (the server passes UNPAID_ORDER_DAYS today; the shop's
-- settings will hold it, ARCHITECTURE §15), so the policy can change without a migration.

-- Why a change was made, when the shop made it rather than a person. Null for a person's change
-- (changed_by says who). Written by the trigger below only.
alter table public.order_status_events
  add column reason text check (char_length(reason) <= 200);

-- Explicit grants (see 20261123000000_explicit_grants.sql): the owner and admins read the history
-- with the order (its policy); the table-wide SELECT there covers the new column, repeated here
-- so this file states what it relies on.
grant select on public.order_status_events to authenticated;

-- The history trigger again, now with the reason. A change made by the shop itself is marked by
-- the transaction-local setting shop.status_reason, which only cancel_unpaid_orders() sets (and
-- clears again before it returns): then nobody is named as having made it, even when an admin's
-- request ran the function, and the reason is kept.
create or replace function public.record_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := nullif(current_setting('shop.status_reason', true), '');
begin
  if tg_op = 'INSERT' then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by)
    values (new.id, null, new.status, new.user_id);
  elsif new.status is distinct from old.status then
    insert into public.order_status_events (order_id, from_status, to_status, changed_by, reason)
    values (new.id, old.status, new.status, case when v_reason is null then (select auth.uid()) end, v_reason);
  end if;
  return null;
end
$$;
revoke execute on function public.record_order_status() from public, anon, authenticated;

-- cancel_unpaid_orders(days): cancels every order still pending_payment that was placed more
-- than `days` days ago; 0 means never. Returns how many it cancelled.
--
-- Who may call it: an admin, as themselves, in their own transaction (the server runs it before
-- the admin's order list loads), or the server's own privileged connection (its timer, with no
-- caller claims) and service_role. Security definer because it changes orders no matter who is
-- signed in and writes history no API role may write; it does nothing else.
--
-- Idempotent: it touches only orders still pending_payment, so a second run finds nothing. Runs
-- from several server processes (or an admin's page load and the timer) wait for each other on
-- an advisory lock rather than lock the same rows in different orders.
--
-- Corrected after it was first applied (see src/server/db/migration-corrections.ts): it had a
-- `set shop.status_reason = ''` clause, which Supabase refuses (`postgres` is not a superuser,
-- ARCHITECTURE §16). The setting is now set and cleared with set_config() in the body;
-- 20261128000000_status_reason_at_run_time.sql replaces the function where the old text ran.
create function public.cancel_unpaid_orders(p_days integer) returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  -- A signed-in caller (or anon) must be an admin; without claims it is the server itself.
  if (select auth.uid()) is not null or coalesce((select auth.role()), '') in ('anon', 'authenticated') then
    if not (select public.is_admin()) then
      raise exception 'admins_only' using errcode = '42501';
    end if;
  end if;
  if p_days is null or p_days < 0 then
    raise exception 'invalid_days' using errcode = '22023';
  end if;
  if p_days = 0 then
    return 0;
  end if;

  perform pg_advisory_xact_lock(hashtextextended('cancel_unpaid_orders', 0));
  -- Read by record_order_status() for the rows updated below, and cleared again below, so a later
  -- change in the same transaction (an admin's) is not taken for the shop's. An error aborts the
  -- transaction (or its savepoint), which undoes the setting with it.
  perform set_config(
    'shop.status_reason',
    format('not paid within %s day%s', p_days, case when p_days = 1 then '' else 's' end),
    true
  );
  update public.orders
  set status = 'cancelled'
  where status = 'pending_payment'
    and created_at < now() - make_interval(days => p_days);
  get diagnostics v_count = row_count;
  perform set_config('shop.status_reason', '', true);
  return v_count;
end
$$;
revoke execute on function public.cancel_unpaid_orders(integer) from public, anon;
grant execute on function public.cancel_unpaid_orders(integer) to authenticated, service_role;
