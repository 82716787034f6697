-- Supersedes public.cancel_unpaid_orders(integer) of 20261124000210_cancel_unpaid_orders.sql as
-- that file was first applied. Its first text had a `set shop.status_reason = ''` clause, which
-- Supabase refuses (ARCHITECTURE §16); the file was corrected so it applies there, and this
-- replaces the function in databases that ran the first text (a replaced function keeps no SET
-- clause it does not restate), so every database has the same one. On a database that ran the
-- corrected file it changes nothing.
--
-- cancel_unpaid_orders(days): cancels every order still pending_payment that was placed more
-- than `days` days ago; 0 means never. Returns how many it cancelled. Who may call it and why it
-- is security definer: see 20261124000210.
create or replace function public.cancel_unpaid_orders(p_days integer) returns integer
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
