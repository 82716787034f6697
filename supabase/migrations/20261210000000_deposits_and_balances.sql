-- Deposits and balances for orders with bookings (issue 38, docs/bookings.md): checkout asks only
-- the booked lines' deposits (and every other line in full), the order records its balance with
-- its own reference, the balance is paid later by bank transfer with a proof or online, and each
-- payment issues its own invoice; a cancellation within the bookings' refund rule credits the
-- deposit, after it the deposit is kept.
-- Supersedes: private.place_order_for() of 20261207000200_booking_holds.sql, private.issue_invoice(uuid)
-- of 20261206000300_personalisation.sql, public.invoice_paid_order() of 20261129000100_invoices.sql,
-- public.order_for_payment() of 20261130000000_online_payments.sql, public.record_online_payment() of
-- 20261208000000_whatsapp_messaging.sql,
-- public.sales_summary() of 20261203000000_overview_delivery_fees.sql, public.mail_order_placed() of
-- 20261207000300_booking_mail.sql, public.purge_expired_records() of
-- 20261208000200_purge_whatsapp_inbound_ids.sql, public.attach_payment_proof() of
-- 20261130000000_online_payments.sql, and the policy "payments: delete own unclaimed".

alter table public.orders
  add column deposit numeric(12, 2),
  add column balance_reference text unique check (balance_reference ~ '^ORD-[0-9]{1,6}-B$'),
  add column balance_proof_path text check (char_length(balance_proof_path) <= 500),
  add column balance_payment_method text check (balance_payment_method in ('bank_transfer', 'payfast')),
  add column balance_paid_at timestamptz,
  add constraint orders_deposit_shape check (
    (deposit is null and balance_reference is null and balance_proof_path is null
     and balance_payment_method is null and balance_paid_at is null)
    or (deposit is not null and deposit >= 0 and deposit < total and balance_reference is not null));

-- The balances still due (the sales overview's money outstanding).
create index orders_balance_due_idx on public.orders (created_at) include (total, deposit)
  where deposit is not null and balance_paid_at is null and status in ('pending_delivery', 'complete');

-- A booked line's part asked at checkout when its service's deposit is less than the full price.
alter table public.order_items add column deposit numeric(12, 2) check (deposit >= 0);

-- The service's refund rule as at booking.
alter table public.bookings
  add column refund_until_hours integer not null default 0 check (refund_until_hours between 0 and 720);
update public.bookings b set refund_until_hours = s.refund_until_hours
from public.bookable_services s where s.product_id = b.product_id;

-- What it paid: the order (its total, or its deposit) or the balance of an order with a deposit.
alter table public.payments add column part text not null default 'order' check (part in ('order', 'balance'));

-- Deposits -------------------------------------------------------------------------------------
-- public.booking_deposit(product, amount): what checkout asks now of a booked line of `amount`
-- rands when its service's deposit is less than the full price: a percentage of it (rounded to
-- the cent) or 0 (none). Null: all of it (a full deposit, or not a bookable service).
create function public.booking_deposit(p_product_id uuid, p_amount numeric) returns numeric
language sql stable security invoker set search_path = ''
as $$
  select case s.deposit
           when 'none' then 0::numeric(12, 2)
           when 'percent' then round(p_amount * s.deposit_percent / 100, 2)::numeric(12, 2)
         end
  from public.bookable_services s
  where s.product_id = p_product_id
$$;
revoke execute on function public.booking_deposit(uuid, numeric) from public;
grant execute on function public.booking_deposit(uuid, numeric) to anon, authenticated, service_role;

