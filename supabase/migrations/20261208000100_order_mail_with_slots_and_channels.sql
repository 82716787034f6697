-- Bookings (20261207000300) and WhatsApp (20261208000000) each re-created mail_order_placed from the
-- one before them; this is both: the lines carry their booked times, and the customer's notice goes
-- through private.enqueue_customer_notice (supabase/schemas/070_mail.sql).
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
    'proofUploaded', new.proof_path is not null, 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  perform private.enqueue_mail(private.shop_notice_address(), 'new_order', jsonb_strip_nulls(jsonb_build_object(
    'customerName', new.customer_name, 'customerEmail', new.customer_email, 'reference', new.reference,
    'total', new.total, 'itemCount', greatest(v_count, 1), 'paymentMethod', new.payment_method, 'fulfilment', v_fulfilment)));
  return null;
end
$$;
