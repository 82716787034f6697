-- Checkout (src/server/checkout/): one bank-transfer reference per checkout, reserved once and
-- shown in every tab and device until an order is placed with it, and place_order(), which turns
-- the caller's cart into an order in one transaction (docs/architecture.md#the-database-holds-the-rules).

-- public.checkout_references ------------------------------------------------------------------
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

revoke all on public.checkout_references from anon, authenticated;
grant all on public.checkout_references to service_role;
grant select on public.checkout_references to authenticated;

-- new_order_reference(): a reference in the spec's format (ORD-{random number below one
-- million}) that no order carries and no customer holds reserved.
--
-- Race-free with the caller's insert: the candidate is locked (transaction-level advisory lock)
-- before it is checked, and every reservation is made through here, so no two transactions can
-- hold the same free candidate at once; the check is one statement, which sees a committed order
-- and the removal of its reservation together (place_order does both in one transaction). A
-- candidate locked by another transaction is skipped rather than waited for.
create function public.new_order_reference() returns text
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

-- The start of a payment (checkout.placeOrder's first statement, beside the checkout limit):
-- whether the caller's cart has lines, and the order an earlier try with this idempotency key
-- placed (a retry or a double click gets that order back). In PL/pgSQL because its plans are
-- kept for the connection: as a plain statement the same two lookups were planned again on
-- every checkout, under RLS (0.51 → 0.28 ms a lookup on PGlite, measured; checkout is the shop's
-- busiest write). STABLE: both reads see the calling statement's snapshot, so a double click's
-- twin that committed its order (emptying the cart) is found as the earlier order, never as an
-- empty cart. Security invoker: RLS decides, as for any read of the caller's own rows.
create function public.payment_start(p_idempotency_key uuid)
returns table (has_cart_lines boolean, earlier_id uuid, earlier_reference text)
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  return query
    select exists (select 1 from public.cart_items c where c.user_id = v_uid),
           o.id, o.reference
    from (select 1) as one
    left join public.orders o on o.user_id = v_uid and o.idempotency_key = p_idempotency_key;
end
$$;
revoke execute on function public.payment_start(uuid) from public, anon;
grant execute on function public.payment_start(uuid) to authenticated, service_role;

-- place_order's body, shared by both ways to pay: the caller's cart becomes an order in one
-- transaction (prices read here, the total computed here, the reserved reference checked and
-- closed, counted stock and delivery capacity taken, the cart emptied; the same idempotency key answered with the
-- same order). p_fulfilment = {"method": "delivery"|"collection", "day": "YYYY-MM-DD",
-- "areaId": uuid, "address": text, "keepAddress": boolean}: required once fulfilment is set up,
-- ignored before. Private: reached through the public functions below, which pass the caller's
-- own id.
create function private.place_order_for(
  p_uid uuid, p_idempotency_key uuid, p_reference text, p_proof_path text, p_payment_method text, p_fulfilment jsonb)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_total numeric(12, 2);
  v_name text;
  v_email text;
  v_method text;
  v_day date;
  v_area_id uuid;
  v_area_name text;
  v_address text;
  v_fee numeric(12, 2) := 0;
  v_lines jsonb;
  v_need record;
  v_deposit numeric(12, 2);
  v_nothing_now boolean;
begin
  if p_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  if p_idempotency_key is null then
    raise exception 'idempotency_key_required';
  end if;

  -- One checkout at a time per customer: a retry or a double click waits here, then finds the
  -- order the first call made.
  perform pg_advisory_xact_lock(hashtextextended('place_order:' || p_uid::text, 0));

  select * into v_order from public.orders
  where user_id = p_uid and idempotency_key = p_idempotency_key;
  if found then
    return v_order;
  end if;

  -- A cart of bookings that ask no deposit has nothing to pay now (docs/bookings.md): no proof
  -- (unless a delivery fee is due, checked below), and nothing for a provider to take.
  v_nothing_now := exists (select 1 from public.cart_items c where c.user_id = p_uid)
    and not exists (
      select 1 from public.cart_items c
      where c.user_id = p_uid
        and (c.slot_starts_at is null
             or not exists (select 1 from public.bookable_services b where b.product_id = c.product_id and b.deposit = 'none')));

  if p_payment_method = 'bank_transfer' then
    if coalesce(p_proof_path, '') = '' then
      if not v_nothing_now then
        raise exception 'proof_required';
      end if;
    elsif (storage.foldername(p_proof_path))[1] is distinct from p_uid::text
       or not exists (
         select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
       )
       or exists (select 1 from public.orders o where o.proof_path = p_proof_path or o.balance_proof_path = p_proof_path) then
      raise exception 'proof_invalid';
    end if;
  elsif p_payment_method = 'payfast' then
    if p_proof_path is not null then
      raise exception 'proof_invalid';
    end if;
    if v_nothing_now then
      raise exception 'nothing_due_now';
    end if;
  else
    raise exception 'payment_method_invalid';
  end if;
  if p_reference is null or p_reference !~ '^ORD-[0-9]{1,6}$' then
    raise exception 'reference_invalid';
  end if;

  -- Lock the cart lines and the products they point at, so neither changes under us.
  perform 1
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid
  for update of c for share of p;
  if not found then
    raise exception 'cart_empty';
  end if;
  -- And their variants: counted ones for the update that takes their stock below, in variant
  -- order (checkouts for the same units queue here, never crosswise); the others shared, so that
  -- checkouts of an uncounted variant run side by side while its price cannot change under them.
  perform 1 from public.product_variants v
  where v.id in (select c.variant_id from public.cart_items c where c.user_id = p_uid) and v.stock is not null
  order by v.id
  for no key update;
  perform 1 from public.product_variants v
  where v.id in (select c.variant_id from public.cart_items c where c.user_id = p_uid) and v.stock is null
  for share;

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid and not (p.available and v.available)
  ) or exists (
    -- A slot of a product that is no longer a bookable service.
    select 1 from public.cart_items c
    where c.user_id = p_uid and c.slot_starts_at is not null
      and not exists (select 1 from public.bookable_services b where b.product_id = c.product_id)
  ) then
    raise exception 'product_unavailable';
  end if;

  -- Personalisation, checked against the product's fields as they are now (the owner may have
  -- changed them since the line was added): a line that no longer fits is named.
  for v_need in
    select c.product_id, c.personalisation, public.variant_line_name(p.name, v.option_values) as name
    from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid
      and (c.personalisation <> '{}' or exists (select 1 from public.product_personalisation_fields f where f.product_id = c.product_id))
    order by c.added_at
  loop
    begin
      perform private.check_personalisation(v_need.product_id, v_need.personalisation, p_uid);
    exception when raise_exception then
      raise exception 'personalisation_stale' using detail = json_build_object('name', v_need.name)::text;
    end;
  end loop;

  -- The reference paid with must be the one this customer holds reserved; deleting it checks and
  -- closes it at once (rolled back with everything else if anything below fails).
  delete from public.checkout_references r where r.user_id = p_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  -- The total, and what is due now when a booked line asks a deposit below its price: every line
  -- in full but those lines' deposits (public.booking_deposit(); the order_items insert below
  -- records each line's with the same function).
  select sum(l.amount), case when bool_or(l.deposit is not null) then sum(coalesce(l.deposit, l.amount)) end
  into v_total, v_deposit
  from (
    select a.amount, case when a.slot_starts_at is not null then public.booking_deposit(a.product_id, a.amount) end as deposit
    from (
      select (coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity as amount,
             c.product_id, c.slot_starts_at
      from public.cart_items c
      join public.products p on p.id = c.product_id
      join public.product_variants v on v.id = c.variant_id
      where c.user_id = p_uid
    ) a
  ) l;

  -- Fulfilment: how and when, checked against the settings and the offer for this cart at this
  -- moment (private.check_fulfilment(), 090_fulfilment.sql, which accept_quote shares).
  v_lines := private.cart_fulfilment_lines(p_uid);
  select f.o_method, f.o_day, f.o_area_id, f.o_area_name, f.o_address, f.o_fee
  into v_method, v_day, v_area_id, v_area_name, v_address, v_fee
  from private.check_fulfilment(p_fulfilment, v_total, v_lines) f;

  -- The delivery fee is due now; a deposit that comes to the whole total is no deposit.
  v_deposit := v_deposit + v_fee;
  if v_deposit >= v_total + v_fee then
    v_deposit := null;
  end if;
  if p_payment_method = 'bank_transfer' and coalesce(p_proof_path, '') = '' and coalesce(v_deposit, 1) > 0 then
    raise exception 'proof_required';
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = p_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  -- Nothing due now: the booking is confirmed as placed (Pending Delivery); its balance is due.
  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method,
                             fulfilment_method, fulfilment_day, delivery_address, delivery_area_id, delivery_area_name, delivery_fee,
                             deposit, balance_reference, status)
  values (p_reference, p_uid, v_name, v_email, v_total + v_fee, nullif(p_proof_path, ''), p_idempotency_key, p_payment_method,
          v_method, v_day, v_address, v_area_id, v_area_name, v_fee,
          v_deposit, case when v_deposit is not null then p_reference || '-B' end,
          case when v_deposit = 0 then 'pending_delivery' else 'pending_payment' end::public.order_status)
  returning * into v_order;

  -- Counted stock, per variant in variant order (rows locked above): taken only while enough is
  -- left, so it never goes below zero; otherwise refused, naming the line and what is left.
  for v_need in
    select v.id, sum(c.quantity)::integer as quantity, v.stock,
           public.variant_line_name(p.name, v.option_values) as name
    from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.product_variants v on v.id = c.variant_id
    where c.user_id = p_uid and v.stock is not null
    group by v.id, v.stock, p.name, v.option_values
    order by v.id
  loop
    update public.product_variants v set stock = v.stock - v_need.quantity
    where v.id = v_need.id and v.stock >= v_need.quantity;
    if not found then
      raise exception 'not_enough_stock'
        using detail = json_build_object('name', v_need.name, 'left', v_need.stock)::text;
    end if;
  end loop;

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path,
                                  variant_id, option_values, sku, stock_taken, personalisation, slot_starts_at, slot_ends_at, deposit)
  select v_order.id, p.id,
         public.variant_line_name(p.name, v.option_values),
         coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation),
         c.quantity, coalesce(v.image_path, p.image_path),
         v.id, v.option_values, v.sku, case when v.stock is not null then c.quantity else 0 end,
         (select coalesce(jsonb_agg(jsonb_build_object(
                   'label', f.label, 'kind', f.kind, 'value', c.personalisation ->> f.id::text, 'price', f.price)
                 order by f.position), '[]'::jsonb)
          from public.product_personalisation_fields f
          where f.product_id = c.product_id and c.personalisation ? f.id::text),
         c.slot_starts_at, c.slot_starts_at + make_interval(mins => b.duration_minutes),
         case when c.slot_starts_at is not null then public.booking_deposit(
           c.product_id, (coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity) end
  from public.cart_items c
  join public.products p on p.id = c.product_id
  join public.product_variants v on v.id = c.variant_id
  left join public.bookable_services b on b.product_id = c.product_id and c.slot_starts_at is not null
  where c.user_id = p_uid
  order by c.added_at;

  -- Booked slots (docs/bookings.md): each line's time booked, or the order refused naming it.
  perform private.book_order_lines(v_order.id, p_uid, true);

  -- The fee is a line of its own (no product); a free area adds none (lines are priced > 0).
  if v_fee > 0 then
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path, is_delivery_fee)
    values (v_order.id, null, 'Delivery to ' || v_area_name, v_fee, 1, null, true);
  end if;

  -- The day's capacity for the cart's quantities (private.take_day_capacity(): a conditional
  -- upsert per limited category; 'day_full' when it does not fit).
  if v_day is not null then
    perform private.take_day_capacity(v_order.id, v_day, v_lines);
  end if;

  if v_method = 'delivery' and (p_fulfilment ->> 'keepAddress') = 'true' then
    update public.profiles set delivery_address = v_address, delivery_area_id = v_area_id where id = p_uid;
  end if;

  delete from public.cart_items where user_id = p_uid;

  return v_order;