-- private.deposit_refundable(order): whether a cancellation now is within the refund rule of
-- every booking of the order (until refund_until_hours before its start): then its deposit is
-- credited (invoice_paid_order(), 080_invoices.sql); after it, the deposit is kept.
create function private.deposit_refundable(p_order_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select not exists (
    select 1 from public.bookings b
    where b.order_id = p_order_id and now() > b.starts_at - make_interval(hours => b.refund_until_hours))
$$;
revoke execute on function private.deposit_refundable(uuid) from public, anon, authenticated;

-- place_order's body, shared by both ways to pay: the caller's cart becomes an order in one
-- transaction (prices read here, the total computed here, the reserved reference checked and
-- closed, counted stock and delivery capacity taken, the cart emptied; the same idempotency key answered with the
-- same order). p_fulfilment = {"method": "delivery"|"collection", "day": "YYYY-MM-DD",
-- "areaId": uuid, "address": text, "keepAddress": boolean}: required once fulfilment is set up,
-- ignored before. Private: reached through the public functions below, which pass the caller's
-- own id.
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
          v_method, v_day, v_address, v_area.id, v_area.name, v_fee,
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
    select i.id, i.product_id, i.product_name as name, i.slot_starts_at, i.slot_ends_at, b.buffer_minutes, b.location, b.refund_until_hours,
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
    insert into public.bookings (order_id, order_item_id, user_id, product_id, starts_at, ends_at, free_at, location, refund_until_hours)
    values (v_order.id, v_need.id, p_uid, v_need.product_id, v_need.slot_starts_at, v_need.slot_ends_at,
            v_need.slot_ends_at + make_interval(mins => v_need.buffer_minutes), v_need.location, v_need.refund_until_hours);
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
revoke execute on function private.place_order_for(uuid, uuid, text, text, text, jsonb) from public, anon, authenticated;

drop function private.issue_invoice(uuid);

-- private.issue_invoice(order, part): the next invoice number and the snapshot, from the order's
-- lines as sold, the buyer's profile and the settings as they are now. Each payment received is a
-- time of supply with its own invoice for its amount (docs/bookings.md): part 'full' is the whole
-- order; 'deposit' what checkout asked of an order with a deposit (every line in full but the
-- booked lines' deposits, "Deposit: ..."); 'balance' the rest ("Balance: ...", naming the deposit's
-- invoice). Null, and no number taken, when the part comes to nothing.
create function private.issue_invoice(p_order_id uuid, p_part text default 'full') returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_settings public.invoice_settings;
  v_order public.orders;
  v_company text := '';
  v_address text := '';
  v_buyer_vat text := '';
  v_serial bigint;
  v_amounts numeric[];
  v_vats numeric[];
  v_lines jsonb;
  v_vat numeric(12, 2) := 0;
  v_rate numeric := private.vat_rate_percent();
  v_document text;
  v_number text;
  v_id uuid;
  v_total numeric(12, 2);
  v_deposit_invoice jsonb;
begin
  if p_part is null or p_part not in ('full', 'deposit', 'balance') then
    raise exception 'invoice_part_invalid';
  end if;
  select * into v_settings from public.invoice_settings where id;
  if not found then
    -- No settings saved or seeded yet (the start-up seed creates them): a payment is never
    -- refused for it. A plain invoice, as for a shop not registered for VAT, in the demo name.
    v_settings.vat_registered := false;
    v_settings.vat_number := '';
    v_settings.legal_name := 'Our World Services';
    v_settings.legal_address := coalesce(
      (select nullif(btrim(contact_address), '') from public.shop_settings where id), 'South Africa');
    v_settings.invoice_prefix := 'INV-';
  end if;
  select * into v_order from public.orders where id = p_order_id;
  select p.invoice_company, p.invoice_address, p.invoice_vat_number
    into v_company, v_address, v_buyer_vat
    from public.profiles p where p.id = v_order.user_id;

  select array_agg(l.amount order by l.id),
         jsonb_agg(jsonb_build_object(
           'description', case when l.split then case p_part when 'deposit' then 'Deposit: ' else 'Balance: ' end else '' end
                          || public.order_line_label(l.product_name, l.personalisation),
           'quantity', case when l.split then 1 else l.quantity end,
           'unitPrice', (case when l.split then l.amount else l.unit_price end)::text, 'amount', l.amount::text) order by l.id),
         sum(l.amount)
    into v_amounts, v_lines, v_total
    from (
      select i.id, i.product_name, i.personalisation, i.quantity, i.unit_price,
             p_part <> 'full' and i.deposit is not null as split,
             (case p_part
                when 'full' then i.unit_price * i.quantity
                when 'deposit' then coalesce(i.deposit, i.unit_price * i.quantity)
                else i.unit_price * i.quantity - coalesce(i.deposit, i.unit_price * i.quantity)
              end)::numeric(12, 2) as amount
      from public.order_items i where i.order_id = p_order_id
    ) l
    where l.amount > 0;
  if coalesce(v_total, 0) = 0 then
    return null;
  end if;
  if p_part = 'balance' then
    select jsonb_build_object('number', i.number, 'issuedAt', i.issued_at) into v_deposit_invoice
      from public.invoices i
      where i.order_id = p_order_id and i.kind = 'invoice' and i.snapshot ->> 'part' = 'deposit'
      order by i.serial desc
      limit 1;
  end if;

  if v_settings.vat_registered then
    v_vats := private.vat_allocation(v_amounts, v_rate);
    select jsonb_agg(l.line || jsonb_build_object('vat', v_vats[l.n]::text) order by l.n)
      into v_lines
      from jsonb_array_elements(v_lines) with ordinality as l (line, n);
    select coalesce(sum(x), 0) into v_vat from unnest(v_vats) as x;
    v_document := 'tax_invoice';
  else
    v_document := 'invoice';
  end if;

  update public.invoice_counters set last_number = last_number + 1 where kind = 'invoice'
    returning last_number into v_serial;
  v_number := v_settings.invoice_prefix || lpad(v_serial::text, 6, '0');

  insert into public.invoices (order_id, kind, serial, number, total, vat, snapshot)
  values (p_order_id, 'invoice', v_serial, v_number, v_total, v_vat, jsonb_build_object(
    'version', 1,
    'document', v_document,
    'full', v_settings.vat_registered and v_total > private.full_tax_invoice_above(),
    'number', v_number,
    'issuedAt', now(),
    'orderReference', v_order.reference,
    'orderDate', v_order.created_at,
    'seller', jsonb_build_object(
      'name', v_settings.legal_name, 'address', v_settings.legal_address,
      'vatNumber', case when v_settings.vat_registered then v_settings.vat_number end),
    'buyer', jsonb_build_object(
      'name', v_order.customer_name, 'email', v_order.customer_email,
      'company', coalesce(v_company, ''), 'address', coalesce(v_address, ''), 'vatNumber', coalesce(v_buyer_vat, '')),
    'vatRate', case when v_settings.vat_registered then v_rate end,
    'lines', coalesce(v_lines, '[]'::jsonb),
    'total', v_total::text,
    'vat', v_vat::text,
    'exclusive', (v_total - v_vat)::numeric(12, 2)::text)
    || case when p_part = 'full' then '{}'::jsonb else jsonb_build_object('part', p_part) end
    || case when v_deposit_invoice is null then '{}'::jsonb else jsonb_build_object('depositInvoice', v_deposit_invoice) end)
  returning id into v_id;
  return v_id;
end
$$;
revoke execute on function private.issue_invoice(uuid, text) from public, anon, authenticated;

-- The trigger: an order becoming paid gets an invoice (for its deposit, when it has one) unless
-- it holds one not yet credited (a move between the paid statuses issues nothing); a cancelled
-- order gets a credit note for each such invoice, but a deposit's is kept (not credited) once
-- the cancellation is past its bookings' refund rule (private.deposit_refundable(),
-- 095_bookings.sql). Runs before orders_mail_status (triggers fire by name), so the mail names it.
create or replace function public.invoice_paid_order() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_open uuid;
  v_refundable boolean;
