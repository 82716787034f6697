-- Holding a slot and booking it (issue 38, ARCHITECTURE §21; docs/bookings.md).
--
-- * add_booking_to_cart(variant, start): one slot of a bookable service in the caller's cart,
--   held for 15 minutes (BOOKING_HOLD_MINUTES) if the shop offers it now; under a per-service
--   lock, as place_order's bookings are.
-- * place_order turns each slot line into a booking in its own transaction, under the same lock,
--   re-checking that the slot is free (an expired hold is fine while nobody took the slot since);
--   otherwise 'slot_taken' names the line, and nothing changes. The order line keeps the slot.
-- * A cancelled order frees its bookings; taking it out of cancelled is refused
--   ('booking_cancelled').
--
-- Supersedes private.place_order_for(...) of 20261206000300_personalisation.sql.

create or replace function private.place_order_for(
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
  v_area public.delivery_areas;
  v_address text;
  v_fee numeric(12, 2) := 0;
  v_need record;
  v_taken integer;
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

  if p_payment_method = 'bank_transfer' then
    if p_proof_path is null or p_proof_path = '' then
      raise exception 'proof_required';
    end if;
    if (storage.foldername(p_proof_path))[1] is distinct from p_uid::text
       or not exists (
         select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path
       )
       or exists (select 1 from public.orders o where o.proof_path = p_proof_path) then
      raise exception 'proof_invalid';
    end if;
  elsif p_payment_method = 'payfast' then
    if p_proof_path is not null then
      raise exception 'proof_invalid';
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

  select sum((coalesce(v.price, p.price) + public.personalisation_price(c.product_id, c.personalisation)) * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
  join public.product_variants v on v.id = c.variant_id
  where c.user_id = p_uid;

  -- Fulfilment: how and when, checked against the settings and the offer at this moment.
  if private.fulfilment_configured() then
    v_method := p_fulfilment ->> 'method';
    if v_method is null or v_method not in ('delivery', 'collection') then
      raise exception 'fulfilment_required';
    end if;
    if v_method = 'collection' then
      if not coalesce((select s.collection_enabled from public.fulfilment_settings s where s.id), false) then
        raise exception 'collection_unavailable';
      end if;
    else
      if (p_fulfilment ->> 'areaId') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        -- Shared: the area cannot be changed or removed while this order is placed with it.
        select * into v_area from public.delivery_areas a
        where a.id = (p_fulfilment ->> 'areaId')::uuid and a.active
        for share;
      end if;
      if v_area.id is null then
        raise exception 'area_unknown';
      end if;
      v_address := btrim(coalesce(p_fulfilment ->> 'address', ''));
      if char_length(v_address) < 5 or char_length(v_address) > 300 then
        raise exception 'address_required';
      end if;
      if v_area.minimum_order is not null and v_total < v_area.minimum_order then
        raise exception 'below_minimum';
      end if;
      v_fee := v_area.fee;
    end if;
    begin
      v_day := (p_fulfilment ->> 'day')::date;
    exception when others then
      raise exception 'day_unavailable';
    end;
    if v_day is null or not exists (select 1 from private.fulfilment_days(p_uid, now(), false) d where d = v_day) then
      raise exception 'day_unavailable';
    end if;
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email, (select auth.email())),
         coalesce(pr.email, (select auth.email()))
  into v_name, v_email
  from public.profiles pr where pr.id = p_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method,
                             fulfilment_method, fulfilment_day, delivery_address, delivery_area_id, delivery_area_name, delivery_fee)
  values (p_reference, p_uid, v_name, v_email, v_total + v_fee, p_proof_path, p_idempotency_key, p_payment_method,
          v_method, v_day, v_address, v_area.id, v_area.name, v_fee)
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
                                  variant_id, option_values, sku, stock_taken, personalisation, slot_starts_at, slot_ends_at)
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
         c.slot_starts_at, c.slot_starts_at + make_interval(mins => b.duration_minutes)
  from public.cart_items c
  join public.products p on p.id = c.product_id
  join public.product_variants v on v.id = c.variant_id
  left join public.bookable_services b on b.product_id = c.product_id and c.slot_starts_at is not null
  where c.user_id = p_uid
  order by c.added_at;

  -- Booked slots (docs/bookings.md): per service in product order, under the lock that holds
  -- are taken with (add_booking_to_cart), so checkouts for one service queue here and each sees
  -- the bookings committed before it. Each line's slot must be free at this moment, not counting
  -- the customer's own holds: a live hold was free when taken (its notice is not asked again),
  -- an expired one is offered again only if nobody took the slot since. Otherwise refused,
  -- naming the line and its time; nothing is kept.
  for v_need in
    select distinct i.product_id from public.order_items i
    where i.order_id = v_order.id and i.slot_starts_at is not null
    order by i.product_id
  loop
    perform pg_advisory_xact_lock(hashtextextended('booking:' || v_need.product_id::text, 0));
  end loop;
  for v_need in
    select i.id, i.product_id, i.product_name as name, i.slot_starts_at, i.slot_ends_at, b.buffer_minutes, b.location,
           c.hold_expires_at > now() as live
    from public.order_items i
    join public.bookable_services b on b.product_id = i.product_id
    join public.cart_items c on c.user_id = p_uid and c.variant_id = i.variant_id and c.slot_starts_at = i.slot_starts_at
    where i.order_id = v_order.id and i.slot_starts_at is not null
    order by i.product_id, i.slot_starts_at
  loop
    if not exists (
      select 1 from private.free_slots(v_need.product_id, (v_need.slot_starts_at at time zone 'Africa/Johannesburg')::date, 1,
                                       now(), p_uid, not v_need.live) f
      where f.starts_at = v_need.slot_starts_at
    ) then
      raise exception 'slot_taken'
        using detail = json_build_object('name', v_need.name, 'startsAt', v_need.slot_starts_at)::text;
    end if;
    insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location)
    values (v_order.id, v_need.id, p_uid, v_need.product_id, v_need.slot_starts_at, v_need.slot_ends_at,
            v_need.slot_ends_at + make_interval(mins => v_need.buffer_minutes), v_need.location);
  end loop;

  -- The fee is a line of its own (no product); a free area adds none (lines are priced > 0).
  if v_fee > 0 then
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path, is_delivery_fee)
    values (v_order.id, null, 'Delivery to ' || v_area.name, v_fee, 1, null, true);
  end if;

  -- The day's capacity, per limited category, in category order (so two carts never wait on each
  -- other's rows crosswise). The upsert adds the cart's quantity only while it fits: under a
  -- concurrent checkout it waits for the row, re-reads it and re-checks. No row back: full.
  if v_day is not null then
    for v_need in
      select p.category_id, sum(c.quantity)::integer as quantity, k.daily_limit
      from public.cart_items c
      join public.products p on p.id = c.product_id
      join public.categories k on k.id = p.category_id
      where c.user_id = p_uid and k.daily_limit is not null
      group by p.category_id, k.daily_limit
      order by p.category_id
    loop
      if v_need.quantity > v_need.daily_limit then
        raise exception 'day_full';
      end if;
      v_taken := null;
      insert into public.daily_capacity as dc (category_id, day, reserved)
      values (v_need.category_id, v_day, v_need.quantity)
      on conflict (category_id, day) do update
        set reserved = dc.reserved + excluded.reserved
        where dc.reserved + excluded.reserved <= v_need.daily_limit
      returning dc.reserved into v_taken;
      if v_taken is null then
        raise exception 'day_full';
      end if;
      insert into public.order_capacity (order_id, category_id, day, quantity)
      values (v_order.id, v_need.category_id, v_day, v_need.quantity);
    end loop;
  end if;

  if v_method = 'delivery' and (p_fulfilment ->> 'keepAddress') = 'true' then
    update public.profiles set delivery_address = v_address, delivery_area_id = v_area.id where id = p_uid;
  end if;

  delete from public.cart_items where user_id = p_uid;

  return v_order;
