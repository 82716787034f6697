-- Checkout and a quote's acceptance book their lines' times through one function,
-- private.book_order_lines() (the lock, the check that each time is free, the booking), instead
-- of each writing the same loop.
create function private.book_order_lines(p_order_id uuid, p_uid uuid, p_from_cart boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_need record;
begin
  for v_need in
    select distinct i.product_id from public.order_items i
    where i.order_id = p_order_id and i.slot_starts_at is not null
    order by i.product_id
  loop
    perform pg_advisory_xact_lock(hashtextextended('booking:' || v_need.product_id::text, 0));
  end loop;
  for v_need in
    select i.id, i.product_id, i.product_name as name, i.slot_starts_at, i.slot_ends_at, b.buffer_minutes, b.location, b.refund_until_hours,
           case when p_from_cart then c.hold_expires_at > now() else false end as live
    from public.order_items i
    join public.bookable_services b on b.product_id = i.product_id
    left join public.cart_items c on p_from_cart and c.user_id = p_uid and c.variant_id = i.variant_id and c.slot_starts_at = i.slot_starts_at
    where i.order_id = p_order_id and i.slot_starts_at is not null and (c.id is not null or not p_from_cart)
    order by i.product_id, i.slot_starts_at
  loop
    if not exists (
      select 1 from private.free_slots(v_need.product_id, (v_need.slot_starts_at at time zone 'Africa/Johannesburg')::date, 1,
                                       now(), p_uid, not v_need.live, v_need.slot_starts_at) f
      where f.starts_at = v_need.slot_starts_at
    ) then
      raise exception 'slot_taken'
        using detail = json_build_object('name', v_need.name, 'startsAt', v_need.slot_starts_at)::text;
    end if;
    insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location, refund_until_hours)
    values (p_order_id, v_need.id, p_uid, v_need.product_id, v_need.slot_starts_at, v_need.slot_ends_at,
            v_need.slot_ends_at + make_interval(mins => v_need.buffer_minutes), v_need.location, v_need.refund_until_hours);
  end loop;
end
$$;
revoke execute on function private.book_order_lines(uuid, uuid, boolean) from public, anon, authenticated;

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

create or replace function public.accept_quote(p_quote_id uuid, p_purchase_order text, p_fulfilment jsonb default null, p_slots jsonb default '[]'::jsonb)
returns public.orders
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_quote public.quotes;
  v_order public.orders;
  v_name text;
  v_email text;
  v_po text := nullif(btrim(coalesce(p_purchase_order, '')), '');
  v_need record;
  v_slots jsonb := coalesce(p_slots, '[]'::jsonb);
  v_slot timestamptz;
  v_lines jsonb;
  v_method text;
  v_day date;
  v_area_id uuid;
  v_area_name text;
  v_address text;
  v_fee numeric(12, 2) := 0;
  v_deposit numeric(12, 2);