begin
  if new.status is not distinct from old.status then
    return null;
  end if;
  if new.status in ('pending_delivery', 'complete') and old.status not in ('pending_delivery', 'complete')
     and not exists (
       select 1 from public.invoices i
       where i.order_id = new.id and i.kind = 'invoice'
         and not exists (select 1 from public.invoices c where c.credits_invoice_id = i.id)) then
    perform private.issue_invoice(new.id, case when new.deposit is null then 'full' else 'deposit' end);
  elsif new.status = 'cancelled' then
    v_refundable := new.deposit is null or private.deposit_refundable(new.id);
    for v_open in
      select i.id from public.invoices i
      where i.order_id = new.id and i.kind = 'invoice'
        and not exists (select 1 from public.invoices c where c.credits_invoice_id = i.id)
        and (v_refundable or i.snapshot ->> 'part' is distinct from 'deposit')
      order by i.serial
    loop
      perform private.issue_credit_note(v_open);
    end loop;
  end if;
  return null;
end
$$;
revoke execute on function public.invoice_paid_order() from public, anon, authenticated;
grant execute on function public.invoice_paid_order() to service_role;

drop function public.order_for_payment(uuid);

-- The order a provider's notification names, as the server checks it before it asks the
-- provider to confirm: its reference, total and status, what checkout asked (due_now: the
-- deposit, or the total), and for an order with a deposit its balance's reference and amount.
-- Service identity only.
create function public.order_for_payment(p_order_id uuid)
returns table (id uuid, reference text, total numeric, status public.order_status, due_now numeric,
               balance_reference text, balance numeric)