end
$$;
revoke execute on function private.place_order_for(uuid, uuid, text, text, text, jsonb) from public, anon, authenticated;

-- Bank transfer with a proof, with the fulfilment choice.
create function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text, p_fulfilment jsonb)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, p_proof_path, 'bank_transfer', p_fulfilment);
end
$$;
revoke execute on function public.place_order(uuid, text, text, jsonb) from public, anon;
grant execute on function public.place_order(uuid, text, text, jsonb) to authenticated, service_role;

-- Bank transfer with a proof, without a fulfilment choice (refused with 'fulfilment_required'
-- once fulfilment is set up).
create function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, p_proof_path, 'bank_transfer', null);
end
$$;
revoke execute on function public.place_order(uuid, text, text) from public, anon;
grant execute on function public.place_order(uuid, text, text) to authenticated, service_role;

-- Pay now, with the fulfilment choice.
create function public.place_order_pay_now(p_idempotency_key uuid, p_reference text, p_fulfilment jsonb)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  if not public.pay_now_available() then
    raise exception 'pay_now_unavailable';
  end if;
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, null, 'payfast', p_fulfilment);
end
$$;
revoke execute on function public.place_order_pay_now(uuid, text, jsonb) from public, anon;
grant execute on function public.place_order_pay_now(uuid, text, jsonb) to authenticated, service_role;

-- Pay now, without a fulfilment choice (refused the same way once fulfilment is set up).
create function public.place_order_pay_now(p_idempotency_key uuid, p_reference text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return public.place_order_pay_now(p_idempotency_key, p_reference, null);
end
$$;
revoke execute on function public.place_order_pay_now(uuid, text) from public, anon;
grant execute on function public.place_order_pay_now(uuid, text) to authenticated, service_role;
