-- A booking moved or cancelled withdraws its reminder if it has not gone out yet (issue 38):
-- written before the change (the sweep runs every 5 minutes; a server killed before sending
-- keeps it), it named a time that no longer holds.
create or replace function private.booking_notice(p_booking_id uuid, p_template text) returns void
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