language sql stable security definer set search_path = ''
as $$
  select o.id, o.reference, o.total, o.status, coalesce(o.deposit, o.total), o.balance_reference, o.total - o.deposit
  from public.orders o where o.id = p_order_id;
$$;
revoke execute on function public.order_for_payment(uuid) from public, anon, authenticated;
grant execute on function public.order_for_payment(uuid) to service_role;

drop function public.record_online_payment(text, text, uuid, numeric, jsonb);

-- Balances ------------------------------------------------------------------------------------
-- private.pay_balance(order, method): the balance of an order with a deposit is paid: stamped
-- with how, and its own invoice issued for it (naming the deposit's), in the caller's
-- transaction. Touching the order tells Order Management (live).
create function private.pay_balance(p_order_id uuid, p_method text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.orders set balance_paid_at = now(), balance_payment_method = p_method where id = p_order_id;
  perform private.issue_invoice(p_order_id, 'balance');
end
$$;
revoke execute on function private.pay_balance(uuid, text) from public, anon, authenticated;

-- Records one verified payment, once. Returns 'applied' (the order, or its balance, is paid now),
-- 'refund_due' (recorded; it was no longer payable) or 'duplicate' (this transaction was recorded
-- before: nothing changes, no mail is sent). p_reference says what was paid: the order's own
-- reference (or null) its total, or its deposit when it has one; its balance reference the
-- balance (docs/bookings.md). Refuses an unknown order or a different amount (the server checked
-- both; checked again under the order's lock). Service identity only: the server calls it after
-- every check the provider documents.
create function public.record_online_payment(
  p_provider text, p_provider_payment_id text, p_order_id uuid, p_amount numeric, p_details jsonb, p_reference text default null)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_outcome text;
  v_id uuid;
  v_label text := case p_provider when 'payfast' then 'PayFast' else p_provider end;
  v_balance boolean;
  v_part jsonb;
begin
  -- Concurrent copies of one notification queue here; the first writes, the rest find its row.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  v_balance := p_reference is not null and p_reference is not distinct from v_order.balance_reference;
  if p_reference is not null and not v_balance and p_reference <> v_order.reference then
    raise exception 'order_unknown';
  end if;
  if p_amount is distinct from (case when v_balance then v_order.total - v_order.deposit else coalesce(v_order.deposit, v_order.total) end) then
    raise exception 'amount_mismatch';
  end if;
  if v_balance then
    v_outcome := case when v_order.status in ('pending_delivery', 'complete') and v_order.balance_paid_at is null then 'applied' else 'refund_due' end;
  else
    v_outcome := case when v_order.status = 'pending_payment' then 'applied' else 'refund_due' end;
  end if;

  insert into public.payments (order_id, provider, provider_payment_id, amount, outcome, details, part)
  values (p_order_id, p_provider, p_provider_payment_id, p_amount, v_outcome, coalesce(p_details, '{}'::jsonb),
          case when v_balance then 'balance' else 'order' end)
  on conflict (provider, provider_payment_id) do nothing
  returning id into v_id;
  if v_id is null then
    return 'duplicate';
  end if;

  if v_outcome = 'applied' and v_balance then
    perform private.pay_balance(p_order_id, p_provider);
  elsif v_outcome = 'applied' then
    -- The history says who: the payment, not a person (record_order_status reads the reason).
    perform set_config('shop.status_reason', 'Paid by ' || v_label, true);
    update public.orders set status = 'pending_delivery', payment_method = p_provider where id = p_order_id;
    perform set_config('shop.status_reason', '', true);
  else
    -- The order stays as it is; touching it tells Order Management (live) that it has news.
    update public.orders set updated_at = now() where id = p_order_id;
  end if;

  v_part := case when v_balance then '{"part": "balance"}'::jsonb
                 when v_order.deposit is not null then '{"part": "deposit"}'::jsonb
                 else '{}'::jsonb end;
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', p_amount,
    'provider', v_label, 'refundDue', v_outcome = 'refund_due') || v_part);
  perform private.enqueue_mail(private.shop_notice_address(), 'payment_notice', jsonb_build_object(
    'customerName', v_order.customer_name, 'customerEmail', v_order.customer_email, 'reference', v_order.reference,
    'amount', p_amount, 'provider', v_label, 'providerPaymentId', p_provider_payment_id, 'refundDue', v_outcome = 'refund_due') || v_part);
  return v_outcome;
end
$$;
revoke execute on function public.record_online_payment(text, text, uuid, numeric, jsonb, text) from public, anon, authenticated;
grant execute on function public.record_online_payment(text, text, uuid, numeric, jsonb, text) to service_role;

-- attach_balance_proof(order, proof): the customer pays their order's balance by bank transfer
-- (its own reference) and attaches the proof: their own order, its deposit received (Pending
-- Delivery or Complete), its balance neither paid nor with a proof. Checked as place_order checks
-- a proof.
create function public.attach_balance_proof(p_order_id uuid, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id and user_id = v_uid for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.deposit is null or v_order.balance_paid_at is not null or v_order.balance_proof_path is not null
     or v_order.status not in ('pending_delivery', 'complete') then
    raise exception 'balance_not_due';
  end if;
  if p_proof_path is null or p_proof_path = ''
     or (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path)
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path or o.balance_proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  update public.orders set balance_proof_path = p_proof_path, balance_payment_method = 'bank_transfer'
  where id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
revoke execute on function public.attach_balance_proof(uuid, text) from public, anon;
grant execute on function public.attach_balance_proof(uuid, text) to authenticated, service_role;

-- mark_balance_paid(order): an admin records that an order's balance arrived (by bank transfer,
-- or however it was paid): its own invoice, and the customer's mail. Refused ('balance_not_due')
-- unless the order has a balance not yet paid and its deposit was received.
create function public.mark_balance_paid(p_order_id uuid)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
begin
  if not coalesce((select public.is_admin()), false) then
    raise exception 'admins_only' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.deposit is null or v_order.balance_paid_at is not null or v_order.status not in ('pending_delivery', 'complete') then
    raise exception 'balance_not_due';
  end if;
  perform private.pay_balance(p_order_id, coalesce(v_order.balance_payment_method, 'bank_transfer'));
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', v_order.total - v_order.deposit,
    'provider', case coalesce(v_order.balance_payment_method, 'bank_transfer') when 'payfast' then 'PayFast' else 'bank transfer' end,
    'refundDue', false, 'part', 'balance'));
  select * into v_order from public.orders where id = p_order_id;
  return v_order;