end
$$;

-- Holding a slot ------------------------------------------------------------------------------
-- add_booking_to_cart(variant, start): puts one slot of a bookable service in the caller's cart
-- and holds it for 15 minutes (BOOKING_HOLD_MINUTES, src/lib/constants.ts): while the hold is
-- live, the slot's place is out of everyone else's free times. The slot must be one the shop
-- offers now (private.free_slots, not counting the caller's own holds); holding it again renews
-- the hold. Holds and place_order's bookings of one service are taken under one lock, so two
-- customers cannot both take its last place. Security definer: the free times count other
-- customers' holds and bookings, which the caller cannot read, and customers cannot write a slot.
create function public.add_booking_to_cart(p_variant_id uuid, p_starts_at timestamptz) returns public.cart_items
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_variant public.product_variants;
  v_item public.cart_items;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select v.* into v_variant
  from public.product_variants v join public.products p on p.id = v.product_id
  where v.id = p_variant_id and v.available and p.available;
  if not found then
    raise exception 'product_unavailable';
  end if;
  if not exists (select 1 from public.bookable_services b where b.product_id = v_variant.product_id) then
    raise exception 'not_bookable';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('booking:' || v_variant.product_id::text, 0));
  if p_starts_at is null or not exists (
    select 1 from private.free_slots(v_variant.product_id, (p_starts_at at time zone 'Africa/Johannesburg')::date, 1, now(), v_uid, true) f
    where f.starts_at = p_starts_at
  ) then
    raise exception 'slot_taken';
  end if;
  insert into public.cart_items as c (user_id, product_id, variant_id, quantity, slot_starts_at, hold_expires_at)
  values (v_uid, v_variant.product_id, v_variant.id, 1, p_starts_at, now() + interval '15 minutes')
  on conflict (user_id, variant_id, slot_starts_at) where slot_starts_at is not null
  do update set hold_expires_at = excluded.hold_expires_at
  returning * into v_item;
  return v_item;
end
$$;
revoke execute on function public.add_booking_to_cart(uuid, timestamptz) from public, anon;
grant execute on function public.add_booking_to_cart(uuid, timestamptz) to authenticated, service_role;

-- Bookings follow their order's status: a cancelled order frees its slots at once. An order
-- taken out of cancelled would take them again, which another customer may have booked since,
-- so that is refused ('booking_cancelled'): the customer books again.
create function public.order_bookings_on_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    update public.bookings set status = 'cancelled', updated_at = now()
    where order_id = new.id and status = 'booked';
  elsif old.status = 'cancelled' and new.status <> 'cancelled'
        and exists (select 1 from public.bookings b where b.order_id = new.id and b.status = 'cancelled') then
    raise exception 'booking_cancelled';
  end if;
  return null;
end
$$;
revoke execute on function public.order_bookings_on_status() from public, anon, authenticated;
grant execute on function public.order_bookings_on_status() to service_role;
create trigger orders_bookings_on_status
  after update of status on public.orders
  for each row when (old.status is distinct from new.status)
  execute function public.order_bookings_on_status();
