-- Changing and cancelling bookings, and their reminder (issue 38, docs/bookings.md): a customer
-- cancels their booking until the notice limit, an admin any; each move or cancellation frees the
-- time at once (under the service's lock) and is mailed with a calendar file whose event keeps its
-- uid (the booking's id); a reminder goes out 24 hours before the start, once per start, claimed
-- in SQL so two servers never both send it.
-- Supersedes: public.move_booking() of 20261207000400_move_booking.sql, public.mail_order_placed()
-- of 20261210000000_deposits_and_balances.sql.

alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
    'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
    'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
    'low_stock', 'back_in_stock', 'whatsapp_stopped', 'booking_changed', 'booking_reminder'));

-- The start the 24-hour reminder went out for.
alter table public.bookings add column reminded_for timestamptz;

-- The reminders' sweep, and the admins' calendar: booked bookings by start.
create index bookings_booked_starts_idx on public.bookings (starts_at) where status = 'booked';

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

-- Moving a booking -------------------------------------------------------------------------------
-- move_booking(booking, start): the caller's own booking (any booking, for an admin) to another
-- free time of its service. A customer may move it until the service's notice before its start,
-- and only to a time offered with notice; an admin at any time, to any free time. Under the
-- service's lock, as holds and place_order take it; the booking's own place is out of the count
-- while the new time is checked, so it can move within its own span. Its old time is free at
-- once; the order line follows; the customer is mailed the new time with its calendar file.
-- Refused: 'booking_not_found', 'booking_cancelled', 'booking_too_late', 'not_bookable',
-- 'slot_taken'; nothing changes then.
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
  perform private.booking_notice(v_booking.id, 'booking_changed');
  return v_booking;
end
$$;
revoke execute on function public.move_booking(uuid, timestamptz) from public, anon;
grant execute on function public.move_booking(uuid, timestamptz) to authenticated, service_role;

-- Cancelling a booking ---------------------------------------------------------------------------
-- cancel_booking(booking): the caller's own booking until its service's notice before its start,
-- any booking for an admin at any time. Under the service's lock, as holds, bookings and moves
-- take it: its time is free at once. The customer is mailed the cancellation (a cancelled
-- calendar event with the same uid). An order left with no booking and nothing else to deliver
-- is cancelled with it, so its deposit is credited within the refund rule and kept after it
-- (invoice_paid_order(), 080_invoices.sql). Refused: 'booking_not_found', 'booking_cancelled',
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
    perform pg_advisory_xact_lock(hashtextextended('booking:' || v_booking.product_id::text, 0));
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
                                               'startsAt', i.slot_starts_at, 'endsAt', i.slot_ends_at,
                                               'bookingId', (select b.id from public.bookings b where b.order_item_id = i.id))
                                    order by i.product_id is null, i.id), '[]'::jsonb),
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
