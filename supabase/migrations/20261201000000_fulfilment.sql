-- Fulfilment (issue 27, ARCHITECTURE §19): delivery to an address in one of the shop's areas (a
-- fee per area, an optional minimum order) or collection, on a day the shop can honour: every
-- line's lead time, the cut-off for next-day orders, closed weekdays, public holidays and closed
-- days, and each category's daily limit. Days are South African time (Africa/Johannesburg).
--
-- * The settings are database rows admins edit (fulfilment_settings, delivery_areas,
--   closed_days) and everyone reads, so checkout sees a change at once.
-- * Nothing is asked until the owner sets fulfilment up (collection on, or any active area);
--   from then on every order carries a method and a day, checked here, not in TypeScript.
-- * The fee is an order line ("Delivery to Sandton", no product) and part of orders.total, both
--   written in place_order's transaction; orders.delivery_fee keeps it apart from the goods.
-- * Capacity: daily_capacity counts the units of a limited category taken per day. It is taken
--   by a conditional upsert in place_order's transaction (no row comes back when the day has no
--   room: 'day_full', everything rolled back), recorded per order (order_capacity) and given
--   back exactly when the order is cancelled, taken again if it is un-cancelled.
--
-- Supersedes private.place_order_for(uuid, uuid, text, text, text) of
-- 20261130000000_online_payments.sql (dropped: its body lives on in the six-argument version
-- below), public.place_order(uuid, text, text) and public.place_order_pay_now(uuid, text) of the
-- same file (now pass no fulfilment), and public.mail_order_placed() of the same file.

-- Settings ----------------------------------------------------------------------------------------
create table public.fulfilment_settings (
  id boolean primary key default true check (id),
  collection_enabled boolean not null default false,
  collection_address text not null default '' check (char_length(collection_address) <= 300),
  collection_hours text not null default '' check (char_length(collection_hours) <= 200),
  -- An order placed at or after this time (SAST) cannot be for the next day.
  cutoff_time time not null default '14:00',
  -- ISO weekdays the shop neither delivers nor hands over (1 Monday ... 7 Sunday).
  closed_weekdays smallint[] not null default '{}' check (closed_weekdays <@ '{1,2,3,4,5,6,7}'::smallint[]),
  updated_at timestamptz not null default now(),
  constraint fulfilment_settings_collection_address check (not collection_enabled or btrim(collection_address) <> '')
);
alter table public.fulfilment_settings enable row level security;
insert into public.fulfilment_settings default values;

create trigger fulfilment_settings_stamp
  before insert or update on public.fulfilment_settings
  for each row execute function public.stamp_shop_settings();

create policy "fulfilment_settings: read all" on public.fulfilment_settings
  for select to anon, authenticated using (true);
create policy "fulfilment_settings: admin update" on public.fulfilment_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
revoke all on public.fulfilment_settings from anon, authenticated;
grant select on public.fulfilment_settings to anon, authenticated;
grant update (collection_enabled, collection_address, collection_hours, cutoff_time, closed_weekdays)
  on public.fulfilment_settings to authenticated;
grant all on public.fulfilment_settings to service_role;

-- Delivery areas: a suburb or a postal code each. An area is never deleted once it exists (old
-- orders point at it): removing it deactivates it, and checkout offers active areas only.
create table public.delivery_areas (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 100),
  fee numeric(12, 2) not null check (fee >= 0),
  minimum_order numeric(12, 2) check (minimum_order > 0),
  active boolean not null default true,
  created_at timestamptz not null default now()
);
create unique index delivery_areas_active_name_idx on public.delivery_areas (lower(btrim(name))) where active;
alter table public.delivery_areas enable row level security;

create policy "delivery_areas: read active" on public.delivery_areas
  for select to anon using (active);
create policy "delivery_areas: read active or admin" on public.delivery_areas
  for select to authenticated using (active or (select public.is_admin()));
create policy "delivery_areas: admin insert" on public.delivery_areas
  for insert to authenticated with check ((select public.is_admin()));
