-- Bookings (src/server/bookings/; docs/bookings.md): what place_order (100_checkout.sql) makes of
-- a held slot of a bookable service (020_catalogue.sql), and the free times the shop offers.

-- public.bookings -----------------------------------------------------------------------------
create table public.bookings (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null references public.orders (id) on delete cascade,
  order_item_id uuid not null unique references public.order_items (id) on delete cascade,
  -- Kept (as null) after the customer deletes their account, as the order is.
  user_id uuid references public.profiles (id) on delete set null,
  -- Null once the product is deleted (no slot of it is offered any more).
  product_id uuid references public.products (id) on delete set null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  -- ends_at plus the service's buffer as at booking: the slot is taken until then.
  free_at timestamptz not null,
  status text not null default 'booked' check (status in ('booked', 'cancelled')),
  location text not null check (location in ('customer_address', 'shop', 'online')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint bookings_times check (starts_at < ends_at and ends_at <= free_at),
  -- The service's refund rule as at booking: its deposit is refunded (credited) when the booking
  -- is cancelled until this many hours before its start, and kept after.
  refund_until_hours integer not null default 0 check (refund_until_hours between 0 and 720),
  -- The start the 24-hour reminder went out for (send_booking_reminders()): once per start, so a
  -- moved booking is reminded of its new time and never of the old one.
  reminded_for timestamptz
);

-- The free-slot computation reads a service's booked slots by start time, and their end.
create index bookings_product_starts_idx on public.bookings (product_id, starts_at) include (free_at)
  where status = 'booked';
create index bookings_order_idx on public.bookings (order_id);
create index bookings_user_idx on public.bookings (user_id, starts_at);
-- The reminders' sweep, and the admins' calendar: booked bookings by start.
create index bookings_booked_starts_idx on public.bookings (starts_at) where status = 'booked';

alter table public.bookings enable row level security;
create policy "bookings: read own or admin" on public.bookings
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

revoke all on public.bookings from anon, authenticated;
grant select on public.bookings to authenticated;
grant all on public.bookings to service_role;

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
-- p_at: only that start is considered (a hold, a checkout or a move checking the one time it
-- takes), with the same rules; a day has up to 48 starts, each counted against the bookings.
-- JIT off: the estimate of 30 days of slots crosses PostgreSQL's JIT threshold, and compiling
-- took half a second of a 20 ms query (measured, tests/db/free-slots.test.ts). PL/pgSQL with one
-- generic plan: a SQL function is parsed and planned again at every call (PostgreSQL before 18),
-- which was 1.5 of a checkout's 1.9 ms here; the plan is kept per connection instead.
create function private.free_slots(
  p_product_id uuid, p_from date, p_days integer, p_now timestamptz, p_except_user uuid, p_notice boolean, p_at timestamptz default null)
returns table (starts_at timestamptz, ends_at timestamptz, places integer)
language plpgsql stable security definer set search_path = '' set jit = off set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
begin
  return query
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
    where p_at is null or (t at time zone 'Africa/Johannesburg') = p_at
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
end
$$;
revoke execute on function private.free_slots(uuid, date, integer, timestamptz, uuid, boolean, timestamptz) from public, anon, authenticated;
grant execute on function private.free_slots(uuid, date, integer, timestamptz, uuid, boolean, timestamptz) to service_role;

-- The shop's free times of a service: p_days days from p_from (at most 62), now, with notice.
create function public.free_slots(p_product_id uuid, p_from date, p_days integer)
returns table (starts_at timestamptz, ends_at timestamptz, places integer)
language sql stable security definer set search_path = ''
as $$
  select f.starts_at, f.ends_at, f.places from private.free_slots(p_product_id, p_from, p_days, now(), null, true) f
$$;
revoke execute on function public.free_slots(uuid, date, integer) from public;
grant execute on function public.free_slots(uuid, date, integer) to anon, authenticated, service_role;

-- Booking locks ----------------------------------------------------------------------------------
-- private.lock_booking_spans(products, froms, tos): the locks under which a time of a service is
-- checked and taken (a hold, a booking, a move) or given back (a cancellation): one
-- transaction-level advisory lock per service and clock hour (since the epoch) that each span
-- [from, to) touches, taken in one order (by key) so that two callers never wait on each other
-- crosswise. Two spans that overlap share an instant and so that instant's hour: transactions
-- taking overlapping times of one service queue here, and the later one sees what the earlier
-- committed, which keeps the last place single. Times that do not overlap (another hour of the
-- service, another service) do not wait for each other. Held to the commit.
create function private.lock_booking_spans(p_product_ids uuid[], p_froms timestamptz[], p_tos timestamptz[]) returns void
language plpgsql volatile set search_path = ''
as $$
declare
  v_key bigint;
begin
  for v_key in
    select distinct hashtextextended('booking:' || s.product_id::text || ':' || h::text, 0)
    from unnest(p_product_ids, p_froms, p_tos) as s(product_id, starts_at, ends_at)
    cross join lateral generate_series(
      floor(extract(epoch from s.starts_at) / 3600)::bigint,
      greatest(floor(extract(epoch from s.starts_at) / 3600), ceil(extract(epoch from s.ends_at) / 3600) - 1)::bigint) as h
    order by 1
  loop
    perform pg_advisory_xact_lock(v_key);
  end loop;
end
$$;
revoke execute on function private.lock_booking_spans(uuid[], timestamptz[], timestamptz[]) from public, anon, authenticated;

-- Holding a slot ------------------------------------------------------------------------------
-- add_booking_to_cart(variant, start): puts one slot of a bookable service in the caller's cart
-- and holds it for 15 minutes (BOOKING_HOLD_MINUTES, src/lib/constants.ts): while the hold is
-- live, the slot's place is out of everyone else's free times. The slot must be one the shop
-- offers now (private.free_slots, not counting the caller's own holds); holding it again renews
-- the hold. Holds, bookings and moves take the locks of the hours they cover
-- (private.lock_booking_spans()), so two customers cannot both take its last place. Security
-- definer: the free times count other customers' holds and bookings, which the caller cannot
-- read, and customers cannot write a slot.
create function public.add_booking_to_cart(p_variant_id uuid, p_starts_at timestamptz) returns public.cart_items
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_variant public.product_variants;
  v_span interval;
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
  select make_interval(mins => b.duration_minutes + b.buffer_minutes) into v_span
  from public.bookable_services b where b.product_id = v_variant.product_id;
  if not found then
    raise exception 'not_bookable';
  end if;
  if p_starts_at is not null then
    perform private.lock_booking_spans(array[v_variant.product_id], array[p_starts_at], array[p_starts_at + v_span]);
  end if;
  if p_starts_at is null or not exists (
    select 1 from private.free_slots(v_variant.product_id, (p_starts_at at time zone 'Africa/Johannesburg')::date, 1, now(), v_uid, true, p_starts_at) f
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

-- private.book_order_lines(order, customer, from_cart): books each booked line of a new order
-- (place_order_for(), 100_checkout.sql; accept_quote(), 105_quotes.sql). Under the locks of every
-- line's hours (private.lock_booking_spans(), as holds take them), so orders for overlapping times
-- of one service queue here and each sees the bookings committed before it. Each line's time must
-- be free at this moment, not counting the customer's own holds; from a cart, a live hold was free
-- when taken (its notice is not asked again) and an expired one is offered again only if nobody
-- took the time since; otherwise (a quote) the notice is asked. Refused ('slot_taken', naming the
-- line and its time) when it is not free: the caller's transaction keeps nothing.
create function private.book_order_lines(p_order_id uuid, p_uid uuid, p_from_cart boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_need record;
begin
  perform private.lock_booking_spans(array_agg(i.product_id), array_agg(i.slot_starts_at),
                                     array_agg(i.slot_ends_at + make_interval(mins => b.buffer_minutes)))
  from public.order_items i
  join public.bookable_services b on b.product_id = i.product_id
  where i.order_id = p_order_id and i.slot_starts_at is not null;
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

-- Moving a booking -------------------------------------------------------------------------------
-- move_booking(booking, start): the caller's own booking (any booking, for an admin) to another
-- free time of its service. A customer may move it until the service's notice before its start, and
-- only to a time offered with notice; an admin at any time, to any free time. Under the locks of
-- the new time's hours, as holds and place_order take them; the booking's own place is out of the
-- count while the new time is checked, so it can move within its own span. Its old time is free at
-- once; the order line follows; the customer is mailed the new time with its calendar file.
-- Refused: 'booking_not_found', 'booking_cancelled', 'booking_too_late', 'not_bookable',
-- 'slot_taken'; nothing changes then.
create function public.move_booking(p_booking_id uuid, p_starts_at timestamptz) returns public.bookings
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := coalesce((select public.is_admin()), false);
  v_booking public.bookings;
  v_service public.bookable_services;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_booking from public.bookings b
  where b.id = p_booking_id and (b.user_id = v_uid or v_admin)
  for update;
  if not found then
    raise exception 'booking_not_found';
  end if;
  if v_booking.status <> 'booked' then
    raise exception 'booking_cancelled';
  end if;
  select * into v_service from public.bookable_services s where s.product_id = v_booking.product_id;
  if not found then
    raise exception 'not_bookable';
  end if;
  if not v_admin and v_booking.starts_at < now() + make_interval(hours => v_service.notice_hours) then
    raise exception 'booking_too_late';
  end if;
  if p_starts_at is not null then
    perform private.lock_booking_spans(array[v_booking.product_id], array[p_starts_at],
      array[p_starts_at + make_interval(mins => v_service.duration_minutes + v_service.buffer_minutes)]);
  end if;
  update public.bookings set status = 'cancelled' where id = v_booking.id;
  if p_starts_at is null or not exists (
    select 1 from private.free_slots(v_booking.product_id, (p_starts_at at time zone 'Africa/Johannesburg')::date, 1, now(), null, not v_admin, p_starts_at) f
    where f.starts_at = p_starts_at
  ) then
    raise exception 'slot_taken';
  end if;
  update public.bookings
  set status = 'booked', starts_at = p_starts_at,
      ends_at = p_starts_at + make_interval(mins => v_service.duration_minutes),
      free_at = p_starts_at + make_interval(mins => v_service.duration_minutes + v_service.buffer_minutes),
      updated_at = now()
  where id = v_booking.id
  returning * into v_booking;
  update public.order_items set slot_starts_at = v_booking.starts_at, slot_ends_at = v_booking.ends_at
  where id = v_booking.order_item_id;
  perform private.booking_notice(v_booking.id, 'booking_changed');
  return v_booking;
end
$$;
revoke execute on function public.move_booking(uuid, timestamptz) from public, anon;
grant execute on function public.move_booking(uuid, timestamptz) to authenticated, service_role;

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
-- credited (invoice_paid_order(), 080_invoices.sql); after it, the deposit is kept. Bookings of
-- lines cancelled on their own before were settled then (cancel_booking()).
create function private.deposit_refundable(p_order_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select not exists (
    select 1 from public.bookings b
    join public.order_items i on i.id = b.order_item_id
    where b.order_id = p_order_id and i.cancelled_at is null
      and now() > b.starts_at - make_interval(hours => b.refund_until_hours))
$$;
revoke execute on function private.deposit_refundable(uuid) from public, anon, authenticated;

-- Notices of a booking --------------------------------------------------------------------------
-- private.booking_notice(booking, template): the customer's notice of one booking as it is now
-- ('booking_changed': moved or cancelled, with its calendar file; 'booking_reminder'), through the
-- outbox in the caller's transaction. sequence orders the calendar file's versions of the event.
create function private.booking_notice(p_booking_id uuid, p_template text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_order public.orders;
  v_name text;
begin
  if p_template = 'booking_changed' then
    -- A reminder not sent yet is for a time that no longer holds: it is withdrawn with the change
    -- (a moved booking is reminded of its new time; a cancelled one never).
    delete from public.mail_outbox
      where template = 'booking_reminder' and sent_at is null and failed_at is null and data ->> 'bookingId' = p_booking_id::text;
  end if;
  select * into v_booking from public.bookings where id = p_booking_id;
  select * into v_order from public.orders where id = v_booking.order_id;
  select i.product_name into v_name from public.order_items i where i.id = v_booking.order_item_id;
  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, p_template, jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'bookingId', v_booking.id, 'name', v_name,
    'startsAt', v_booking.starts_at, 'endsAt', v_booking.ends_at, 'cancelled', v_booking.status = 'cancelled',
    'sequence', floor(extract(epoch from clock_timestamp()))::bigint));
end
$$;
revoke execute on function private.booking_notice(uuid, text) from public, anon, authenticated;

-- Cancelling a booking ---------------------------------------------------------------------------
-- private.cancel_order_line(item, refundable): the money of a booked line cancelled on its own
-- while the rest of its order goes on. Each invoice of the order not yet credited that bills the
-- line gets a credit note for the line's amount on it (private.issue_credit_note()), except a
-- deposit's past the booking's refund rule (not refundable), which the shop keeps (the line's
-- kept). The order's total no longer counts the line but what was kept, its deposit no longer
-- counts the line's deposit but what was kept, so the balance due drops by the line's balance;
-- an order whose balance comes to nothing has no balance any more. Counted stock the line took
-- is given back. Invoices issued later leave the line out (private.issue_invoice()).
create function private.cancel_order_line(p_item_id uuid, p_refundable boolean) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_item public.order_items;
  v_order public.orders;
  v_invoice public.invoices;
  v_price numeric(12, 2);
  v_kept numeric(12, 2) := 0;
  v_total numeric(12, 2);
  v_deposit numeric(12, 2);
begin
  select * into v_item from public.order_items where id = p_item_id and cancelled_at is null for update;
  if not found then
    return;
  end if;
  select * into v_order from public.orders where id = v_item.order_id for update;
  v_price := v_item.unit_price * v_item.quantity;
  for v_invoice in
    select i.* from public.invoices i
    where i.order_id = v_order.id and i.kind = 'invoice'
      and private.invoice_open(i.id)
      and (not private.lines_name_items(i.snapshot)
           or exists (select 1 from jsonb_array_elements(i.snapshot -> 'lines') l where l ->> 'itemId' = p_item_id::text))
    order by i.serial
  loop
    if v_invoice.snapshot ->> 'part' = 'deposit' and not p_refundable then
      v_kept := v_kept + coalesce(v_item.deposit, v_price);
    else
      perform private.issue_credit_note(v_invoice.id, p_item_id);
    end if;
  end loop;
  update public.order_items set cancelled_at = now(), kept = v_kept, stock_taken = 0 where id = p_item_id;
  if v_item.stock_taken > 0 then
    update public.product_variants set stock = stock + v_item.stock_taken where id = v_item.variant_id and stock is not null;
  end if;
  v_total := v_order.total - (v_price - v_kept);
  v_deposit := v_order.deposit - (coalesce(v_item.deposit, v_price) - v_kept);
  if v_deposit is not null and v_deposit >= v_total then
    update public.orders
    set total = v_total, deposit = null, balance_reference = null, balance_proof_path = null,
        balance_payment_method = null, balance_paid_at = null
    where id = v_order.id;
  else
    update public.orders set total = v_total, deposit = v_deposit where id = v_order.id;
  end if;
end
$$;
revoke execute on function private.cancel_order_line(uuid, boolean) from public, anon, authenticated;

-- cancel_booking(booking): the caller's own booking until its service's notice before its start,
-- any booking for an admin at any time. Under the locks of its hours, as holds, bookings and
-- moves take them: its time is free at once. The customer is mailed the cancellation (a cancelled
-- calendar event with the same uid). An order left with no booking and nothing else to deliver
-- is cancelled with it, so its deposit is credited within the refund rule and kept after it
-- (invoice_paid_order(), 080_invoices.sql). An order that goes on without it settles the line
-- alone (private.cancel_order_line()). Refused: 'booking_not_found', 'booking_cancelled',
-- 'booking_too_late'; nothing changes then.
create function public.cancel_booking(p_booking_id uuid) returns public.bookings
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_admin boolean := coalesce((select public.is_admin()), false);
  v_booking public.bookings;
  v_notice integer;
begin
  if v_uid is null then
    raise exception 'not_authenticated' using errcode = '42501';
  end if;
  select * into v_booking from public.bookings b
  where b.id = p_booking_id and (b.user_id = v_uid or v_admin)
  for update;
  if not found then
    raise exception 'booking_not_found';
  end if;
  if v_booking.status <> 'booked' then
    raise exception 'booking_cancelled';
  end if;
  select s.notice_hours into v_notice from public.bookable_services s where s.product_id = v_booking.product_id;
  if not v_admin and v_booking.starts_at < now() + make_interval(hours => coalesce(v_notice, 0)) then
    raise exception 'booking_too_late';
  end if;
  if v_booking.product_id is not null then
    perform private.lock_booking_spans(array[v_booking.product_id], array[v_booking.starts_at], array[v_booking.free_at]);
  end if;
  update public.bookings set status = 'cancelled', updated_at = now()
  where id = v_booking.id
  returning * into v_booking;
  perform private.booking_notice(v_booking.id, 'booking_changed');
  if not exists (select 1 from public.bookings b where b.order_id = v_booking.order_id and b.status = 'booked')
     and not exists (
       select 1 from public.order_items i
       where i.order_id = v_booking.order_id and i.slot_starts_at is null and not i.is_delivery_fee) then
    update public.orders set status = 'cancelled' where id = v_booking.order_id and status <> 'cancelled';
  else
    perform private.cancel_order_line(v_booking.order_item_id,
      now() <= v_booking.starts_at - make_interval(hours => v_booking.refund_until_hours));
  end if;
  return v_booking;
end
$$;
revoke execute on function public.cancel_booking(uuid) from public, anon;
grant execute on function public.cancel_booking(uuid) to authenticated, service_role;

-- Reminders ---------------------------------------------------------------------------------------
-- send_booking_reminders(now, limit): each booked booking starting within the next 24 hours whose
-- reminder has not gone out for its current start gets one notice through the outbox (e-mail, or
-- WhatsApp where the customer consents). The claim (reminded_for) and the notice are one
-- transaction, and rows another server holds are skipped (`for update skip locked`, the row
-- re-checked once free), so two servers never both send one; a cancelled booking is never
-- reminded, a moved one only of its new time. The server's timer calls it (service role only).
create function public.send_booking_reminders(p_now timestamptz, p_limit integer) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_count integer := 0;
begin
  for v_id in
    select b.id from public.bookings b
    where b.status = 'booked' and b.starts_at > p_now and b.starts_at <= p_now + interval '24 hours'
      and b.reminded_for is distinct from b.starts_at
    order by b.starts_at
    limit greatest(coalesce(p_limit, 100), 1)
    for update skip locked
  loop
    update public.bookings set reminded_for = starts_at where id = v_id;
    perform private.booking_notice(v_id, 'booking_reminder');
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
revoke execute on function public.send_booking_reminders(timestamptz, integer) from public, anon, authenticated;
grant execute on function public.send_booking_reminders(timestamptz, integer) to service_role;
