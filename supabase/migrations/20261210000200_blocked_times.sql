-- Blocked times (issue 38, docs/bookings.md): the owner blocks a closed day or an afternoon, for
-- one service or every service; free_slots() offers no time overlapping one, so holds, bookings
-- and moves are refused there too.
-- Supersedes: private.free_slots() of 20261207000100_free_slots.sql.

-- public.booking_blocks ------------------------------------------------------------------------
-- Times the owner blocks (a closed day, an afternoon): for one service, or every service (null).
-- A free time overlapping one is not offered, held, booked or moved to (private.free_slots());
-- bookings made before stay, and the admins' list names those it clashes with. Admins only.
create table public.booking_blocks (
  id uuid primary key default gen_random_uuid(),
  product_id uuid references public.bookable_services (product_id) on delete cascade,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  reason text not null default '' check (char_length(reason) <= 200),
  created_at timestamptz not null default now(),
  constraint booking_blocks_times check (starts_at < ends_at and ends_at - starts_at <= interval '62 days')
);

create index booking_blocks_ends_idx on public.booking_blocks (ends_at);

alter table public.booking_blocks enable row level security;
create policy "booking_blocks: admin read" on public.booking_blocks
  for select to authenticated using ((select public.is_admin()));
create policy "booking_blocks: admin insert" on public.booking_blocks
  for insert to authenticated with check ((select public.is_admin()));
create policy "booking_blocks: admin delete" on public.booking_blocks
  for delete to authenticated using ((select public.is_admin()));

revoke all on public.booking_blocks from anon, authenticated;
grant select, delete on public.booking_blocks to authenticated;
grant insert (product_id, starts_at, ends_at, reason) on public.booking_blocks to authenticated;
grant all on public.booking_blocks to service_role;


-- Free times ---------------------------------------------------------------------------------
-- In South African time (Africa/Johannesburg, no daylight saving):
-- * a day is offered when the service's hours for its weekday (bookable_service_hours, else the
--   shop's opening hours) are open and it is not a closed day, from today up to horizon_days ahead;
-- * on such a day a slot starts every 30 minutes from the opening time while the service ends by
--   the closing time, and not before now + notice_hours;
-- * a slot takes the service's duration plus its buffer; it is free while, at every moment of it,
--   fewer than capacity bookings (booked, until their free_at) and live holds of other customers
--   (cart lines whose hold has not expired) run at once. places says how many are left;
-- * a slot whose service time overlaps a blocked time (booking_blocks) of the service or of every
--   service is not offered.
-- private.free_slots takes the clock (p_now), whose holds not to count (p_except_user: a
-- customer's own hold is not in their way) and whether the notice applies (a live hold was taken
-- within it); public.free_slots is the shop's: now, everyone's holds, with notice. It says when,
-- never who.
-- JIT off: the estimate of 30 days of slots crosses PostgreSQL's JIT threshold, and compiling
-- took half a second of a 20 ms query (measured, tests/db/free-slots.test.ts).
create or replace function private.free_slots(
  p_product_id uuid, p_from date, p_days integer, p_now timestamptz, p_except_user uuid, p_notice boolean)
returns table (starts_at timestamptz, ends_at timestamptz, places integer)
language sql stable security definer set search_path = '' set jit = off
as $$
  with service as (
    select s.capacity,
           make_interval(mins => s.duration_minutes) as duration,
           make_interval(mins => s.duration_minutes + s.buffer_minutes) as span,
           case when p_notice then p_now + make_interval(hours => s.notice_hours) else p_now end as earliest,
           (p_now at time zone 'Africa/Johannesburg')::date as today,
           s.horizon_days
    from public.bookable_services s
    join public.products p on p.id = s.product_id
    where s.product_id = p_product_id and p.available
  ),
  days as (
    select d::date as day
    from service s,
         generate_series(greatest(p_from, s.today)::timestamp,
                         least(p_from + least(greatest(p_days, 0), 62) - 1, s.today + s.horizon_days)::timestamp,
                         interval '1 day') as d
  ),
  hours as (
    select d.day, coalesce(sh.opens, oh.opens) as opens, coalesce(sh.closes, oh.closes) as closes
    from days d
    join public.opening_hours oh on oh.weekday = extract(isodow from d.day)::smallint
    left join public.bookable_service_hours sh on sh.product_id = p_product_id and sh.weekday = oh.weekday
    where coalesce(sh.open, oh.open)
      and not exists (select 1 from public.closed_days x where x.day = d.day)
  ),
  candidates as (
    select (t at time zone 'Africa/Johannesburg') as starts_at
    from hours h, service s,
         generate_series(h.day + h.opens, h.day + h.closes - s.duration, interval '30 minutes') as t
  ),
  -- The longest a booking of this service takes its slot (bookings keep the duration and buffer
  -- they were made with): how far back to look for one still running at a slot's start.
  reach as (
    select greatest(coalesce(max(b.free_at - b.starts_at), interval '0'), (select s.span from service s)) as back
    from public.bookings b
    where b.product_id = p_product_id and b.status = 'booked'
      and b.starts_at >= (select min(c.starts_at) from candidates c) - interval '2 days'
      and b.starts_at < (select max(c.starts_at) from candidates c) + (select s.span from service s)
  )
  select c.starts_at, c.starts_at + s.duration, s.capacity - coalesce(u.used, 0)::integer
  from candidates c
  cross join service s
  cross join reach r
  cross join lateral (
    select coalesce(array_agg(o.starts_at), '{}') as starts, coalesce(array_agg(o.free_at), '{}') as frees
    from (
      select b.starts_at, b.free_at
      from public.bookings b
      where b.product_id = p_product_id and b.status = 'booked'
        and b.starts_at > c.starts_at - r.back and b.starts_at < c.starts_at + s.span
        and b.free_at > c.starts_at
      union all
      select h.slot_starts_at, h.slot_starts_at + s.span
      from public.cart_items h
      where h.product_id = p_product_id and h.slot_starts_at is not null
        and h.slot_starts_at > c.starts_at - s.span and h.slot_starts_at < c.starts_at + s.span
        and h.hold_expires_at > p_now and h.user_id is distinct from p_except_user
    ) o
  ) taken
  -- The most running at once during the slot: at its start, or where one of them starts.
  cross join lateral (
    select max((select count(*) from unnest(taken.starts, taken.frees) as q(s, f) where q.s <= pt.at and pt.at < q.f)) as used
    from unnest(array[c.starts_at] || taken.starts) as pt(at)
    where pt.at >= c.starts_at
  ) u
  where c.starts_at >= s.earliest
    and s.capacity - coalesce(u.used, 0) > 0
    and not exists (
      select 1 from public.booking_blocks k
      where (k.product_id is null or k.product_id = p_product_id)
        and k.starts_at < c.starts_at + s.duration and k.ends_at > c.starts_at)
  order by c.starts_at;
$$;
revoke execute on function private.free_slots(uuid, date, integer, timestamptz, uuid, boolean) from public, anon, authenticated;
grant execute on function private.free_slots(uuid, date, integer, timestamptz, uuid, boolean) to service_role;