create policy "delivery_areas: admin update" on public.delivery_areas
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
revoke all on public.delivery_areas from anon, authenticated;
grant select on public.delivery_areas to anon, authenticated;
grant insert (name, fee, minimum_order, active), update (name, fee, minimum_order, active)
  on public.delivery_areas to authenticated;
grant all on public.delivery_areas to service_role;

-- Public holidays and other days the shop is closed.
create table public.closed_days (
  day date primary key,
  reason text not null check (char_length(btrim(reason)) between 1 and 100)
);
alter table public.closed_days enable row level security;

create policy "closed_days: read all" on public.closed_days
  for select to anon, authenticated using (true);
create policy "closed_days: admin insert" on public.closed_days
  for insert to authenticated with check ((select public.is_admin()));
create policy "closed_days: admin update" on public.closed_days
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
create policy "closed_days: admin delete" on public.closed_days
  for delete to authenticated using ((select public.is_admin()));
revoke all on public.closed_days from anon, authenticated;
grant select on public.closed_days to anon, authenticated;
grant insert, update, delete on public.closed_days to authenticated;
grant all on public.closed_days to service_role;

-- Per product and per category (the product dashboard; products and categories keep their
-- table-wide grants and admin-only policies).
alter table public.products
  add column lead_time_days integer not null default 0 check (lead_time_days between 0 and 60);
alter table public.categories
  add column daily_limit integer check (daily_limit between 1 and 100000);

-- Capacity ----------------------------------------------------------------------------------------
create table public.daily_capacity (
  category_id uuid not null references public.categories (id) on delete cascade,
  day date not null,
  reserved integer not null default 0 check (reserved >= 0),
  primary key (category_id, day)
);
alter table public.daily_capacity enable row level security;
create policy "daily_capacity: admin read" on public.daily_capacity
  for select to authenticated using ((select public.is_admin()));
revoke all on public.daily_capacity from anon, authenticated;
grant select on public.daily_capacity to authenticated;
grant all on public.daily_capacity to service_role;

-- What each order took, so a cancellation gives back exactly that.
create table public.order_capacity (
  order_id uuid not null references public.orders (id) on delete cascade,
  category_id uuid not null references public.categories (id) on delete cascade,
  day date not null,
  quantity integer not null check (quantity > 0),
  primary key (order_id, category_id)
);
create index order_capacity_category_day_idx on public.order_capacity (category_id, day);
alter table public.order_capacity enable row level security;
create policy "order_capacity: admin read" on public.order_capacity
  for select to authenticated using ((select public.is_admin()));
revoke all on public.order_capacity from anon, authenticated;
grant select on public.order_capacity to authenticated;
grant all on public.order_capacity to service_role;

-- The order's fulfilment --------------------------------------------------------------------------
alter table public.orders
  add column fulfilment_method text check (fulfilment_method in ('delivery', 'collection')),
  add column fulfilment_day date,
  add column delivery_address text check (char_length(delivery_address) <= 300),
  add column delivery_area_id uuid references public.delivery_areas (id),
  -- The area's name when the order was placed (an area may be renamed or removed later).
  add column delivery_area_name text check (char_length(delivery_area_name) <= 100),
  add column delivery_fee numeric(12, 2) not null default 0 check (delivery_fee >= 0),
  add constraint orders_fulfilment_shape check (
    (fulfilment_method is null and fulfilment_day is null and delivery_address is null and delivery_area_id is null and delivery_fee = 0)
    or (fulfilment_method = 'collection' and fulfilment_day is not null and delivery_address is null and delivery_area_id is null and delivery_fee = 0)
    or (fulfilment_method = 'delivery' and fulfilment_day is not null and delivery_address is not null and delivery_area_id is not null));
create index orders_fulfilment_day_idx on public.orders (fulfilment_day) where fulfilment_day is not null;

-- The delivery fee's order line is marked, so what counts goods (the sales overview's products
-- and business lines) leaves it out, and the fee can be counted apart from goods.
alter table public.order_items
  add column is_delivery_fee boolean not null default false,
  add constraint order_items_fee_shape check (not is_delivery_fee or product_id is null);
