-- Delivery and collection (src/server/fulfilment/, docs/delivery-and-collection.md): areas with
-- fees and minimums, collection, the cut-off, closed days and each category's daily limit, as
-- rows admins edit and everyone reads. Days are South African time. Nothing is asked until the
-- owner sets fulfilment up; from then on every order carries a method and a day, checked here.

-- public.fulfilment_settings ------------------------------------------------------------------
-- Collection and the cut-off: one row, everyone reads it, admins update it.
-- Triggers (they fire in name order within each timing):
--   fulfilment_settings_stamp: before insert or update, per row -> public.stamp_shop_settings() (030_settings.sql)
create table public.fulfilment_settings (
  id boolean primary key default true check (id),
  collection_enabled boolean not null default false,
  collection_address text not null default '' check (char_length(collection_address) <= 300),
  -- An order placed at or after this time (SAST) cannot be for the next day.
  cutoff_time time not null default '14:00',
  updated_at timestamptz not null default now(),
  constraint fulfilment_settings_collection_address check (not collection_enabled or btrim(collection_address) <> '')
);

alter table public.fulfilment_settings enable row level security;
create policy "fulfilment_settings: read all" on public.fulfilment_settings
  for select to anon, authenticated using (true);
create policy "fulfilment_settings: admin update" on public.fulfilment_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.fulfilment_settings from anon, authenticated;
grant all on public.fulfilment_settings to service_role;
grant select on public.fulfilment_settings to anon, authenticated;
grant update (collection_enabled, collection_address, cutoff_time) on public.fulfilment_settings to authenticated;

create trigger fulfilment_settings_stamp
  before insert or update on public.fulfilment_settings
  for each row execute function public.stamp_shop_settings();

-- The one row exists from the start (admins only update it): nothing set up, collection off.
insert into public.fulfilment_settings default values on conflict (id) do nothing;

-- public.delivery_areas -----------------------------------------------------------------------
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
grant all on public.delivery_areas to service_role;
grant select on public.delivery_areas to anon, authenticated;
grant insert (name, fee, minimum_order, active),
      update (name, fee, minimum_order, active) on public.delivery_areas to authenticated;

-- Orders and profiles are created before the areas (040_cart_and_orders.sql, 010_accounts.sql);
-- their references to an area are added here.
alter table public.orders
  add constraint orders_delivery_area_id_fkey foreign key (delivery_area_id) references public.delivery_areas (id);
alter table public.profiles
  add constraint profiles_delivery_area_id_fkey foreign key (delivery_area_id) references public.delivery_areas (id) on delete set null;

-- public.closed_days --------------------------------------------------------------------------
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
grant all on public.closed_days to service_role;
grant select on public.closed_days to anon;
grant select, insert, update, delete on public.closed_days to authenticated;

-- public.daily_capacity -----------------------------------------------------------------------
-- Units of a limited category taken per day: taken by a conditional upsert in place_order's
-- transaction (no row comes back when the day has no room: 'day_full'), given back exactly when
-- the order is cancelled.
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
grant all on public.daily_capacity to service_role;
grant select on public.daily_capacity to authenticated;

-- public.order_capacity -----------------------------------------------------------------------
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
grant all on public.order_capacity to service_role;
grant select on public.order_capacity to authenticated;

-- The days these lines can be delivered or collected, as at p_now (p_lines: [{"product_id": uuid,
-- "quantity": n}], a cart's or a quote's): from SAST today + the lines' longest lead time (at
-- least 1), one day later at or after the cut-off, for four weeks, without the weekdays
-- opening_hours has closed and without closed days, and (p_capacity) without days on which a
-- limited category has no room for the lines' quantity of it. place_order and accept_quote
-- check the chosen day without capacity (the conditional upsert decides that, and says
-- 'day_full').
create function private.fulfilment_days_of(p_lines jsonb, p_now timestamptz, p_capacity boolean)
returns setof date
language sql stable security definer set search_path = ''
as $$
  with settings as (
    select s.cutoff_time from public.fulfilment_settings s where s.id
  ),
  local_now as (
    select (p_now at time zone 'Africa/Johannesburg') as at
  ),
  line as (
    select x.product_id, x.quantity from jsonb_to_recordset(coalesce(p_lines, '[]'::jsonb)) as x(product_id uuid, quantity integer)
  ),
  lead as (
    select coalesce(max(p.lead_time_days), 0) as days
    from line c join public.products p on p.id = c.product_id
  ),
  first_day as (
    select (n.at::date + greatest(1, l.days) + case when n.at::time >= s.cutoff_time then 1 else 0 end)::date as day
    from local_now n, lead l, settings s
  ),
  need as (
    select p.category_id, sum(c.quantity)::integer as quantity, k.daily_limit
    from line c
    join public.products p on p.id = c.product_id
    join public.categories k on k.id = p.category_id
    where k.daily_limit is not null
    group by p.category_id, k.daily_limit
  )
  select d.day::date
  from first_day f, generate_series(f.day::timestamp, (f.day + 27)::timestamp, interval '1 day') as d(day)
  where exists (select 1 from public.opening_hours h where h.weekday = extract(isodow from d.day)::smallint and h.open)
    and not exists (select 1 from public.closed_days x where x.day = d.day::date)
    and (not p_capacity or not exists (
      select 1 from need n
      left join public.daily_capacity dc on dc.category_id = n.category_id and dc.day = d.day::date
      where coalesce(dc.reserved, 0) + n.quantity > n.daily_limit))
  order by d.day;
