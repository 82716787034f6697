-- Moving a booking (issue 38; docs/bookings.md): move_booking(), for its customer until the
-- notice limit and for admins at any time; the old time is free at once.

-- Moving a booking -------------------------------------------------------------------------------
-- move_booking(booking, start): the caller's own booking (any booking, for an admin) to another
-- free time of its service. A customer may move it until the service's notice before its start,
-- and only to a time offered with notice; an admin at any time, to any free time. Under the
-- service's lock, as holds and place_order take it; the booking's own place is out of the count
-- while the new time is checked, so it can move within its own span. Its old time is free at
-- once; the order line follows. Refused: 'booking_not_found', 'booking_cancelled',
-- 'booking_too_late', 'not_bookable', 'slot_taken'; nothing changes then.
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
  perform pg_advisory_xact_lock(hashtextextended('booking:' || v_booking.product_id::text, 0));
  update public.bookings set status = 'cancelled' where id = v_booking.id;
  if p_starts_at is null or not exists (
    select 1 from private.free_slots(v_booking.product_id, (p_starts_at at time zone 'Africa/Johannesburg')::date, 1, now(), null, not v_admin) f
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
  return v_booking;
end
$$;
revoke execute on function public.move_booking(uuid, timestamptz) from public, anon;
grant execute on function public.move_booking(uuid, timestamptz) to authenticated, service_role;