end
$$;
revoke execute on function public.mark_balance_paid(uuid) from public, anon;
grant execute on function public.mark_balance_paid(uuid) to authenticated, service_role;

-- sales_summary(now): today against yesterday and this week (from Monday) against last week
-- (Monday to Sunday): revenue, paid orders and delivery fees, read from the rollup; and the money
-- outstanding (orders still pending payment, and the balances of orders with a deposit not yet
-- paid: how many, their value, when the oldest was placed; and of those, the balances).
-- Security definer: an admin may see every order anyway (checked first), without row-level
-- security's per-row checks on 100,000 orders.
create or replace function public.sales_summary(p_now timestamptz) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_today date := (p_now at time zone 'Africa/Johannesburg')::date;
  v_week date := v_today - (extract(isodow from v_today)::integer - 1);
  v_result jsonb;
begin
  perform private.require_overview_reader();
  with fees as (
    select f.day, sum(f.revenue) as fees
    from public.sales_day_products f
    where f.delivery_fee and f.lines > 0 and f.day >= least(v_week - 7, v_today - 1) and f.day <= v_today
    group by f.day
  ),
  days as (
    select s.day, s.revenue, s.orders, coalesce(f.fees, 0) as fees
    from public.sales_days s left join fees f on f.day = s.day
    where s.orders > 0 and s.day >= least(v_week - 7, v_today - 1) and s.day <= v_today
  )
  select jsonb_build_object(
    'today', v_today,
    'weekStart', v_week,
    'periods', jsonb_build_object(
      'today', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day = v_today), 0)::text,
                                  'orders', coalesce(sum(d.orders) filter (where d.day = v_today), 0),
                                  'deliveryFees', coalesce(sum(d.fees) filter (where d.day = v_today), 0)::text),
      'yesterday', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day = v_today - 1), 0)::text,
                                      'orders', coalesce(sum(d.orders) filter (where d.day = v_today - 1), 0),
                                      'deliveryFees', coalesce(sum(d.fees) filter (where d.day = v_today - 1), 0)::text),
      'thisWeek', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day >= v_week), 0)::text,
                                     'orders', coalesce(sum(d.orders) filter (where d.day >= v_week), 0),
                                     'deliveryFees', coalesce(sum(d.fees) filter (where d.day >= v_week), 0)::text),
      'lastWeek', jsonb_build_object('revenue', coalesce(sum(d.revenue) filter (where d.day < v_week), 0)::text,
                                     'orders', coalesce(sum(d.orders) filter (where d.day < v_week), 0),
                                     'deliveryFees', coalesce(sum(d.fees) filter (where d.day < v_week), 0)::text))
  ) into v_result
  from days d;

  return v_result || (
    select jsonb_build_object('outstanding', jsonb_build_object(
      'orders', count(*), 'value', coalesce(sum(u.due), 0)::text, 'oldest', min(u.created_at),
      'balances', count(*) filter (where u.balance), 'balancesValue', coalesce(sum(u.due) filter (where u.balance), 0)::text))
    from (
      select o.total as due, o.created_at, false as balance
      from public.orders o
      where o.status = 'pending_payment'
      union all
      select o.total - o.deposit, o.created_at, true
      from public.orders o
      where o.deposit is not null and o.balance_paid_at is null and o.status in ('pending_delivery', 'complete')
    ) u
  );