begin
  v_quote := private.own_sent_quote(v_uid, p_quote_id);
  if v_quote.status = 'accepted' then
    select * into v_order from public.orders o where o.quote_id = v_quote.id;
    if found then
      return v_order;
    end if;
  end if;
  perform private.refuse_closed_quote(v_quote);
  if char_length(v_po) > 60 then
    raise exception 'purchase_order_invalid';
  end if;
  -- What the shop no longer sells is not ordered, quoted or not (as place_order refuses it); a
  -- line whose product was deleted since is sold as quoted, as a line without a product.
  -- Locked as place_order locks them: the products shared; counted variants for the update that
  -- takes their stock, in variant order (acceptances of the same units queue, never crosswise);
  -- the others shared, so neither availability nor stock changes under us.
  perform 1 from public.products p
  where p.id in (select l.product_id from public.quote_lines l where l.quote_id = v_quote.id)
  for share;
  perform 1 from public.product_variants v
  where v.id in (select l.variant_id from public.quote_lines l where l.quote_id = v_quote.id) and v.stock is not null
  order by v.id
  for no key update;
  perform 1 from public.product_variants v
  where v.id in (select l.variant_id from public.quote_lines l where l.quote_id = v_quote.id) and v.stock is null
  for share;
  if exists (
    select 1 from public.quote_lines l
    join public.product_variants v on v.id = l.variant_id
    join public.products p on p.id = v.product_id
    where l.quote_id = v_quote.id and not (p.available and v.available)
  ) then
    raise exception 'product_unavailable';
  end if;

  -- The times: an array of objects, each naming a bookable line of this version once...
  if jsonb_typeof(v_slots) <> 'array' then
    raise exception 'quote_slots_invalid';
  end if;
  if exists (
    select 1 from jsonb_array_elements(v_slots) e
    where jsonb_typeof(e.value) <> 'object' or not exists (
      select 1 from public.quote_lines l join public.bookable_services b on b.product_id = l.product_id
      where l.quote_id = v_quote.id and l.id::text = lower(e.value ->> 'lineId'))
  ) or (select count(*) from jsonb_array_elements(v_slots)) <> (select count(distinct lower(e.value ->> 'lineId')) from jsonb_array_elements(v_slots) e) then
    raise exception 'quote_slots_invalid';
  end if;
  -- ...and every bookable line has one, a time.
  for v_need in
    select l.description as name, e.value ->> 'startsAt' as starts_at
    from public.quote_lines l
    join public.bookable_services b on b.product_id = l.product_id
    left join jsonb_array_elements(v_slots) e on lower(e.value ->> 'lineId') = l.id::text
    where l.quote_id = v_quote.id
    order by l.position
  loop
    begin
      v_slot := v_need.starts_at::timestamptz;
    exception when others then
      v_slot := null;
    end;
    if v_slot is null then
      raise exception 'slot_required' using detail = json_build_object('name', v_need.name)::text;
    end if;
  end loop;

  -- Delivery or collection, where the version has goods (and the shop has set it up).
  if private.quote_asks_fulfilment(v_quote.id) then
    v_lines := private.quote_fulfilment_lines(v_quote.id);
    select f.o_method, f.o_day, f.o_area_id, f.o_area_name, f.o_address, f.o_fee
    into v_method, v_day, v_area_id, v_area_name, v_address, v_fee
    from private.check_fulfilment(p_fulfilment, v_quote.total, v_lines) f;
    if private.quote_prices_delivery(v_quote.id) then
      v_fee := 0;
    end if;
  end if;

  -- What is due now, as at checkout: a booked line's deposit, every other line and the fee in
  -- full; a deposit that comes to the whole total is no deposit.
  select case when bool_or(a.deposit is not null) then sum(coalesce(a.deposit, a.amount)) end into v_deposit
  from (
    select l.unit_price * l.quantity as amount,
           case when b.product_id is not null then public.booking_deposit(l.product_id, l.unit_price * l.quantity) end as deposit
    from public.quote_lines l
    left join public.bookable_services b on b.product_id = l.product_id
    where l.quote_id = v_quote.id
  ) a;
  v_deposit := v_deposit + v_fee;
  if v_deposit >= v_quote.total + v_fee then
    v_deposit := null;
  end if;

  select coalesce(nullif(btrim(pr.full_name), ''), pr.email), pr.email into v_name, v_email
  from public.profiles pr where pr.id = v_uid;
  if v_email is null then
    raise exception 'profile_missing';
  end if;

  -- Nothing due now (bookings without a deposit, nothing else): Pending Delivery, as at checkout.
  insert into public.orders (reference, user_id, customer_name, customer_email, total, proof_path, idempotency_key, payment_method,
                             quote_id, purchase_order,
                             fulfilment_method, fulfilment_day, delivery_address, delivery_area_id, delivery_area_name, delivery_fee,
                             deposit, balance_reference, status)
  select r.reference, v_uid, v_name, v_email, v_quote.total + v_fee, null, v_quote.id, 'bank_transfer',
         v_quote.id, v_po,
         v_method, v_day, v_address, v_area_id, v_area_name, v_fee,
         v_deposit, case when v_deposit is not null then r.reference || '-B' end,
         case when v_deposit = 0 then 'pending_delivery' else 'pending_payment' end::public.order_status
  from (select public.new_order_reference() as reference) r
  returning * into v_order;

  -- Counted stock, per variant in variant order (as place_order takes it): never below zero.
  for v_need in
    select v.id, sum(l.quantity)::integer as quantity, v.stock, max(l.description) as name
    from public.quote_lines l join public.product_variants v on v.id = l.variant_id
    where l.quote_id = v_quote.id and v.stock is not null
    group by v.id, v.stock
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
                                  variant_id, option_values, sku, stock_taken, slot_starts_at, slot_ends_at, deposit)
  select v_order.id, l.product_id, l.description, l.unit_price, l.quantity,
         case when v.id is not null then coalesce(v.image_path, p.image_path) end,
         v.id, coalesce(v.option_values, '{}'), v.sku, case when v.stock is not null then l.quantity else 0 end,
         (e.value ->> 'startsAt')::timestamptz, (e.value ->> 'startsAt')::timestamptz + make_interval(mins => b.duration_minutes),
         case when b.product_id is not null then public.booking_deposit(l.product_id, l.unit_price * l.quantity) end
  from public.quote_lines l
  left join public.product_variants v on v.id = l.variant_id
  left join public.products p on p.id = l.product_id
  left join public.bookable_services b on b.product_id = l.product_id
  left join jsonb_array_elements(v_slots) e on b.product_id is not null and lower(e.value ->> 'lineId') = l.id::text
  where l.quote_id = v_quote.id
  order by l.position;

  -- The times, booked as place_order books a cart's (the service's notice asked again).
  perform private.book_order_lines(v_order.id, v_uid, false);

  -- The fee is a line of its own, as at checkout (a free area, or delivery priced in the quote, adds none).
  if v_fee > 0 then
    insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path, is_delivery_fee)
    values (v_order.id, null, 'Delivery to ' || v_area_name, v_fee, 1, null, true);
  end if;
  if v_day is not null then
    perform private.take_day_capacity(v_order.id, v_day, v_lines);
  end if;
  if v_method = 'delivery' and (p_fulfilment ->> 'keepAddress') = 'true' then
    update public.profiles set delivery_address = v_address, delivery_area_id = v_area_id where id = v_uid;
  end if;

  update public.quotes set status = 'accepted', decided_at = now(), purchase_order = v_po, updated_at = now()
  where id = v_quote.id;
  update public.quote_requests set change_asked_at = null, updated_at = now() where id = v_quote.request_id;
  return v_order;
end
$$;
revoke execute on function public.accept_quote(uuid, text, jsonb, jsonb) from public, anon;
grant execute on function public.accept_quote(uuid, text, jsonb, jsonb) to authenticated, service_role;