create index orders_delivery_area_idx on public.orders (delivery_area_id) where delivery_area_id is not null;

-- "Keep this address for next time": written by place_order only (customers keep their column
-- grants on profiles: full name and picture).
alter table public.profiles
  add column delivery_address text check (char_length(delivery_address) <= 300),
  add column delivery_area_id uuid references public.delivery_areas (id) on delete set null;

-- The day offer -----------------------------------------------------------------------------------
-- The days a cart of p_uid's can be delivered or collected, as at p_now: from SAST today + the
-- cart's longest lead time (at least 1), one day later at or after the cut-off, for four weeks,
-- without closed weekdays and closed days, and (p_capacity) without days on which a limited
-- category has no room for the cart's quantity of it. place_order checks the chosen day without
-- capacity (the conditional upsert decides that, and says 'day_full').
create function private.fulfilment_days(p_uid uuid, p_now timestamptz, p_capacity boolean)
returns setof date
language sql stable security definer set search_path = ''
as $$
  with settings as (
    select s.cutoff_time, s.closed_weekdays from public.fulfilment_settings s where s.id
  ),
  local_now as (
    select (p_now at time zone 'Africa/Johannesburg') as at
  ),
  lead as (
    select coalesce(max(p.lead_time_days), 0) as days
    from public.cart_items c join public.products p on p.id = c.product_id
    where c.user_id = p_uid
  ),
  first_day as (
    select (n.at::date + greatest(1, l.days) + case when n.at::time >= s.cutoff_time then 1 else 0 end)::date as day
    from local_now n, lead l, settings s
  ),
  need as (
    select p.category_id, sum(c.quantity)::integer as quantity, k.daily_limit
    from public.cart_items c
    join public.products p on p.id = c.product_id
    join public.categories k on k.id = p.category_id
    where c.user_id = p_uid and k.daily_limit is not null
    group by p.category_id, k.daily_limit
  )
  select d.day::date
  from first_day f, settings s, generate_series(f.day::timestamp, (f.day + 27)::timestamp, interval '1 day') as d(day)
  where not (extract(isodow from d.day)::smallint = any (s.closed_weekdays))
    and not exists (select 1 from public.closed_days x where x.day = d.day::date)
    and (not p_capacity or not exists (
      select 1 from need n
      left join public.daily_capacity dc on dc.category_id = n.category_id and dc.day = d.day::date
      where coalesce(dc.reserved, 0) + n.quantity > n.daily_limit))
  order by d.day;
$$;
revoke execute on function private.fulfilment_days(uuid, timestamptz, boolean) from public, anon, authenticated;

-- Whether checkout asks at all: collection is on, or there is an active delivery area.
create function private.fulfilment_configured()
returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select s.collection_enabled from public.fulfilment_settings s where s.id), false)
      or exists (select 1 from public.delivery_areas a where a.active);
$$;
revoke execute on function private.fulfilment_configured() from public, anon, authenticated;

-- The caller's offer: the next 14 days their cart can have. p_now only moves the clock (the
-- tests fix it); place_order checks the chosen day at its own now().
create function public.fulfilment_days(p_now timestamptz default now())
returns setof date
language sql stable security definer set search_path = ''
as $$
  select d from private.fulfilment_days((select auth.uid()), p_now, true) as d where (select auth.uid()) is not null limit 14;
$$;
revoke execute on function public.fulfilment_days(timestamptz) from public, anon;
grant execute on function public.fulfilment_days(timestamptz) to authenticated, service_role;

