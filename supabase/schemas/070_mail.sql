-- The transactional mail outbox (src/server/mail/): every mail is a row written by SQL in the same
-- transaction as its event (order placed, status changed, unpaid order cancelled, contact
-- message, account deleted, payment received, low stock, back in stock), so no committed event
-- lacks its mail and no rolled-back event sends one. Delivery is at least once: the Message-ID is
-- derived from the row's id. See docs/architecture.md#mail-outbox.

-- public.mail_outbox --------------------------------------------------------------------------
-- Every mail is a row written by SQL in the same transaction as its event. A worker in each
-- server process claims due rows (`for update skip locked`), sends them and marks them; failures
-- back off up to a day, and after 10 tries a row is marked failed for the admins to see.
create table public.mail_outbox (
  id uuid primary key default gen_random_uuid(),
  recipient text not null check (char_length(recipient) between 3 and 255),
  -- The templates the server renders (src/server/mail/).
  template text not null check (template in (
    'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
    'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
    'low_stock', 'back_in_stock', 'whatsapp_stopped', 'booking_changed', 'booking_reminder',
    'quote_requested', 'quote_sent', 'quote_change_asked', 'new_order_alert', 'new_booking_alert')),
  data jsonb not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  -- Also the claim: a worker that takes a row moves this forward while it sends.
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  failed_at timestamptz,
  last_error text check (char_length(last_error) <= 2000),
  -- The channel (075_messaging.sql): 'email', or 'whatsapp' for a customer's order notice while
  -- they consent to it (recipient stays their e-mail address, the fallback), and for the owner's
  -- own alerts while they ask for them (recipient: the shop's notice address). user_id: whose
  -- consent the row depends on, checked again when it is sent.
  channel text not null default 'email' check (channel in ('email', 'whatsapp')),
  user_id uuid references public.profiles (id) on delete set null,
  -- WhatsApp's id for the sent message, and the latest delivery status it reported (webhook).
  provider_message_id text unique check (char_length(provider_message_id) <= 200),
  delivery_status text check (delivery_status in ('sent', 'delivered', 'read', 'failed')),
  delivery_status_at timestamptz,
  -- An e-mail sent because this WhatsApp row failed for good: at most one per row.
  fallback_of uuid unique references public.mail_outbox (id) on delete cascade
);

create index mail_outbox_due_idx on public.mail_outbox (next_attempt_at) where sent_at is null and failed_at is null;
create index mail_outbox_created_idx on public.mail_outbox (created_at desc);
-- One order's messages (Order Management): the notices name the order's reference.
create index mail_outbox_reference_idx on public.mail_outbox ((data ->> 'reference'));

alter table public.mail_outbox enable row level security;
-- Admins may read the outbox (the Outbox page); nobody writes it through the API: rows come from
-- the triggers below, and the worker runs on the server's own connection.
create policy "mail_outbox: admins read" on public.mail_outbox
  for select to authenticated using ((select public.is_admin()));

revoke all on public.mail_outbox from anon, authenticated;
grant all on public.mail_outbox to service_role;
grant select on public.mail_outbox to authenticated;

-- Writes a mail into the outbox and wakes the workers (a NOTIFY is delivered on commit only).
create function private.enqueue_mail(p_recipient text, p_template text, p_data jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_recipient is null or btrim(p_recipient) = '' then
    return;
  end if;
  insert into public.mail_outbox (recipient, template, data) values (btrim(p_recipient), p_template, p_data) returning id into v_id;
  perform pg_notify('mail_outbox', v_id::text);
end
$$;
revoke execute on function private.enqueue_mail(text, text, jsonb) from public, anon, authenticated;

-- Where the shop's notices go: the order-notice inbox, else the published contact address.
create function private.shop_notice_address()
returns text
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    (select orders_email from public.shop_private_settings where id),
    (select contact_email from public.shop_settings where id)
  );
$$;
revoke execute on function private.shop_notice_address() from public, anon, authenticated;

-- Order placed: to the customer (items, total, reference, how it is to be paid, and the opening
-- hours for a collection; the bank details come from the settings when the mail is rendered) and
-- to the shop, and the owner's WhatsApp alerts for it and its bookings when they are on. A deferred trigger, so it runs at commit, when place_order has written the order's
-- lines too.
create function public.mail_order_placed() returns trigger
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
revoke execute on function public.mail_order_placed() from public, anon, authenticated;
grant execute on function public.mail_order_placed() to service_role;
create constraint trigger orders_mail_placed
  after insert on public.orders
  deferrable initially deferred
  for each row execute function public.mail_order_placed();

-- Status changed: to the customer, in the customer's words (the template words it), naming the
-- invoice or credit note the same change issued (orders_invoice_payment runs first: triggers fire
-- by name). The shop's own cancellation of an unpaid order (cancel_unpaid_orders() marks it with
-- 'shop.status_reason') gets its own mail saying why; a change made by a payment has its own
-- mails (record_online_payment(), 085_payments.sql).
create function public.mail_order_status() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := nullif(current_setting('shop.status_reason', true), '');
  v_days integer := substring(v_reason from 'within ([0-9]+) day')::integer;
  v_document jsonb;