end
$$;
revoke execute on function public.sales_summary(timestamptz) from public, anon;
grant execute on function public.sales_summary(timestamptz) to authenticated, service_role;

-- Order placed: to the customer (items, total, reference, how it is to be paid, and the opening
-- hours for a collection; the bank details come from the settings when the mail is rendered) and
-- to the shop. A deferred trigger, so it runs at commit, when place_order has written the order's
-- lines too.
create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
  v_fulfilment jsonb;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', public.order_line_label(i.product_name, i.personalisation), 'quantity', i.quantity, 'unitPrice', i.unit_price,
                                               'startsAt', i.slot_starts_at, 'endsAt', i.slot_ends_at) order by i.product_id is null, i.id), '[]'::jsonb),
         coalesce(sum(i.quantity) filter (where i.product_id is not null), 0)
    into v_items, v_count
    from public.order_items i where i.order_id = new.id;
  v_fulfilment := case when new.fulfilment_method is null then null else jsonb_build_object(
    'method', new.fulfilment_method, 'day', new.fulfilment_day, 'address', new.delivery_address,
    'area', new.delivery_area_name, 'fee', new.delivery_fee,
    'collectionAddress', case when new.fulfilment_method = 'collection'
      then (select nullif(s.collection_address, '') from public.fulfilment_settings s where s.id) end,
    'openingHours', case when new.fulfilment_method = 'collection' then private.opening_hours_json() end) end;
  perform private.enqueue_customer_notice(new.user_id, new.customer_email, 'order_received', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'reference', new.reference, 'items', v_items, 'total', new.total,
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment,
    'deposit', new.deposit, 'balance', new.total - new.deposit, 'balanceReference', new.balance_reference)));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  return null;