-- Placing an order --------------------------------------------------------------------------------
-- place_order's body (20261130000000_online_payments.sql) with the fulfilment choice:
-- p_fulfilment = {"method": "delivery"|"collection", "day": "YYYY-MM-DD", "areaId": uuid,
-- "address": text, "keepAddress": boolean}. Required once fulfilment is set up, ignored before.
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

  if exists (
    select 1 from public.cart_items c
    join public.products p on p.id = c.product_id
    where c.user_id = p_uid and not p.available
  ) then
    raise exception 'product_unavailable';
  end if;

  -- The reference paid with must be the one this customer holds reserved; deleting it checks and
  -- closes it at once (rolled back with everything else if anything below fails).
  delete from public.checkout_references r where r.user_id = p_uid and r.reference = p_reference;
  if not found then
    raise exception 'reference_stale';
  end if;

  select sum(p.price * c.quantity) into v_total
  from public.cart_items c
  join public.products p on p.id = c.product_id
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

  insert into public.order_items (order_id, product_id, product_name, unit_price, quantity, image_path)
  select v_order.id, p.id, p.name, p.price, c.quantity, p.image_path
  from public.cart_items c
  join public.products p on p.id = c.product_id
  where c.user_id = p_uid
  order by c.added_at;

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

-- As before: no fulfilment (refused with 'fulfilment_required' once fulfilment is set up).
create or replace function public.place_order(p_idempotency_key uuid, p_reference text, p_proof_path text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return private.place_order_for((select auth.uid()), p_idempotency_key, p_reference, p_proof_path, 'bank_transfer', null);
end
$$;

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

create or replace function public.place_order_pay_now(p_idempotency_key uuid, p_reference text)
returns public.orders
language plpgsql security definer set search_path = ''
as $$
begin
  return public.place_order_pay_now(p_idempotency_key, p_reference, null);
end
$$;

drop function private.place_order_for(uuid, uuid, text, text, text);

-- Cancelling gives the capacity back; moving an order out of cancelled takes it again (the
-- shop's own decision: it is taken even past the limit).
create function public.order_capacity_on_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.status = 'cancelled' and old.status <> 'cancelled' then
    update public.daily_capacity dc
    set reserved = greatest(dc.reserved - oc.quantity, 0)
    from public.order_capacity oc
    where oc.order_id = new.id and dc.category_id = oc.category_id and dc.day = oc.day;
  elsif old.status = 'cancelled' and new.status <> 'cancelled' then
    insert into public.daily_capacity as dc (category_id, day, reserved)
    select oc.category_id, oc.day, oc.quantity from public.order_capacity oc where oc.order_id = new.id
    order by oc.category_id
    on conflict (category_id, day) do update set reserved = dc.reserved + excluded.reserved;
  end if;
  return null;
end
$$;
revoke execute on function public.order_capacity_on_status() from public, anon, authenticated;
grant execute on function public.order_capacity_on_status() to service_role;
create trigger orders_capacity_on_status
  after update of status on public.orders
  for each row when (old.status is distinct from new.status)
  execute function public.order_capacity_on_status();

-- Mails ---------------------------------------------------------------------------------------------
-- Order placed: as in 20261130000000_online_payments.sql, and both mails say how and when the
-- order reaches the customer (the fee is among the items, as a line).
create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
  v_fulfilment jsonb;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', i.product_name, 'quantity', i.quantity, 'unitPrice', i.unit_price) order by i.product_id is null, i.id), '[]'::jsonb),
         coalesce(sum(i.quantity) filter (where i.product_id is not null), 0)
    into v_items, v_count
    from public.order_items i where i.order_id = new.id;
  v_fulfilment := case when new.fulfilment_method is null then null else jsonb_build_object(
    'method', new.fulfilment_method, 'day', new.fulfilment_day, 'address', new.delivery_address,
    'area', new.delivery_area_name, 'fee', new.delivery_fee,
    'collectionAddress', case when new.fulfilment_method = 'collection'
      then (select nullif(s.collection_address, '') from public.fulfilment_settings s where s.id) end,
    'collectionHours', case when new.fulfilment_method = 'collection'
      then (select nullif(s.collection_hours, '') from public.fulfilment_settings s where s.id) end) end;
  perform private.enqueue_mail(new.customer_email, 'order_received', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'reference', new.reference, 'items', v_items, 'total', new.total,
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  return null;
end
$$;
