-- Issue 40, items 5 and 6 (docs/whatsapp.md): WhatsApp's settings in Shop settings, and the
-- owner's own WhatsApp alerts for each new order and each new booking. Current definitions are in
-- supabase/schemas/075_messaging.sql (the settings, the alerts) and 070_mail.sql (the outbox's
-- templates; mail_order_placed(), which supersedes 20261210000100_booking_changes.sql's).

alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
    'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
    'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
    'low_stock', 'back_in_stock', 'whatsapp_stopped', 'booking_changed', 'booking_reminder',
    'quote_requested', 'quote_sent', 'quote_change_asked', 'new_order_alert', 'new_booking_alert'));

-- public.whatsapp_settings --------------------------------------------------------------------
-- WhatsApp's settings in Shop settings (docs/whatsapp.md): whether it is on, the sending number's
-- id, the access token, the app secret and the webhook's verify token, and the owner's own alerts
-- (their mobile number and the switch). Admins only; the server reads them as the service role,
-- and the token and secrets never go back to a browser. While no row is saved the server uses
-- the WHATSAPP_* environment variables instead (src/server/messaging/whatsapp-settings.ts).
-- Triggers (they fire in name order within each timing):
--   whatsapp_settings_catalogue_changes: after insert or delete or update or truncate, per statement -> public.notify_catalogue_change() (020_catalogue.sql)
--   whatsapp_settings_stamp: before insert or update, per row -> public.stamp_shop_settings() (030_settings.sql)
create table public.whatsapp_settings (
  id boolean primary key default true check (id),
  enabled boolean not null default false,
  phone_number_id text not null default '' check (phone_number_id ~ '^([0-9]{1,30})?$'),
  access_token text not null default '' check (char_length(access_token) <= 1000 and access_token !~ '\s'),
  app_secret text not null default '' check (char_length(app_secret) <= 200 and app_secret !~ '\s'),
  verify_token text not null default '' check (verify_token = '' or (char_length(verify_token) between 16 and 200 and verify_token !~ '\s')),
  -- E.164 (+27821234567), checked by the server with libphonenumber-js before it gets here.
  owner_phone text not null default '' check (owner_phone = '' or owner_phone ~ '^\+[1-9][0-9]{6,14}$'),
  owner_alerts boolean not null default false,
  updated_at timestamptz not null default now()
);

alter table public.whatsapp_settings enable row level security;
create policy "whatsapp_settings: admin read" on public.whatsapp_settings
  for select to authenticated using ((select public.is_admin()));
create policy "whatsapp_settings: admin insert" on public.whatsapp_settings
  for insert to authenticated with check ((select public.is_admin()));
create policy "whatsapp_settings: admin update" on public.whatsapp_settings
  for update to authenticated using ((select public.is_admin())) with check ((select public.is_admin()));

revoke all on public.whatsapp_settings from anon, authenticated;
grant all on public.whatsapp_settings to service_role;
grant select on public.whatsapp_settings to authenticated;
grant insert (enabled, phone_number_id, access_token, app_secret, verify_token, owner_phone, owner_alerts),
      update (enabled, phone_number_id, access_token, app_secret, verify_token, owner_phone, owner_alerts) on public.whatsapp_settings to authenticated;

create trigger whatsapp_settings_stamp
  before insert or update on public.whatsapp_settings
  for each row execute function public.stamp_shop_settings();
-- Every process keeps the settings (the worker, the webhook, the consent choices on the pages):
-- each drops them when they change.
create trigger whatsapp_settings_catalogue_changes
  after insert or update or delete or truncate on public.whatsapp_settings
  for each statement execute function public.notify_catalogue_change();

-- The owner's number for their new-order and new-booking alerts, or null: WhatsApp switched on
-- with all four of its settings saved, the alerts switched on and a number saved. The one place
-- that is decided (enqueue_owner_alert() below, and the worker before each send).
create function private.whatsapp_owner_number()
returns text
language sql stable security definer set search_path = ''
as $$
  select s.owner_phone from public.whatsapp_settings s
    where s.id and s.enabled and s.owner_alerts and s.owner_phone <> ''
      and s.phone_number_id <> '' and s.access_token <> '' and s.app_secret <> '' and s.verify_token <> '';
$$;
revoke execute on function private.whatsapp_owner_number() from public, anon, authenticated;

-- An alert to the owner's own WhatsApp ('new_order_alert', 'new_booking_alert'), written in the
-- transaction of its event beside the shop's own mail, only while the owner asks for them. The
-- row's recipient is the shop's notice address: a message that fails for good is mailed there
-- once (fall_back_to_mail()). The number is the settings', read again when it is sent.
create function private.enqueue_owner_alert(p_template text, p_data jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_phone text := private.whatsapp_owner_number();
  v_id uuid;
begin
  if v_phone is null then
    return;
  end if;
  insert into public.mail_outbox (recipient, template, data, channel)
    values (coalesce(nullif(btrim(private.shop_notice_address()), ''), v_phone), p_template, p_data, 'whatsapp')
    returning id into v_id;
  perform pg_notify('mail_outbox', v_id::text);
end
$$;
revoke execute on function private.enqueue_owner_alert(text, jsonb) from public, anon, authenticated;

-- The worker's check before it sends an owner's alert (src/server/messaging/deliver-whatsapp.ts).
create function public.whatsapp_owner_alert_number()
returns text
language sql stable security definer set search_path = ''
as $$
  select private.whatsapp_owner_number();
$$;
revoke execute on function public.whatsapp_owner_alert_number() from public, anon, authenticated;
grant execute on function public.whatsapp_owner_alert_number() to service_role;

create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
  v_fulfilment jsonb;
  v_booking record;
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
  -- The owner's own WhatsApp alerts, while they ask for them (075_messaging.sql): the order, and
  -- each booking in it.
  perform private.enqueue_owner_alert('new_order_alert', jsonb_build_object(
    'reference', new.reference, 'customerName', new.customer_name, 'total', new.total,
    'paymentMethod', new.payment_method, 'proofUploaded', new.proof_path is not null));
  for v_booking in
    select i.product_name, b.starts_at from public.bookings b join public.order_items i on i.id = b.order_item_id
      where b.order_id = new.id order by b.starts_at, b.id
  loop
    perform private.enqueue_owner_alert('new_booking_alert', jsonb_build_object(
      'reference', new.reference, 'customerName', new.customer_name, 'service', v_booking.product_name, 'startsAt', v_booking.starts_at));
  end loop;
  return null;
end
$$;