end
$$;
revoke execute on function public.mail_order_placed() from public, anon, authenticated;
grant execute on function public.mail_order_placed() to service_role;

-- A balance's proof is an order's proof too: its owner cannot remove it.
drop policy "payments: delete own unclaimed" on storage.objects;
-- An owner may remove a proof no order refers to (the rollback of a failed checkout); a proof
-- that an order holds (of its payment, or of its balance) stays for the business's records.
create policy "payments: delete own unclaimed" on storage.objects
  for delete to authenticated
  using (
    bucket_id = 'payments'
    and (storage.foldername(name))[1] = (select auth.uid()::text)
    and not exists (
      select 1 from public.orders o where o.proof_path = storage.objects.name or o.balance_proof_path = storage.objects.name)
  );

-- The purge returns the balances' proofs too, to remove their files.
drop function public.purge_expired_records();
-- What the privacy notice promises (src/lib/business-content.ts, POPIA's limit on keeping
-- records): orders and their proofs of payment are deleted 5 years after the order (SARS's record
-- keeping), contact messages and the mails in the outbox 12 months after they were written, the
-- ids of inbound WhatsApp messages after 30 days. Run
-- daily by each server process (src/server/privacy/retention.ts) on its own connection; the
-- proofs' files are removed by the server through the storage port, from the paths returned here.
create function public.purge_expired_records()
returns table (proof_path text, balance_proof_path text)
language plpgsql security definer set search_path = ''
as $$
begin
  -- Several processes run this; one at a time is enough.
  perform pg_advisory_xact_lock(hashtextextended('purge_expired_records', 0));
  delete from public.contact_messages where created_at < now() - interval '12 months';
  delete from public.mail_outbox where created_at < now() - interval '12 months';
  -- Inbound WhatsApp message ids, kept only to take Meta's repeated deliveries once (it retries
  -- for up to 7 days).
  delete from private.whatsapp_inbound_seen where received_at < now() - interval '30 days';
  return query
    delete from public.orders o
    where o.created_at < now() - interval '5 years'
    returning o.proof_path, o.balance_proof_path;
end
$$;
revoke execute on function public.purge_expired_records() from public, anon, authenticated;
grant execute on function public.purge_expired_records() to service_role;

-- A proof of a balance is not a proof of another payment either.
-- A customer whose online payment did not go through pays by bank transfer after all: the proof
-- is attached to their own order, still pending payment and without one. Checked as place_order
-- checks a proof.
create or replace function public.attach_payment_proof(p_order_id uuid, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_order public.orders;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_order from public.orders where id = p_order_id and user_id = v_uid for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if v_order.status <> 'pending_payment' or v_order.proof_path is not null then
    raise exception 'order_not_payable';
  end if;
  if p_proof_path is null or p_proof_path = ''
     or (storage.foldername(p_proof_path))[1] is distinct from v_uid::text
     or not exists (select 1 from storage.objects o where o.bucket_id = 'payments' and o.name = p_proof_path)
     or exists (select 1 from public.orders o where o.proof_path = p_proof_path or o.balance_proof_path = p_proof_path) then
    raise exception 'proof_invalid';
  end if;
  update public.orders set proof_path = p_proof_path, payment_method = 'bank_transfer'
  where id = p_order_id
  returning * into v_order;
  return v_order;
end
$$;
revoke execute on function public.attach_payment_proof(uuid, text) from public, anon;
grant execute on function public.attach_payment_proof(uuid, text) to authenticated, service_role;
