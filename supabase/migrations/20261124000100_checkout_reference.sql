-- One bank-transfer reference per checkout (ARCHITECTURE §8).
--
-- Why: /checkout used to draw a new reference on every load. A customer copies ORD-A, switches
-- to the banking app (mobile browsers often reload the tab on return), pays with ORD-A, and the
-- order is stored as ORD-B: the owner's bank statement then names a reference no order has.
--
-- Now a customer's first checkout visit with something in the cart reserves a reference, stored
-- here; every later load, in any tab or device and across sign-ins, shows the same one, and
-- place_order() accepts only that one and closes the reservation in the order's transaction. The
-- next checkout reserves a new reference. A reference is never handed out twice: not while it is
-- reserved, and not once an order carries it.

-- Open reservations, at most one per customer. Rows are written only by the functions below
-- (security definer), so a customer can neither pick their own reference nor take another's.
create table public.checkout_references (
  user_id uuid primary key references auth.users (id) on delete cascade,
  reference text not null unique check (reference ~ '^ORD-[0-9]{1,6}$'),
  reserved_at timestamptz not null default now()
);
alter table public.checkout_references enable row level security;

create policy "checkout_references: read own" on public.checkout_references
  for select to authenticated using (user_id = (select auth.uid()));

-- Explicit grants (see 20261123000000_explicit_grants.sql). The revoke undoes what Supabase's
-- default privileges give every new table: the API roles may only read, RLS narrowing that to
-- the customer's own row.
revoke all on public.checkout_references from anon, authenticated;
grant select on public.checkout_references to authenticated;
grant all on public.checkout_references to service_role;

-- new_order_reference(): a reference in the spec's format (ORD-{random number below one
-- million}) that no order carries and no customer holds reserved.
--
-- Race-free with the caller's insert: the candidate is locked (transaction-level advisory lock)
-- before it is checked, and every reservation is made through here, so no two transactions can
-- hold the same free candidate at once; the check is one statement, which sees a committed order
-- and the removal of its reservation together (place_order does both in one transaction). A
-- candidate locked by another transaction is skipped rather than waited for.
create or replace function public.new_order_reference() returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_reference text;
begin
  for attempt in 1..50 loop
    v_reference := 'ORD-' || floor(random() * 1000000)::int;
    if pg_try_advisory_xact_lock(hashtextextended('order_reference:' || v_reference, 0))
       and not exists (select 1 from public.orders where reference = v_reference)
       and not exists (select 1 from public.checkout_references where reference = v_reference) then
      return v_reference;
    end if;
  end loop;
  raise exception 'reference_exhausted';
end
$$;
-- No longer for the API roles: a reference a customer can pay with comes only from
-- open_checkout_reference(), which calls this as its owner. (Granted in earlier migrations.)
revoke execute on function public.new_order_reference() from public, anon, authenticated;
grant execute on function public.new_order_reference() to service_role;

-- open_checkout_reference(): the caller's open reference, reserving one if they have none and
-- their cart is not empty (an empty cart reserves nothing and returns null).
-- Security definer because customers have no INSERT on checkout_references, and the reference
-- must be checked against every order and reservation, which a customer cannot see.
--
-- Parallel first visits of one customer reserve one reference: each tries to insert, the primary
-- key lets one through, and the others' inserts wait for it and then do nothing; their next read
-- (a new statement, so a new snapshot under READ COMMITTED) returns the winner's row.
create function public.open_checkout_reference() returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_reference text;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  for attempt in 1..5 loop
    select r.reference into v_reference from public.checkout_references r where r.user_id = v_uid;
    if found then
      return v_reference;
    end if;
    if not exists (select 1 from public.cart_items c where c.user_id = v_uid) then
      return null;
    end if;
    insert into public.checkout_references (user_id, reference)
    values (v_uid, public.new_order_reference())
    on conflict do nothing
    returning reference into v_reference;
    if v_reference is not null then
      return v_reference;
    end if;
    -- Nothing inserted: a parallel visit of this customer reserved first; the next read finds it.
  end loop;
  raise exception 'reference_unavailable';
end
$$;
revoke execute on function public.open_checkout_reference() from public, anon;
grant execute on function public.open_checkout_reference() to authenticated, service_role;

-- place_order: as in 20261101000100_cart_and_orders.sql (same signature, idempotency, proof
-- checks, total priced here, cart emptied in the same transaction), and now the reference must be
-- the caller's open reservation, which the order closes. A made-up reference, another customer's,
-- or one an earlier order already used is refused as 'reference_stale'. The idempotent retry
-- still returns the first order, before any reference check, though its reservation is gone.
create or replace function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
  v_total numeric(12, 2);
  v_name text;
  v_email text;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_idempotency_key is null then
    raise exception 'idempotency_key_required';
  end if;

  -- One checkout at a time per customer: a retry or a double click waits here, then finds the
  -- order the first call made.
  perform pg_advisory_xact_lock(hashtextextended('place_order:' || v_uid::text, 0));

  select * into v_order from public.orders
  where user_id = v_uid and idempotency_key = p_idempotency_key;
  if found then
    return v_order;
  end if;

  if p_proof_path is null or p_proof_path = '' then
    raise exception 'proof_required';
  end if;
  if (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (
       select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
     )
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  if p_reference is null or p_reference !~ '^ORD-[0-9]{1,6}$' then
    raise exception 'reference_invalid';
  end if;

  -- Lock the cart lines and the products they point at, so neither changes under us.
  perform 1
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid
  for update of c for share of p;
  if not found then
    raise exception 'cart_empty';
  end if;

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    where c.user_id = v_uid and not p.available
  ) then
    raise exception 'product_unavailable';
  end if;

  -- The reference paid with must be the one this customer holds reserved. Deleting it here
  -- checks and closes it at once: if anything below fails, the transaction rolls back and the
  -- reservation stays; if the order is made, the next checkout reserves a new reference.
  delete from public.checkout_references r where r.user_id = v_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  select sum(p.price * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = v_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key)
  values (p_reference, v_uid, v_name, v_email, v_total, p_proof_path, p_idempotency_key)
  returning * into v_order;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
  select v_order.id, p.id, p.name, p.price, c.quantity, p.image_path
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = v_uid
  order by c.added_at;

  delete from public.cart_items where user_id = v_uid;

  return v_order;
end
$$;
-- create or replace keeps the grants made in 20261101000100 and 20261123000000; repeated so this
-- file states what it relies on.
revoke execute on function public.place_order(uuid, text, text) from public, anon;
grant execute on function public.place_order(uuid, text, text) to authenticated, service_role;