$$;
revoke execute on function private.fulfilment_days_of(jsonb, timestamptz, boolean) from public, anon, authenticated;

-- A cart's lines as fulfilment reads them (lead times, daily limits): each line's product and quantity.
create function private.cart_fulfilment_lines(p_uid uuid)
returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('product_id', c.product_id, 'quantity', c.quantity)), '[]'::jsonb)
  from public.cart_items c where c.user_id = p_uid;
$$;
revoke execute on function private.cart_fulfilment_lines(uuid) from public, anon, authenticated;

-- The days a cart of p_uid's can be delivered or collected, as at p_now (fulfilment_days_of()).
create function private.fulfilment_days(p_uid uuid, p_now timestamptz, p_capacity boolean)
returns setof date
language sql stable security definer set search_path = ''
as $$
  select d from private.fulfilment_days_of(private.cart_fulfilment_lines(p_uid), p_now, p_capacity) as d;
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

-- A fulfilment choice (p_fulfilment = {"method": "delivery"|"collection", "day": "YYYY-MM-DD",
-- "areaId": uuid, "address": text}) for these lines (fulfilment_days_of()) and their total
-- (p_goods_total, without the fee), checked against the settings and the day offer at this
-- moment: place_order's and accept_quote's one check. Returns the method, the day, the active
-- area (locked shared: it cannot be changed or removed while the order is placed with it), the
-- address and the area's fee; refuses with 'fulfilment_required', 'collection_unavailable',
-- 'area_unknown', 'address_required', 'below_minimum' or 'day_unavailable'. Before fulfilment is
-- set up, nothing is asked: all null and no fee.
create function private.check_fulfilment(
  p_fulfilment jsonb, p_goods_total numeric, p_lines jsonb,
  out o_method text, out o_day date, out o_area_id uuid, out o_area_name text, out o_address text, out o_fee numeric)
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_area public.delivery_areas;
begin
  o_fee := 0;
  if not private.fulfilment_configured() then
    return;
  end if;
  o_method := p_fulfilment ->> 'method';
  if o_method is null or o_method not in ('delivery', 'collection') then
    raise exception 'fulfilment_required';
  end if;
  if o_method = 'collection' then
    if not coalesce((select s.collection_enabled from public.fulfilment_settings s where s.id), false) then
      raise exception 'collection_unavailable';
    end if;
  else
    if (p_fulfilment ->> 'areaId') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      select * into v_area from public.delivery_areas a
      where a.id = (p_fulfilment ->> 'areaId')::uuid and a.active
      for share;
    end if;
    if v_area.id is null then
      raise exception 'area_unknown';
    end if;
    o_address := btrim(coalesce(p_fulfilment ->> 'address', ''));
    if char_length(o_address) < 5 or char_length(o_address) > 300 then
      raise exception 'address_required';
    end if;
    if v_area.minimum_order is not null and p_goods_total < v_area.minimum_order then
      raise exception 'below_minimum';
    end if;
    o_area_id := v_area.id;
    o_area_name := v_area.name;
    o_fee := v_area.fee;
  end if;
  begin
    o_day := (p_fulfilment ->> 'day')::date;
  exception when others then
    raise exception 'day_unavailable';
  end;
  if o_day is null or not exists (select 1 from private.fulfilment_days_of(p_lines, now(), false) d where d = o_day) then
    raise exception 'day_unavailable';
  end if;
end
$$;
revoke execute on function private.check_fulfilment(jsonb, numeric, jsonb) from public, anon, authenticated;

-- The day's capacity for an order's lines (p_lines as fulfilment_days_of() takes them), per
-- limited category, in category order (so two orders never wait on each other's rows
-- crosswise), recorded in order_capacity to give back on cancellation. The upsert adds the
-- quantity only while it fits: under a concurrent order it waits for the row, re-reads it and
-- re-checks. No row back: 'day_full'.
create function private.take_day_capacity(p_order_id uuid, p_day date, p_lines jsonb) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_need record;
  v_taken integer;
begin
  for v_need in
    select p.category_id, sum(c.quantity)::integer as quantity, k.daily_limit
    from jsonb_to_recordset(coalesce(p_lines, '[]'::jsonb)) as c(product_id uuid, quantity integer)
    join public.products p on p.id = c.product_id
    join public.categories k on k.id = p.category_id
    where k.daily_limit is not null
    group by p.category_id, k.daily_limit
    order by p.category_id
  loop
    if v_need.quantity > v_need.daily_limit then
      raise exception 'day_full';
    end if;
    v_taken := null;
    insert into public.daily_capacity as dc (category_id, day, reserved)
    values (v_need.category_id, p_day, v_need.quantity)
    on conflict (category_id, day) do update
      set reserved = dc.reserved + excluded.reserved
      where dc.reserved + excluded.reserved <= v_need.daily_limit
    returning dc.reserved into v_taken;
    if v_taken is null then
      raise exception 'day_full';
    end if;
    insert into public.order_capacity (order_id, category_id, day, quantity)
    values (p_order_id, v_need.category_id, p_day, v_need.quantity);
  end loop;
end
$$;
revoke execute on function private.take_day_capacity(uuid, date, jsonb) from public, anon, authenticated;

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
