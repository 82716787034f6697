-- Order updates on WhatsApp with POPIA consent (issue 40; supabase/schemas/075_messaging.sql):
-- consents as rows, the outbox's channel per row (e-mail, or WhatsApp while the customer
-- consents), WhatsApp's delivery statuses on the row, and one e-mail fallback per failed message.

alter table public.mail_outbox drop constraint mail_outbox_template_check;
alter table public.mail_outbox add constraint mail_outbox_template_check check (template in (
    'order_received', 'status_changed', 'order_cancelled_unpaid', 'new_order', 'contact_message', 'account_deleted',
    'payment_received', 'payment_notice', 'password_reset', 'email_change_confirm', 'email_change_notice',
    'low_stock', 'back_in_stock', 'whatsapp_stopped'));
alter table public.mail_outbox
  add column channel text not null default 'email' check (channel in ('email', 'whatsapp')),
  add column user_id uuid references public.profiles (id) on delete set null,
  add column provider_message_id text unique check (char_length(provider_message_id) <= 200),
  add column delivery_status text check (delivery_status in ('sent', 'delivered', 'read', 'failed')),
  add column delivery_status_at timestamptz,
  add column fallback_of uuid unique references public.mail_outbox (id) on delete cascade;

create table public.messaging_consents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  kind text not null check (kind in ('whatsapp_updates', 'offers')),
  -- E.164 (+27821234567), checked by the server with libphonenumber-js before it gets here.
  phone text not null check (phone ~ '^\+[1-9][0-9]{6,14}$'),
  source text not null check (source in ('profile', 'signup', 'checkout')),
  words text not null check (char_length(btrim(words)) between 1 and 1000),
  given_at timestamptz not null default now(),
  withdrawn_at timestamptz,
  withdrawn_via text check (withdrawn_via in ('profile', 'stop')),
  check ((withdrawn_at is null) = (withdrawn_via is null))
);

create unique index messaging_consents_live_idx on public.messaging_consents (user_id, kind) where withdrawn_at is null;
create index messaging_consents_phone_idx on public.messaging_consents (phone) where withdrawn_at is null;

alter table public.messaging_consents enable row level security;
create policy "messaging_consents: read own, admins all" on public.messaging_consents
  for select to authenticated using (user_id = (select auth.uid()) or (select public.is_admin()));

revoke all on public.messaging_consents from anon, authenticated;
grant select on public.messaging_consents to authenticated;
grant all on public.messaging_consents to service_role;

