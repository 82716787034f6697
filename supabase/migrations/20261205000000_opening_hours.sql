-- Opening hours as data (issue 34): per weekday, open or closed and from-to (South African time).
-- The days checkout offers and the hours customers read both come from these rows, so they cannot
-- disagree (before, a free-text "collection hours" could say Mon-Fri while a separate, often empty,
-- list of closed weekdays let checkout offer Saturday and Sunday).
--
-- * opening_hours: seven rows, one per ISO weekday (1 Monday ... 7 Sunday), always present;
--   admins update them, everyone reads them.
-- * Migrated from fulfilment_settings: the weekdays in closed_weekdays are closed, the others
--   open; with no closed weekday saved, Saturday and Sunday are closed (the hours text most shops
--   wrote said Mon-Fri). The times are the first "HH:MM-HH:MM" found in collection_hours, else
--   09:00-16:00. Then collection_hours and closed_weekdays are dropped, and so is
--   shop_settings.contact_hours: the hours the footer, contact page and terms show are worded
--   from these rows too (src/lib/opening-hours.ts), never typed apart from them.
-- * They are in the storefront's cache and the visitors' kept pages (footer, contact page): every
--   server process drops both when they change, as for shop_settings.
--
-- Supersedes private.fulfilment_days(uuid, timestamptz, boolean) and public.mail_order_placed()
-- of 20261201000000_fulfilment.sql: a closed weekday is never offered, and so place_order (which
-- checks the chosen day against private.fulfilment_days) refuses it with 'day_unavailable'; the
-- order mail carries the opening hours as data (the mail template words them).

create table public.opening_hours (
  weekday smallint primary key check (weekday between 1 and 7),
  open boolean not null default false,
  opens time not null default '09:00',
  closes time not null default '16:00',
  updated_at timestamptz not null default now(),
  constraint opening_hours_order check (opens < closes)
);
alter table public.opening_hours enable row level security;

create trigger opening_hours_stamp
  before insert or update on public.opening_hours
  for each row execute function public.stamp_shop_settings();

create trigger opening_hours_catalogue_changes
  after insert or update or delete or truncate on public.opening_hours
  for each statement execute function public.notify_catalogue_change();

create policy "opening_hours: read all" on public.opening_hours
  for select to anon, authenticated using (true);
create policy "opening_hours: admin update" on public.opening_hours
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));
revoke all on public.opening_hours from anon, authenticated;
grant select on public.opening_hours to anon, authenticated;
grant update (open, opens, closes) on public.opening_hours to authenticated;
grant all on public.opening_hours to service_role;

with settings as (
  select s.closed_weekdays,
         regexp_match(s.collection_hours, '([01]?[0-9]|2[0-3])[:h.]([0-5][0-9])\s*(?:-|–|—|to)\s*([01]?[0-9]|2[0-3])[:h.]([0-5][0-9])') as t
  from public.fulfilment_settings s where s.id
),
times as (
  select s.closed_weekdays,
         case when s.t is not null and make_time(s.t[1]::int, s.t[2]::int, 0) < make_time(s.t[3]::int, s.t[4]::int, 0)
           then make_time(s.t[1]::int, s.t[2]::int, 0) else time '09:00' end as opens,
         case when s.t is not null and make_time(s.t[1]::int, s.t[2]::int, 0) < make_time(s.t[3]::int, s.t[4]::int, 0)
           then make_time(s.t[3]::int, s.t[4]::int, 0) else time '16:00' end as closes
  from settings s
)
insert into public.opening_hours (weekday, open, opens, closes)
select d, case when cardinality(coalesce(t.closed_weekdays, '{}')) > 0 then not (d::smallint = any (t.closed_weekdays)) else d <= 5 end,
       coalesce(t.opens, time '09:00'), coalesce(t.closes, time '16:00')
from generate_series(1, 7) as d
left join times t on true;

-- The day offer, as in 20261201000000_fulfilment.sql, with closed weekdays read from opening_hours.
create or replace function private.fulfilment_days(p_uid uuid, p_now timestamptz, p_capacity boolean)
returns setof date
language sql stable security definer set search_path = ''
as $$
  with settings as (
    select s.cutoff_time from public.fulfilment_settings s where s.id
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
  from first_day f, generate_series(f.day::timestamp, (f.day + 27)::timestamp, interval '1 day') as d(day)
  where exists (select 1 from public.opening_hours h where h.weekday = extract(isodow from d.day)::smallint and h.open)
    and not exists (select 1 from public.closed_days x where x.day = d.day::date)
    and (not p_capacity or not exists (
      select 1 from need n
      left join public.daily_capacity dc on dc.category_id = n.category_id and dc.day = d.day::date
      where coalesce(dc.reserved, 0) + n.quantity > n.daily_limit))
  order by d.day;
$$;
revoke execute on function private.fulfilment_days(uuid, timestamptz, boolean) from public, anon, authenticated;

-- The opening hours as the mails word them: [{"weekday": 1, "opens": "09:00", "closes": "16:00"}, ...],
-- open days only (src/lib/opening-hours.ts words them).
create function private.opening_hours_json() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('weekday', h.weekday, 'opens', to_char(h.opens, 'HH24:MI'), 'closes', to_char(h.closes, 'HH24:MI'))
                            order by h.weekday) filter (where h.open), '[]'::jsonb)
  from public.opening_hours h;
$$;
revoke execute on function private.opening_hours_json() from public, anon, authenticated;

-- Order placed: as in 20261201000000_fulfilment.sql, with the opening hours (data) for a collection.
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
    'openingHours', case when new.fulfilment_method = 'collection' then private.opening_hours_json() end) end;
  perform private.enqueue_mail(new.customer_email, 'order_received', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'reference', new.reference, 'items', v_items, 'total', new.total,
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  return null;
end
$$;

alter table public.fulfilment_settings drop column collection_hours, drop column closed_weekdays;
alter table public.shop_settings drop column contact_hours;
