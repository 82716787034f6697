-- Bookings of one service lock only the hours they cover (private.lock_booking_spans()), instead
-- of the whole service: checkouts, holds and moves of times that do not overlap no longer wait
-- for each other; overlapping ones still queue, which keeps the last place single.
-- private.free_slots() becomes PL/pgSQL with one generic plan per connection: as a SQL function
-- it was parsed and planned again at every call, most of a checkout's booking cost.
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

create or replace function public.add_booking_to_cart(p_variant_id uuid, p_starts_at timestamptz) returns public.cart_items
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

create or replace function private.book_order_lines(p_order_id uuid, p_uid uuid, p_from_cart boolean) returns void
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

create or replace function public.move_booking(p_booking_id uuid, p_starts_at timestamptz) returns public.bookings
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

create or replace function public.cancel_booking(p_booking_id uuid) returns public.bookings
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
  end if;
  return v_booking;
end
$$;
revoke execute on function public.cancel_booking(uuid) from public, anon;
grant execute on function public.cancel_booking(uuid) to authenticated, service_role;

create or replace function private.free_slots(
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