-- The caller gives a consent (a new row; a live one of the same kind is withdrawn first, so the
-- record shows each number and wording the customer agreed to).
create function public.give_messaging_consent(p_kind text, p_phone text, p_source text, p_words text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_id uuid;
begin
  if v_user is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'profile'
    where user_id = v_user and kind = p_kind and withdrawn_at is null;
  insert into public.messaging_consents (user_id, kind, phone, source, words)
    values (v_user, p_kind, p_phone, p_source, p_words) returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.give_messaging_consent(text, text, text, text) from public, anon;
grant execute on function public.give_messaging_consent(text, text, text, text) to authenticated, service_role;

-- The caller withdraws a consent (one tap on the profile). True when there was one to withdraw.
create function public.withdraw_messaging_consent(p_kind text)
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'profile'
    where user_id = auth.uid() and kind = p_kind and withdrawn_at is null;
  get diagnostics v_count = row_count;
  return v_count > 0;
end
$$;
revoke execute on function public.withdraw_messaging_consent(text) from public, anon;
grant execute on function public.withdraw_messaging_consent(text) to authenticated, service_role;

-- The number a customer's order updates may go to on WhatsApp now, or null: the one place the
-- channel is chosen from (enqueue_customer_notice() below, and the worker before each send).
create function private.whatsapp_number(p_user_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$
  select c.phone from public.messaging_consents c
    where c.user_id = p_user_id and c.kind = 'whatsapp_updates' and c.withdrawn_at is null
    order by c.given_at desc limit 1;
$$;
revoke execute on function private.whatsapp_number(uuid) from public, anon, authenticated;

-- A customer's order notice: on WhatsApp while they consent to it, by e-mail otherwise. The
-- e-mail address is kept on the row either way: a WhatsApp message that fails for good falls
-- back to it, once.
create function private.enqueue_customer_notice(p_user_id uuid, p_recipient text, p_template text, p_data jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_user_id is null or private.whatsapp_number(p_user_id) is null or p_recipient is null or btrim(p_recipient) = '' then
    perform private.enqueue_mail(p_recipient, p_template, p_data);
    return;
  end if;
  insert into public.mail_outbox (recipient, template, data, channel, user_id)
    values (btrim(p_recipient), p_template, p_data, 'whatsapp', p_user_id) returning id into v_id;
  perform pg_notify('mail_outbox', v_id::text);
end
$$;
revoke execute on function private.enqueue_customer_notice(uuid, text, text, jsonb) from public, anon, authenticated;

-- Inbound "STOP" on WhatsApp (the webhook, src/server/messaging/webhook.ts): every live WhatsApp
-- consent for that number is withdrawn at once, and one confirmation is written to the outbox
-- (a reply, not a notice). A second STOP finds nothing live and is not confirmed again.
create function public.whatsapp_stop(p_phone text)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_user uuid;
  v_count integer;
  v_id uuid;
begin
  with withdrawn as (
    update public.messaging_consents set withdrawn_at = now(), withdrawn_via = 'stop'
      where phone = p_phone and kind = 'whatsapp_updates' and withdrawn_at is null
      returning user_id
  )
  select count(*), min(user_id::text)::uuid into v_count, v_user from withdrawn;
  if v_count > 0 then
    insert into public.mail_outbox (recipient, template, data, channel, user_id)
      values (p_phone, 'whatsapp_stopped', '{}'::jsonb, 'whatsapp', v_user) returning id into v_id;
    perform pg_notify('mail_outbox', v_id::text);
  end if;
  return v_count;
end
$$;
revoke execute on function public.whatsapp_stop(text) from public, anon, authenticated;
grant execute on function public.whatsapp_stop(text) to service_role;

-- private.whatsapp_inbound_seen -----------------------------------------------------------------
-- The ids of inbound WhatsApp messages already taken: Meta sends a webhook again until it gets a
-- 200, so the same message may arrive twice; it becomes one contact message.
create table private.whatsapp_inbound_seen (
  message_id text primary key check (char_length(message_id) <= 200),
  received_at timestamptz not null default now()
);
-- Only whatsapp_inbound() writes it; nobody reads it through the API.
alter table private.whatsapp_inbound_seen enable row level security;
revoke all on private.whatsapp_inbound_seen from public, anon, authenticated;

-- Any other inbound WhatsApp message: shown to admins as a contact message from the customer
-- (their name and e-mail when the number is a customer's, else the number and WhatsApp's name).
-- Null when that message was taken before.
create function public.whatsapp_inbound(p_message_id text, p_phone text, p_name text, p_text text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_profile record;
  v_id uuid;
begin
  insert into private.whatsapp_inbound_seen (message_id) values (p_message_id) on conflict do nothing;
  if not found then
    return null;
  end if;
  select p.id, p.email, p.full_name into v_profile
    from public.messaging_consents c join public.profiles p on p.id = c.user_id
    where c.phone = p_phone order by c.withdrawn_at is null desc, c.given_at desc limit 1;
  insert into public.contact_messages (name, email, phone, message, user_id)
    values (
      left(coalesce(nullif(btrim(v_profile.full_name), ''), nullif(btrim(p_name), ''), p_phone), 100),
      coalesce(v_profile.email, 'whatsapp:' || p_phone),
      p_phone,
      left('(WhatsApp) ' || p_text, 5000),
      v_profile.id)
    returning id into v_id;
  return v_id;
end
$$;
revoke execute on function public.whatsapp_inbound(text, text, text, text) from public, anon, authenticated;
grant execute on function public.whatsapp_inbound(text, text, text, text) to service_role;

-- A delivery status from WhatsApp (sent, delivered, read, failed) for the outbox row whose message
-- it was. Statuses arrive out of order and more than once: a row's status only moves forward
-- (sent < delivered < read; failed is final), so a late "sent" never hides a "read". A failure
-- reported after the send falls back to e-mail, once. Returns the row's status now (null: no such message).
create function public.record_whatsapp_status(p_message_id text, p_outbox_id uuid, p_status text, p_at timestamptz, p_error text default null)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.mail_outbox;
  v_rank constant jsonb := '{"sent": 1, "delivered": 2, "read": 3, "failed": 4}';
begin
  if not (v_rank ? p_status) then
    raise exception 'unknown status %', p_status using errcode = '22023';
  end if;
  -- By WhatsApp's id, or by the outbox row's own (biz_opaque_callback_data): a status may arrive
  -- before the worker has written down the id WhatsApp answered with.
  select * into v_row from public.mail_outbox
    where channel = 'whatsapp' and (provider_message_id = p_message_id or (p_outbox_id is not null and id = p_outbox_id and provider_message_id is null))
    order by (provider_message_id = p_message_id) is true desc limit 1
    for update;
  if not found then
    return null;
  end if;
  if v_row.delivery_status is null or (v_rank ->> p_status)::int > (v_rank ->> v_row.delivery_status)::int then
    update public.mail_outbox set delivery_status = p_status, delivery_status_at = p_at,
      provider_message_id = coalesce(provider_message_id, p_message_id),
      last_error = case when p_status = 'failed' then left(coalesce(p_error, 'WhatsApp could not deliver it'), 2000) else last_error end
      where id = v_row.id;
    if p_status = 'failed' then
      perform private.fall_back_to_mail(v_row.id);
    end if;
    return p_status;
  end if;
  if v_row.provider_message_id is null then
    update public.mail_outbox set provider_message_id = p_message_id where id = v_row.id;
  end if;
  return v_row.delivery_status;
end
$$;
revoke execute on function public.record_whatsapp_status(text, uuid, text, timestamptz, text) from public, anon, authenticated;
grant execute on function public.record_whatsapp_status(text, uuid, text, timestamptz, text) to service_role;

-- A WhatsApp notice that failed for good goes by e-mail instead, once (unique fallback_of).
create function private.fall_back_to_mail(p_id uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into public.mail_outbox (recipient, template, data, channel, user_id, fallback_of)
    select m.recipient, m.template, m.data, 'email', m.user_id, m.id from public.mail_outbox m
      where m.id = p_id and m.channel = 'whatsapp' and m.template <> 'whatsapp_stopped' and m.recipient like '%@%'
    on conflict (fallback_of) do nothing
    returning id into v_id;
  if v_id is not null then
    perform pg_notify('mail_outbox', v_id::text);
  end if;
end
$$;
revoke execute on function private.fall_back_to_mail(uuid) from public, anon, authenticated;

-- The worker's fallback (src/server/mail/outbox.ts): a WhatsApp row given up on.
create function public.whatsapp_fall_back(p_id uuid)
returns void
language sql security definer set search_path = ''
as $$
  select private.fall_back_to_mail(p_id);
$$;
revoke execute on function public.whatsapp_fall_back(uuid) from public, anon, authenticated;
grant execute on function public.whatsapp_fall_back(uuid) to service_role;

-- The customer's order notices now go through enqueue_customer_notice().
create or replace function public.mail_order_placed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_items jsonb;
  v_count integer;
  v_fulfilment jsonb;
begin
  select coalesce(jsonb_agg(jsonb_build_object('name', public.order_line_label(i.product_name, i.personalisation), 'quantity', i.quantity, 'unitPrice', i.unit_price) order by i.product_id is null, i.id), '[]'::jsonb),
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

create or replace function public.mail_order_status() returns trigger
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
      || case when v_document is null then '{}'::jsonb else jsonb_build_object('document', v_document) end);
  end if;
  return null;
end
$$;

create or replace function public.record_online_payment(p_provider text, p_provider_payment_id text, p_order_id uuid, p_amount numeric, p_details jsonb)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_order public.orders;
  v_outcome text;
  v_id uuid;
  v_label text := case p_provider when 'payfast' then 'PayFast' else p_provider end;
begin
  -- Concurrent copies of one notification queue here; the first writes, the rest find its row.
  select * into v_order from public.orders where id = p_order_id for update;
  if not found then
    raise exception 'order_unknown';
  end if;
  if p_amount is distinct from v_order.total then
    raise exception 'amount_mismatch';
  end if;
  v_outcome := case when v_order.status = 'pending_payment' then 'applied' else 'refund_due' end;

  insert into public.payments (order_id, provider, provider_payment_id, amount, outcome, details)
  values (p_order_id, p_provider, p_provider_payment_id, p_amount, v_outcome, coalesce(p_details, '{}'::jsonb))
  on conflict (provider, provider_payment_id) do nothing
  returning id into v_id;
  if v_id is null then
    return 'duplicate';
  end if;

  if v_outcome = 'applied' then
    -- The history says who: the payment, not a person (record_order_status reads the reason).
    perform set_config('shop.status_reason', 'Paid by ' || v_label, true);
    update public.orders set status = 'pending_delivery', payment_method = p_provider where id = p_order_id;
    perform set_config('shop.status_reason', '', true);
  else
    -- The order stays as it is; touching it tells Order Management (live) that it has news.
    update public.orders set updated_at = now() where id = p_order_id;
  end if;

  perform private.enqueue_customer_notice(v_order.user_id, v_order.customer_email, 'payment_received', jsonb_build_object(
    'customerName', v_order.customer_name, 'reference', v_order.reference, 'amount', p_amount,
    'provider', v_label, 'refundDue', v_outcome = 'refund_due'));
  perform private.enqueue_mail(private.shop_notice_address(), 'payment_notice', jsonb_build_object(
    'customerName', v_order.customer_name, 'customerEmail', v_order.customer_email, 'reference', v_order.reference,
    'amount', p_amount, 'provider', v_label, 'providerPaymentId', p_provider_payment_id, 'refundDue', v_outcome = 'refund_due'));
  return v_outcome;
end
$$;