begin
  if new.status is not distinct from old.status or v_reason like 'Paid by %' then
    return null;
  end if;
  select jsonb_build_object('id', i.id, 'number', i.number, 'kind', i.kind) into v_document
    from public.invoices i
    where i.order_id = new.id and i.issued_at = now()
    order by i.kind = 'credit_note' desc, i.serial desc
    limit 1;
  if new.status = 'cancelled' and v_days is not null then
    perform private.enqueue_customer_notice(new.user_id, new.customer_email, 'order_cancelled_unpaid', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'total', new.total, 'days', v_days));
  else
    perform private.enqueue_customer_notice(new.user_id, new.customer_email, 'status_changed', jsonb_build_object(
      'customerName', new.customer_name, 'reference', new.reference, 'status', new.status)
      || case when new.fulfilment_method is null then '{}'::jsonb
         else jsonb_build_object('fulfilment', jsonb_build_object('method', new.fulfilment_method, 'day', new.fulfilment_day)) end
      || case when v_document is null then '{}'::jsonb else jsonb_build_object('document', v_document) end
      -- An admin marked a bank transfer received: on WhatsApp this is "payment confirmed".
      || case when old.status = 'pending_payment' and new.status = 'pending_delivery'
         then jsonb_build_object('paidAmount', coalesce(new.deposit, new.total)) else '{}'::jsonb end);
  end if;
  return null;
end
$$;
revoke execute on function public.mail_order_status() from public, anon, authenticated;
grant execute on function public.mail_order_status() to service_role;
create trigger orders_mail_status
  after update of status on public.orders
  for each row execute function public.mail_order_status();

-- A contact message: to the shop (the mail's Reply-To is the sender).
create function public.mail_contact_message() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.enqueue_mail(
    coalesce((select contact_email from public.shop_settings where id), private.shop_notice_address()),
    'contact_message',
    jsonb_build_object('name', new.name, 'email', new.email, 'phone', new.phone, 'message', new.message));
  return null;
end
$$;
revoke execute on function public.mail_contact_message() from public, anon, authenticated;
grant execute on function public.mail_contact_message() to service_role;
create trigger contact_messages_mail
  after insert on public.contact_messages
  for each row execute function public.mail_contact_message();

-- An account deleted: to the former customer, confirming what went and what stays.
create function public.mail_account_deleted() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.enqueue_mail(old.email, 'account_deleted', jsonb_build_object(
    'customerName', coalesce(nullif(btrim(old.full_name), ''), old.email)));
  return null;
end
$$;
revoke execute on function public.mail_account_deleted() from public, anon, authenticated;
grant execute on function public.mail_account_deleted() to service_role;
create trigger profiles_mail_deleted
  after delete on public.profiles
  for each row execute function public.mail_account_deleted();

-- A variant came to its low-stock mark (variant_low_stock_mark(), 020_catalogue.sql marks each
-- crossing once): the live notice for admins and a mail to the shop's notice address.
create function public.notice_low_stock() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_name text;
begin
  select public.variant_line_name(p.name, new.option_values) into v_name from public.products p where p.id = new.product_id;
  insert into public.low_stock_notices (variant_id, stock, low_stock_at)
    values (new.id, new.stock, new.low_stock_at) returning id into v_id;
  perform pg_notify('shop_changes', json_build_object('table', 'low_stock_notices', 'op', 'INSERT', 'id', v_id)::text);
  perform private.enqueue_mail(private.shop_notice_address(), 'low_stock', jsonb_strip_nulls(jsonb_build_object(
    'productId', new.product_id, 'productName', v_name, 'sku', new.sku, 'stock', new.stock, 'lowStockAt', new.low_stock_at)));
  return null;
end
$$;
revoke execute on function public.notice_low_stock() from public, anon, authenticated;
grant execute on function public.notice_low_stock() to service_role;
create trigger product_variants_low_stock_notice
  after update of stock, low_stock_at on public.product_variants
  for each row when (old.low_stock_notified_at is null and new.low_stock_notified_at is not null)
  execute function public.notice_low_stock();

-- Back in stock: one mail per request, and the request is gone (POPIA: asked once, told once).
create function public.mail_back_in_stock() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_request record;
  v_name text;
begin
  select public.variant_line_name(p.name, new.option_values) into v_name from public.products p where p.id = new.product_id;
  for v_request in
    delete from public.back_in_stock_requests r using public.profiles p
    where r.variant_id = new.id and p.id = r.user_id
    returning p.email, coalesce(nullif(btrim(p.full_name), ''), p.email) as customer_name
  loop
    perform private.enqueue_mail(v_request.email, 'back_in_stock', jsonb_build_object(
      'customerName', v_request.customer_name, 'productId', new.product_id, 'productName', v_name));
  end loop;
  return null;
end
$$;
revoke execute on function public.mail_back_in_stock() from public, anon, authenticated;
grant execute on function public.mail_back_in_stock() to service_role;
create trigger product_variants_back_in_stock
  after update of stock on public.product_variants
  for each row when (old.stock = 0 and (new.stock is null or new.stock > 0))
  execute function public.mail_back_in_stock();
